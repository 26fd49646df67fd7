"""Invariants that must hold after every step (the simulator and the property tests check them)."""

from __future__ import annotations

from collections import Counter

from .cards import CARDS
from .flow import MAX_SANITY, PILES, SHELF

ALL_CARDS = Counter(c for c, card in CARDS.items() if card.kind != "house")  # House Boards are not cards in play


def card_locations(state: dict) -> Counter:
    """Every card id wherever it is."""
    c = Counter()
    for st in state["store"].values():
        c.update(st["deck"])
        c.update(st["discard"])
        c.update(x for x in st["shelf"] if x)
    for key in ("transfers", "substitutes", "removed", "box"):
        c.update(state[key])
    for s in state["seats"]:
        for pile in PILES:
            c.update(s[pile])
    if state["cls"] is not None:
        c.update(state["cls"]["pets"])
    return c


def check(state: dict) -> list[str]:
    """Return the broken invariants (empty when all hold)."""
    bad = []
    where = card_locations(state)
    if where != ALL_CARDS:
        diff = (where - ALL_CARDS) + (ALL_CARDS - where)
        bad.append(f"cards not conserved: {dict(diff)}")
    for i, s in enumerate(state["seats"]):
        if not 0 <= s["sanity"] <= MAX_SANITY:
            bad.append(f"seat {i}: Sanity {s['sanity']} outside 0..20")
        if (s["sanity"] == 0) != (s["out"] is not None):
            bad.append(f"seat {i}: Sanity {s['sanity']} but eliminated={s['out'] is not None}")
        if s["out"] is not None and any(s[p] for p in PILES):
            bad.append(f"seat {i}: eliminated but still holds cards")
    for w, st in state["store"].items():
        if len(st["shelf"]) != SHELF:
            bad.append(f"{w} shelf has {len(st['shelf'])} slots")
        if any(x and CARDS[x].is_event for x in st["shelf"]):
            bad.append(f"an Event stays on the {w} shelf")
    if not state["over"]:
        live = [i for i, s in enumerate(state["seats"]) if s["out"] is None]
        if len(live) < 2:
            bad.append("the game goes on with fewer than two players")
        pend = [d for d in (state["dec"], state["held"]) if d is not None]
        if len(pend) != 1:
            bad.append(f"expected one pending decision, got {pend}")
    return bad
