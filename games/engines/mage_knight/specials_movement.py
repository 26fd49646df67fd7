"""Special effects on terrain and moving: terrain costs changed by cards (modifiers in ``turn["terrain"]`` that
movement.terrain_modified reads), Space Bending, Time Bending, Underground Travel, Wings of Wind (flight), Wings of
Night, Lake crossing.
"""

from __future__ import annotations

from ..base import Event
from . import enemy_effects, hexmap
from . import sites as site_facts
from .card_text import plural
from .hero import hero_name
from .movement import jump
from .resolver import in_combat, wings_targets
from .specials_registry import register, Special


def _terrain_word(where: str) -> str:
    return {"all": "all terrains", "open": "plains, deserts and wastelands", "swamp": "swamps", "lake": "lakes",
            "forest": "forests", "hills": "hills", "mountain": "mountains"}.get(where, where)


def _terrain_set(state, seat, args, choice, events):
    """This turn, ``args[0]`` (a terrain or "all") costs ``args[1]`` (Frost Bridge, Path Finding powered);
    a lake made so is passable."""
    state["turn"].setdefault("terrain", []).append(["set", args[0], args[1]])


def _terrain_minus(state, seat, args, choice, events):
    """This turn, ``args[0]`` ("all", "open" or a terrain) costs ``args[1]`` less, not below ``args[2]``."""
    state["turn"].setdefault("terrain", []).append(["minus", args[0], args[1], args[2]])


# ---------------------------------------------------------------- moving by card: Space Bending, Underground Travel,
# Wings of Wind (movement.jump moves the hero); Time Bending (endturn.py); Wings of Night (combat's skip)

UNDERGROUND_BARRED = ("lake", "swamp", "ocean")  # Underground Travel: "not into or through swamps/lakes"
FLIGHT_MAX = 5  # Wings of Wind: "spend 1-5 Move points to fly that many revealed spaces"


def may_move(state, seat) -> bool:
    """Moving is open: outside combat, before the action, with the hero on the map."""
    return not in_combat(state) and not state["turn"].get("acted") and bool(state["seats"][seat]["pos"])


def _others_at(state, seat):
    return [o["pos"] for i, o in enumerate(state["seats"]) if i != seat and o.get("pos")]


def _bending_usable(state, seat, args, ctx):
    return may_move(state, seat) and not state["turn"].get("bending")


def _bending_do(state, seat, args, choice, events):
    state["turn"]["bending"] = True
    events.append(Event(f"{hero_name(state, seat)}: spaces 2 away count as adjacent this turn (Space Bending).",
                        None, {"seat": seat}))


def time_bending_open(state) -> bool:
    """Time Bending's extra turn is still possible: no end of round announced, no final turns running."""
    return state.get("end_announced_by") is None and state.get("final_turns") is None


def _time_bending_usable(state, seat, args, ctx):
    return time_bending_open(state) and not state["turn"].get("time_bend")


def _time_bending_do(state, seat, args, choice, events):
    state["turn"]["time_bend"] = True
    events.append(Event(f"{hero_name(state, seat)} bends time: another turn follows this one (Time Bending).", None,
                        {"seat": seat, "card": "space_bending"}))


def underground_targets(state, seat, attack: bool) -> dict[str, int]:
    """Underground Travel: "move up to 3 revealed spaces, not into or through swamps/lakes, ending on a safe space"
    (Underground Attack: "must end on a fortified site", an unconquered keep or mage tower or an opponent's keep;
    another player's space is not offered, as player-versus-player combat is not played): destination -> steps."""
    if not may_move(state, seat):
        return {}
    m = state["map"]
    hexes = m["hexes"]
    pos = state["seats"][seat]["pos"]

    def passable(k):
        return hexes[k]["terrain"] not in UNDERGROUND_BARRED
    others = _others_at(state, seat)
    out = {}
    for k, d in hexmap.reach(m, pos, 3, passable).items():
        h = hexes[k]
        if not passable(k) or k in others:
            continue
        if attack:
            site = h.get("site")
            fortified = site_facts.is_fortified(site) and not h.get("conquered")
            theirs = site == "keep" and h.get("conquered") and h.get("owner") not in (None, seat)
            if (fortified or theirs) and hexmap.move_cost(m, k, state["time"]) is not None:
                out[k] = d
        elif hexmap.is_safe(m, k, seat, others):
            out[k] = d
    return out


