"""Moving the hero on the map (rules: "Movement", "Exploring", "Rampaging Enemies"): what a space costs this turn,
where the Move pool reaches, a step, a card's jump (Underground Travel / Attack, Wings of Wind), what entering a space
starts (an assault, an opponent's keep, provoked rampaging enemies), and exploring a tile (First Reconnaissance: Fame
per tile, the city trigger, a monastery's Advanced Action).

The map itself is hexmap.py's; the cards that change terrain costs add modifiers to ``turn["terrain"]``
(specials_movement.py), read here by ``terrain_modified``.
"""

from __future__ import annotations

from ..base import Event
from ..rng import Rng
from . import hexgrid, hexmap
from . import enemies as enemy_data
from . import sites as site_facts
from .hero import change_reputation
from .site_actions import begin_combat

FAME_PER_TILE = 1  # First Reconnaissance: "fame_per_tile_revealed": 1
OPEN_TERRAIN = ("plains", "desert", "wasteland")  # Song of Wind


# ---------------------------------------------------------------- costs and reach

def terrain_modified(turn, terrain: str, cost: int | None) -> int | None:
    """A terrain's Move cost after this turn's modifiers (the replacements first, then reductions)."""
    mods = (turn or {}).get("terrain") or []

    def hits(where):
        return where in (terrain, "all") or (where == "open" and terrain in OPEN_TERRAIN)
    for m in mods:
        if m[0] == "set" and hits(m[1]) and (cost is not None or m[1] == terrain):
            cost = m[2] if cost is None else min(cost, m[2])
    for m in mods:
        if m[0] == "minus" and cost is not None and hits(m[1]):
            cost = max(m[3], cost - m[2]) if cost > m[3] else cost
    return cost


def reveal_time(state) -> str:
    """Amulet of the Sun at Night: "fortified-site garrisons and ruins revealed as by Day"."""
    return "day" if (state.get("turn") or {}).get("amulet") == "sun" else state["time"]


def move_cost(state, key: str) -> int | None:
    """hexmap.move_cost with this turn's terrain modifiers (Path Finding, Frost Bridge, Song of Wind)."""
    m = state["map"]
    base = hexmap.move_cost(m, key, state["time"])
    h = m["hexes"].get(key)
    if h is None or not state["turn"].get("terrain"):
        return base
    if base is None and (hexmap.is_rampaging(h) or h.get("site") == "city"):
        return None
    return terrain_modified(state["turn"], h["terrain"], base)


def move_targets(state, seat: int) -> list[str]:
    """Neighbouring spaces the Move pool can pay for ("Total your Move Points and spend them according to
    the Terrain Cost"); another hero's space is not entered (player-vs-player combat is not played)."""
    turn = state["turn"]
    s = state["seats"][seat]
    if state.get("combat") is not None or turn["acted"] or not s["pos"]:
        return []
    m = state["map"]
    others = {o["pos"] for i, o in enumerate(state["seats"]) if i != seat}
    out = []
    near = hexgrid.neighbours(s["pos"])
    if turn.get("bending"):  # Space Bending: "spaces 2 away count as adjacent for moving"
        near += [k for k in hexgrid.ring2(s["pos"]) if k in m["hexes"]]
    for n in near:
        cost = move_cost(state, n)
        if cost is None or cost > turn["pool"]["move"]:
            continue
        if n in others and m["hexes"][n].get("site") != "portal":
            continue
        out.append(n)
    return out


# ---------------------------------------------------------------- moving and exploring

