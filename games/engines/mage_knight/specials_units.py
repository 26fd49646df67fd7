"""Special effects on one's Units: readying (one, all, by budget), Energy Flow's spending, healing a Unit, a free
recruit, a Unit wounding itself.
"""

from __future__ import annotations

from ..base import Event
from . import interaction
from .hero import hero_name
from .resolver import in_combat
from .specials_registry import register, Special
from .unit_rules import heal_unit_wound, unit_level, unit_name, units_of


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


def _spent_units(state, seat, max_level):
    return [u for u in units_of(state, seat) if not u["ready"] and unit_level(u["id"]) <= max_level]


def _ready_choices(state, seat, args):
    return [(str(u["uid"]), unit_name(u["id"])) for u in _spent_units(state, seat, args[0])]


def _ready_do(state, seat, args, choice, events):
    for u in units_of(state, seat):
        if str(u["uid"]) == choice:
            u["ready"] = True
            state["turn"]["readied"] = True  # Energy Flow: "if you do"


def _energy_seats(state, seat, max_level):
    """Other seats (in seat order after the caster) with a ready Unit of level ``max_level`` or lower, not asked."""
    asked = state["turn"].get("energy_asked", [])
    n = len(state["seats"])
    out = []
    for k in range(1, n):
        o = (seat + k) % n
        if o in asked:
            continue
        units = [u for u in state["seats"][o]["units"] if u["ready"] and not u.get("wounded")
                 and unit_level(u["id"]) <= max_level]
        if units:
            out.append((o, units))
    return out


def _energy_choices(state, seat, args):
    """Energy Flow: "if you do, you may spend one level I-II Unit of each other player" (Energy Steal: I-III), one
    seat at a time, "spend none" first (the default)."""
    if args[1] and not state["turn"].get("readied"):
        return []
    found = _energy_seats(state, seat, args[0])
    if not found:
        return []
    o, units = found[0]
    return [(f"{o}>none", f"leave Seat {o + 1}'s Units ready")] + [
        (f"{o}>{u['uid']}", f"spend Seat {o + 1}'s {unit_name(u['id'])}") for u in units]


def _energy_do(state, seat, args, choice, events):
    other, _, uid = choice.partition(">")
    o = int(other)
    state["turn"].setdefault("energy_asked", []).append(o)
    if uid != "none":
        u = next(u for u in state["seats"][o]["units"] if str(u["uid"]) == uid)
        u["ready"] = False
        events.append(Event(f"{hero_name(state, seat)} spends Seat {o + 1}'s {unit_name(u['id'])} (Energy "
                            + ("Flow" if args[1] else "Steal") + ").", None, {"seat": seat, "spent": [o, u["uid"]]}))
    if _energy_choices(state, seat, args):
        state["turn"]["queue"].insert(0, ["atom", "special", "energy_spend", *args])
    else:
        state["turn"].pop("energy_asked", None)


def _ready_all(state, seat, args, choice, events):
    for u in units_of(state, seat):
        u["ready"] = True


def _heal_unit_choices(state, seat, args):
    return [(str(u["uid"]), unit_name(u["id"])) for u in units_of(state, seat) if u.get("wounded")]


def _heal_unit_do(state, seat, args, choice, events):
    for u in units_of(state, seat):
        if str(u["uid"]) == choice:
            heal_unit_wound(u)


def _in_forest(state, seat) -> bool:
    pos = state["seats"][seat].get("pos")
    return bool(pos) and state["map"]["hexes"].get(pos, {}).get("terrain") == "forest"


def _budget_left(state, seat, args) -> int:
    turn = state["turn"]
    return turn["rebirth_left"] if "rebirth_left" in turn else (args[1] if _in_forest(state, seat) else args[0])


def _budget_choices(state, seat, args):
    """Rebirth: "ready Units with total level up to 3 (5 in forest)" -- one Unit a pick while the levels left allow,
    then "ready no more"."""
    left = _budget_left(state, seat, args)
    units = [(str(u["uid"]), f"ready {unit_name(u['id'])} (level {unit_level(u['id'])} of {left} left)")
             for u in _spent_units(state, seat, left)]
    return units + [("done", "ready no more Units")] if units else []


def _budget_do(state, seat, args, choice, events):
    turn = state["turn"]
    left = _budget_left(state, seat, args)
    if choice == "done":
        turn.pop("rebirth_left", None)
        return
    u = next(u for u in units_of(state, seat) if str(u["uid"]) == choice)
    u["ready"] = True
    turn["rebirth_left"] = left - unit_level(u["id"])
    if _budget_choices(state, seat, args):
        turn["queue"].insert(0, ["atom", "special", "ready_budget", *args])
    else:
        turn.pop("rebirth_left", None)


def _free_recruit_choices(state, seat, args):
    return [(u, unit_name(u)) for u in dict.fromkeys(state["offers"].get("units", []))
            if interaction.is_unit(u) and interaction.has_command(state, seat)]


def _free_recruit_do(state, seat, args, choice, events):
    interaction.add_unit(state, seat, choice, events)


def _wound_self(state, seat, args, choice, events):
    """A unit's ability that wounds the unit itself (Utem Swordsmen's Attack/Block 6)."""
    for u in units_of(state, seat):
        if u["uid"] == state["turn"].get("unit_uid"):
            u["wounded"] = True
            u["wounds"] = max(1, u.get("wounds", 1))


UNIT_SPECIALS: dict[str, Special] = {
    "ready_unit": Special(lambda a: f"ready a Unit of level {ROMAN[a[0]]} or lower",
                          lambda st, se, a, ctx: bool(_spent_units(st, se, a[0])),
                          _ready_do, _ready_choices),
    "energy_spend": Special(lambda a: f"you may spend one ready Unit of level {ROMAN[a[0]]} or lower of each other "
                                      f"player" + (" if you readied a Unit" if a[1] else ""),
                            lambda *a: False, _energy_do, _energy_choices),
    "ready_all_units": Special(lambda a: "ready all your Units",
                               lambda st, se, a, ctx: not in_combat(st) and any(not u["ready"] for u in units_of(st, se)),
                               _ready_all),
    "heal_unit": Special(lambda a: "heal a Unit",
                         lambda st, se, a, ctx: not in_combat(st) and bool(_heal_unit_choices(st, se, a)),
                         _heal_unit_do, _heal_unit_choices),
    "ready_budget": Special(lambda a: f"ready Units of a total level up to {a[0]} ({a[1]} in a forest)",
                            lambda st, se, a, ctx: bool(_budget_choices(st, se, a)), _budget_do, _budget_choices),
    "free_recruit": Special(lambda a: "recruit a Unit from the offer for free",
                            lambda st, se, a, ctx: not in_combat(st) and bool(_free_recruit_choices(st, se, a)),
                            _free_recruit_do, _free_recruit_choices),
    "wound_self": Special(lambda a: "the Unit is wounded", lambda *a: False, _wound_self),
    "ready_unit_level_2": Special(lambda a: "ready a level I-II Unit",
                                  lambda st, se, a, ctx: bool(_spent_units(st, se, 2)),
                                  lambda st, se, a, ch, ev: _ready_do(st, se, [2], ch, ev),
                                  lambda st, se, a: _ready_choices(st, se, [2])),
}

register(UNIT_SPECIALS)
