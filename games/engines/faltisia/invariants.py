"""Invariants that must hold after every step (used by the simulator and the property tests)."""

from __future__ import annotations

from collections import Counter

from .cards import CARDS

ALL_CARDS = Counter(CARDS.keys())
SEAT_LISTS = ("offer", "reqs", "hand", "pack", "picked", "up", "down", "items")


def card_locations(state: dict) -> Counter:
    """Every card id wherever it is (abilities of unchosen characters travel with them)."""
    c = Counter()
    for d in state["decks"].values():
        c.update(d)
    c.update(state["item_deck"])
    c.update(state["store"])
    c.update(state["box"])
    c.update(state["chars_free"])
    c.update(x[1:] for x in state["chars_free"])
    for s in state["seats"]:
        for key in SEAT_LISTS:
            c.update(s[key])
        for key in ("char", "ability", "played"):
            if s[key]:
                c[s[key]] += 1
    cm = state.get("classmate")
    if cm is not None:
        for key in ("reqs", "stack", "up", "down", "items"):
            c.update(cm[key])
        for key in ("char", "ability"):
            if cm[key]:
                c[cm[key]] += 1
    return c


def cards_played_expected(state: dict) -> int:
    ph = state["phase"]
    if ph == "over":
        return 21
    if ph in ("characters", "setup"):
        return 0
    if ph == "draft":
        return (state["round"] - 1) * 7
    base = (state["round"] - 1) * 7 + state["term"] - 1
    return base + (1 if ph == "reprompt" and state["qctx"] == "action" else 0)


def _classmate(state: dict, cm: dict) -> list[str]:
    """The solo Classmate: counts match its token line, values in range, one card played per Action phase."""
    bad = []
    if [cm["line"].count(i) for i in range(5)] != cm["tok"]:
        bad.append(f"classmate: token line {cm['line']} does not match counts {cm['tok']}")
    if not all(1 <= a <= 15 for a in cm["attr"]) or cm["ster"] < 0 or cm["mp"] < 0:
        bad.append(f"classmate: out of range: attributes {cm['attr']} sterlings {cm['ster']} mp {cm['mp']}")
    if len(cm["up"]) + len(cm["down"]) != cards_played_expected(state):
        bad.append(f"classmate: {len(cm['up']) + len(cm['down'])} cards played, "
                   f"expected {cards_played_expected(state)}")
    if len(cm["reqs"]) != 2:
        bad.append("classmate: two Graduation Requirements expected")
    return bad


def check(state: dict) -> list[str]:
    """Return the broken invariants (empty when all hold)."""
    bad = []
    for i, s in enumerate(state["seats"]):
        if s["attr"] is not None and not all(1 <= a <= 15 for a in s["attr"]):
            bad.append(f"seat {i}: attribute out of 1..15: {s['attr']}")
        if min(s["tok"]) < 0 or s["ster"] < 0 or s["mp"] < 0:
            bad.append(f"seat {i}: negative count: tokens {s['tok']} sterlings {s['ster']} mp {s['mp']}")
        played = len(s["up"]) + len(s["down"]) + (1 if s["played"] else 0)
        if played != cards_played_expected(state):
            bad.append(f"seat {i}: {played} cards played, expected {cards_played_expected(state)}")
    cm = state.get("classmate")
    if cm is not None:
        bad += _classmate(state, cm)
    if card_locations(state) != ALL_CARDS:
        diff = (card_locations(state) - ALL_CARDS) + (ALL_CARDS - card_locations(state))
        bad.append(f"cards not conserved: {dict(diff)}")
    return bad