def flight_targets(state, seat) -> dict[str, int]:
    """Wings of Wind: "spend 1-5 Move points to fly that many revealed spaces, ending on a safe space" (over any
    terrain and past rampaging enemies): destination -> the Move points it costs."""
    if not may_move(state, seat):
        return {}
    steps = min(FLIGHT_MAX, state["turn"]["pool"]["move"])
    if steps < 1:
        return {}
    m = state["map"]
    others = _others_at(state, seat)
    return {k: d for k, d in hexmap.reach(m, state["seats"][seat]["pos"], steps, lambda k: True).items()
            if hexmap.is_safe(m, k, seat, others)}


def _near_first(targets: dict[str, int]) -> list[str]:
    return sorted(targets, key=lambda k: (targets[k], k))


def _underground_choices(state, seat, args):
    t = underground_targets(state, seat, bool(args[0]))
    verb = "assault" if args[0] else "travel to"
    return [(k, f"{verb} {k} underground ({plural(t[k], 'space')})") for k in _near_first(t)]


def _underground_do(state, seat, args, choice, events):
    jump(state, seat, choice, events, "Underground Attack" if args[0] else "Underground Travel",
         assault=bool(args[0]))


def _flight_choices(state, seat, args):
    t = flight_targets(state, seat)
    return [(k, f"fly to {k} (spend Move {t[k]})") for k in _near_first(t)]


def _flight_do(state, seat, args, choice, events):
    cost = flight_targets(state, seat)[choice]
    state["turn"]["pool"]["move"] -= cost
    jump(state, seat, choice, events, "Wings of Wind")


def _wings_night_usable(state, seat, args, ctx):
    return in_combat(state) and not state["turn"].get("wings_night") and bool(wings_targets(state))


def _wings_night_choices(state, seat, args):
    return [(str(i), f"{lab} does not attack") for i, lab in wings_targets(state)]


def wings_night_target(state, seat, index: int, events) -> None:
    enemy_effects.target_enemy(state, "whirlwind", index, events)


def _wings_night_do(state, seat, args, choice, events):
    wings_night_target(state, seat, int(choice), events)
    state["turn"]["wings_night"] = 1  # the next enemy costs 1 Move, then 2, 3...


MOVEMENT_SPECIALS: dict[str, Special] = {
    "forest_path": Special(lambda a: "forests cost less this turn (not applied)", lambda *a: False,
                           lambda *a: None),
    "terrain_set": Special(lambda a: f"{_terrain_word(a[0])} cost {a[1]} this turn",
                           lambda *a: False, _terrain_set),
    "terrain_minus": Special(lambda a: f"{_terrain_word(a[0])} cost {a[1]} less "
                                       f"(at least {a[2]}) this turn", lambda *a: False, _terrain_minus),
    "space_bending": Special(lambda a: "this turn, spaces 2 away count as adjacent for moving and exploring, and "
                                       "your moves do not provoke rampaging enemies",
                             _bending_usable, _bending_do),
    "time_bending": Special(lambda a: "set this card aside for the Round; the other cards played this turn return "
                                      "to your hand, you draw no cards, and you take another turn at once",
                            _time_bending_usable, _time_bending_do),
    "underground": Special(lambda a: ("move up to 3 revealed spaces (not into or through swamps or lakes) onto a "
                                      "fortified site and assault it, ignoring its fortification (withdrawing "
                                      "brings you back)") if a[0] else
                           "move up to 3 revealed spaces (not into or through swamps or lakes) to a safe space; "
                           "it does not provoke rampaging enemies",
                           lambda st, se, a, ctx: bool(underground_targets(st, se, bool(a[0]))), _underground_do,
                           _underground_choices),
    "flight": Special(lambda a: "spend 1-5 Move points to fly that many revealed spaces to a safe space, ignoring "
                                "terrain and rampaging enemies",
                      lambda st, se, a, ctx: bool(flight_targets(st, se)), _flight_do, _flight_choices),
    "wings_of_night": Special(lambda a: "one enemy does not attack this combat; each further enemy costs 1, 2, 3... "
                                        "Move points",
                              _wings_night_usable, _wings_night_do, _wings_night_choices),
    "lake_crossing": Special(lambda a: "you may pay a blue mana to cross lakes at cost 0 this turn", lambda *a: False,
                             lambda st, se, a, ch, ev: st["turn"].__setitem__("lake_mana", True)),
}

register(MOVEMENT_SPECIALS)
