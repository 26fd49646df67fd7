"""State checks for the property tests and the simulate CLI: card conservation and the bounds of every pool.

``check(state)`` returns a list of what is broken (empty when all holds). Checked at step boundaries, where no card is
in transit inside a pick.
"""

from __future__ import annotations

from collections import Counter

from . import cards, enemies, units
from .heroes import HEROES

PILES = ("deck", "hand", "discard", "play_area", "removed", "stored", "set_aside")  # stored: under Sparing Power;
# set_aside: Time Bending for the rest of the Round
_ALL = {k: Counter(cards.deck_of(k)) for k in ("advanced", "spell", "artifact")}
_ENEMIES = Counter({e.id: e.copies for e in enemies.ENEMIES.values()})
_UNITS = Counter({u.id: u.copies for u in units.UNITS.values()})


def _kind(card: str) -> str:
    c = cards.CARDS.get(card)
    return c.kind if c else "?"


def check(state: dict) -> list[str]:
    bad: list[str] = []
    held = Counter()  # advanced / spell / artifact cards outside the decks and offers
    for i, s in enumerate(state["seats"]):
        owned = Counter()
        for p in PILES:
            owned.update(s.get(p, ()))
        owned.update(u["banner"] for u in s["units"] if u.get("banner"))  # Banners attached to Units
        basics = Counter({c: n for c, n in owned.items() if _kind(c) == "basic"})
        own = Counter(HEROES[s["hero"]]["deck"])  # Mind Steal moves cards between seats: counted both ways
        own.update(c for c in s.get("stolen_in", ()) if _kind(c) == "basic")
        own.subtract(c for c in s.get("stolen_out", ()) if _kind(c) == "basic")
        own = +own
        if basics != own:
            bad.append(f"seat {i}: basic cards not conserved: {dict(basics - own)} extra, {dict(own - basics)} missing")
        held.update({c: n for c, n in owned.items() if _kind(c) in _ALL})
        if len(s["hand"]) and any(_kind(c) == "?" for c in owned):
            bad.append(f"seat {i}: unknown card")
        for c, n in s["crystals"].items():
            if not 0 <= n <= 3:
                bad.append(f"seat {i}: {n} {c} crystals")
        if not -7 <= s["reputation"] <= 7:
            bad.append(f"seat {i}: reputation {s['reputation']}")
        if s["fame"] < 0:
            bad.append(f"seat {i}: Fame {s['fame']}")
    d = state["dummy"]
    if d is not None:
        held.update(c for c in d["deck"] + d["discard"] if _kind(c) in _ALL)
    offers, decks = state["offers"], state["decks"]
    held.update(decks["advanced"] + decks["spells"] + decks["artifacts"] + offers["advanced"] + offers["spells"]
                + offers.get("monastery", []) + [c for c in offers["units"] if c in cards.CARDS])
    for kind, total in _ALL.items():
        mine = Counter({c: n for c, n in held.items() if _kind(c) == kind})
        if mine != total:
            bad.append(f"{kind} cards not conserved: {dict(mine - total)} extra, {dict(total - mine)} missing")
    # Wounds are not conserved: the supply is unlimited (the rules set no number), and an old saved game's
    # "decks.wounds" count is ignored.
    tokens = Counter()
    for h in state["map"]["hexes"].values():
        tokens.update(t["id"] for t in h.get("enemies", ()))
    for pile in list(state["enemies"]["piles"].values()) + list(state["enemies"]["discards"].values()):
        tokens.update(pile)
    if state.get("combat"):
        tokens.update(e["id"] for e in state["combat"]["enemies"] if not e.get("gone"))
    if tokens != _ENEMIES:
        bad.append(f"enemy tokens not conserved: {dict(tokens - _ENEMIES)} extra, {dict(_ENEMIES - tokens)} missing")
    m = state["map"]
    tiles = [t["id"] for t in m["tiles"]] + m["tile_deck"] + m["spare"]["countryside"] + m["spare"]["core"]
    if len(tiles) != len(set(tiles)):
        bad.append("a map tile is in two places")
    if len(tiles) != 17:  # starting A, the 11 countryside, the 4 non-city core tiles and the scenario's one city
        bad.append(f"{len(tiles)} map tiles placed or in the decks, not 17")
    unit_ids = Counter([u for u in offers["units"] if u in units.UNITS] + decks["units_regular"]
                       + decks["units_elite"])
    for s in state["seats"]:
        unit_ids.update(u["id"] for u in s["units"])
    if unit_ids - _UNITS:
        bad.append(f"units beyond their copies: {dict(unit_ids - _UNITS)}")
    t = state["turn"]
    if t is not None:
        pool = t["pool"]
        flat = [pool["move"], pool["influence"], pool["heal"], *pool["block"].values()]
        flat += [n for k in ("melee", "ranged", "siege") for n in pool["attack"][k].values()]
        if any(n < 0 for n in flat):
            bad.append(f"a negative pool: {pool}")
    if not state["over"] and (state["dec"] is None) == (state.get("held") is None):
        bad.append("not exactly one open decision")
    return bad
