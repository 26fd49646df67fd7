"""Invariants that must hold after every step (used by the simulator and the property tests)."""

from __future__ import annotations

from collections import Counter

from . import london
from .cards import CARDS

ALL_CARDS = Counter(c.id for c in CARDS.values() if not c.expansion)
BFL_CARDS = Counter(CARDS.keys())  # with the Battle for London: its abilities and requirements too
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
        if "bfl" in s:
            c.update(s["bfl"]["offer"])
            if s["bfl"]["aside"]:
                c[s["bfl"]["aside"]] += 1
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
    # A step opened in the middle of the action step's resolution: this Term's card is already played.
    return base + (1 if ph in ("reprompt", "route", "bigben") and state["qctx"] == "action" else 0)


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


def _london(state: dict) -> list[str]:
    """Battle for London: every checkpoint token on the board or one Peacekeeping card; one marker per route;
    Big Ben bonuses match the seats that took them; no Peacekeeping without the licence."""
    bad = []
    seats = state["seats"]
    tokens = [t for sp in state["london"]["spaces"].values() for t in sp if t] + [
        t for s in seats for t in s["bfl"]["tokens"]]
    if sorted(tokens) != sorted(london.CHECKPOINTS):
        bad.append("checkpoint tokens not conserved")
    routes = [s["bfl"]["route"] for s in seats if s["bfl"]["route"]]
    if len(routes) != len(set(routes)):
        bad.append(f"two markers on one route: {routes}")
    for i, s in enumerate(seats):
        pk = s["bfl"]
        if (pk["route"] or pk["pos"]) and not s["lic"]:
            bad.append(f"seat {i}: on the Peacekeeping board without the licence")
        if len(pk["tokens"]) != min(pk["pos"], 4) or pk["controls"] != max(0, pk["pos"] - 2):
            bad.append(f"seat {i}: position {pk['pos']} does not match tokens {pk['tokens']} / controls")
    taken = {b: who for b, who in state["london"]["big_ben"].items() if who is not None}
    if taken != {s["bfl"]["bonus"]: i for i, s in enumerate(seats) if s["bfl"]["bonus"]}:
        bad.append(f"Big Ben bonuses {taken} do not match the seats")
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
        if "bfl" in s and s["bfl"]["bonus"] == "ability":
            played -= 1  # the set-aside Maid Ability played at Big Ben is not the Term's card
        if played != cards_played_expected(state):
            bad.append(f"seat {i}: {played} cards played, expected {cards_played_expected(state)}")
    cm = state.get("classmate")
    if cm is not None:
        bad += _classmate(state, cm)
    if state.get("london") is not None:
        bad += _london(state)
    expected = BFL_CARDS if state.get("london") is not None else ALL_CARDS
    if card_locations(state) != expected:
        diff = (card_locations(state) - expected) + (expected - card_locations(state))
        bad.append(f"cards not conserved: {dict(diff)}")
    return bad