def move(state, seat: int, dest: str, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    m = state["map"]
    src = s["pos"]
    turn["pool"]["move"] -= move_cost(state, dest)
    turn["moved_from"].append(src)
    s["pos"] = dest
    events.append(Event(f"Seat {seat + 1} moves to {dest}.", None, {"seat": seat, "to": dest}))
    events += hexmap.reveal_garrisons_near(m, dest, reveal_time(state))
    # "You are attacked if your move takes you between spaces adjacent to a Rampaging Enemy."
    tokens = []
    for h in ([] if turn.get("bending") else hexmap.provoking(m, src, dest)):  # Space Bending: "no provoking"
        tokens += [dict(t, hex=h) for t in m["hexes"][h]["enemies"]]
    arrive(state, seat, src, dest, tokens, events)


def jump(state, seat: int, dest: str, events: list, by: str, assault: bool = False) -> None:
    """A card's move (Underground Travel / Attack, Wings of Wind) straight to ``dest``: no Move points spent here,
    and "does not provoke" rampaging enemies. Underground Attack's assault "ignores site fortification" and a
    withdrawal brings the hero back to the space it started from (the context's ``return_to``)."""
    turn = state["turn"]
    s = state["seats"][seat]
    src = s["pos"]
    turn["started"] = True
    turn["moved_from"].append(src)
    s["pos"] = dest
    events.append(Event(f"Seat {seat + 1} moves to {dest} ({by}).", None, {"seat": seat, "to": dest, "by": by}))
    events += hexmap.reveal_garrisons_near(state["map"], dest, reveal_time(state))
    arrive(state, seat, src, dest, [], events)
    if assault and state.get("combat") is not None:
        state["combat"]["site_unfortified"] = True  # as Demolish: the site's fortification is ignored


def arrive(state, seat: int, src: str, dest: str, tokens: list, events: list) -> None:
    """What entering ``dest`` starts: an assault of a fortified site or an opponent's keep, else the provoked
    rampaging enemies (``tokens``)."""
    m = state["map"]
    cell = m["hexes"][dest]
    site = cell.get("site")
    assault = site_facts.is_fortified(site) and not cell.get("conquered")
    if opponents_keep(cell, seat):
        # "an assault begins if you enter ... an opponent's Keep". Its owner is never there (no hero enters
        # another hero's space: First Reconnaissance has "pvp_combat": false), so the keep is defended by a
        # gray token and gives half Fame (sites.json keep.other_players_keep).
        facts = site_facts.site("keep").get("other_players_keep") or {}
        change_reputation(state, seat, facts.get("reputation", -1), events)
        fight = (facts.get("if_owner_absent") or {}).get("fight") or {"colour": "gray", "count": 1}
        drawn = [enemy_data.draw(state, fight["colour"]) for _ in range(fight.get("count", 1))]
        tokens = [t for t in drawn if t is not None] + tokens
        begin_combat(state, seat, tokens, {"kind": "site", "hex": dest, "site": site, "fortified": 1,
                                           "return_to": src, "opponents_keep": True, "half_fame": True}, events)
    elif assault:
        # "Movement ends and an assault begins if you enter an unconquered Fortified Site"
        tokens = [dict(t, hex=dest) for t in cell["enemies"]] + tokens
        fort = 2 if site == "city" else 1
        # "Every time you make an assault, you lose 1 Reputation" (sites.json: assault.reputation -1)
        change_reputation(state, seat, site_facts.assault_reputation(site), events)
        begin_combat(state, seat, tokens, {"kind": "site", "hex": dest, "site": site, "fortified": fort,
                                           "return_to": src}, events)
    elif tokens:
        begin_combat(state, seat, tokens, {"kind": "provoked", "hex": dest, "site": None, "fortified": 0,
                                           "return_to": None}, events)


def opponents_keep(cell: dict, seat: int) -> bool:
    return cell.get("site") == "keep" and bool(cell.get("conquered")) and cell.get("owner") not in (None, seat)


def explore(state, seat: int, centre: str, events: list) -> None:
    """"You can reveal the top map tile for 2 Move Points"; First Reconnaissance: +1 Fame per tile."""
    turn = state["turn"]
    s = state["seats"][seat]
    turn["pool"]["move"] -= hexmap.EXPLORE_COST
    rng = Rng(state["rng"])
    draws = []

    def draw_enemy(colour):
        state["rng"] = rng.state
        token = enemy_data.draw(state, colour)
        rng.state = state["rng"]
        draws.append(token)
        return token

    draw_ruins = None
    if state.get("ruins", {}).get("pile") is not None and "ruins_pile" not in state["map"]:
        def draw_ruins():
            pile = state["ruins"]["pile"]
            return pile.pop() if pile else None
    _, evs = hexmap.explore(state["map"], centre, rng, draw_enemy, reveal_time(state), draw_ruins)
    state["rng"] = rng.state
    events += evs
    s["fame"] += FAME_PER_TILE
    events.append(Event(f"Seat {seat + 1} explores and gains {FAME_PER_TILE} Fame.", None,
                        {"seat": seat, "fame": FAME_PER_TILE}))
    if evs and evs[0].data.get("city") and state.get("city_revealed_by") is None:
        state["city_revealed_by"] = seat
    for e in evs:  # "a monastery: an Advanced Action card joins the Unit offer" (kept apart: offers["monastery"])
        if e.data.get("type") == "monastery_revealed":
            deck = state["decks"].get("advanced") or []
            for _ in range(min(int(e.data.get("advanced_actions", 1)), len(deck))):
                state.setdefault("offers", {}).setdefault("monastery", []).append(deck.pop())
    events += hexmap.reveal_garrisons_near(state["map"], s["pos"], reveal_time(state))
