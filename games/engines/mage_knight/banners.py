"""Banners (artifacts attached to Units): attaching one, Courage, Glory, Protection and Fear.

Where a Banner is kept and what it adds to its Unit's Armor and resistances is unit_rules.py's (combat reads it).
"""

from __future__ import annotations

from ..base import Event
from . import combat, enemy_effects
from .cards import name
from .hero import hero_name
from .resolver import in_combat, start
from .specials_registry import register, Special
from .unit_rules import banner_of, drop_banner, unit_name, units_of

BANNERS = ("banner_of_glory", "banner_of_protection", "banner_of_courage", "banner_of_fear")


BANNER_TEXT = {
    "glory": "it gets +1 Armor and +1 to its attacks and blocks, and Fame +1 whenever it attacks or blocks",
    "protection": "it gets +1 Armor and fire and ice resistance",
    "courage": "once a Round, outside combat, you may flip the Banner to ready that Unit",
    "fear": "in the Block phase you may spend that Unit to cancel one enemy attack, Fame +1",
}


def _attach_choices(state, seat, args):
    out = []
    for u in units_of(state, seat):
        old = banner_of(u)
        out.append((str(u["uid"]), f"attach it to {unit_name(u['id'])}" +
                    (f" ({name(old)} goes to the discard pile)" if old else "")))
    return out


def _attach_do(state, seat, args, choice, events):
    turn = state["turn"]
    s = state["seats"][seat]
    card = turn["played"][-1][0]  # the Banner whose basic effect this is (turn.play_card listed it)
    u = next(x for x in units_of(state, seat) if str(x["uid"]) == choice)
    s["play_area"].remove(card)
    drop_banner(s, u)
    u["banner"] = card
    u["banner_used"] = False
    events.append(Event(f"{hero_name(state, seat)} attaches {name(card)} to {unit_name(u['id'])}.", None,
                        {"seat": seat, "banner": card, "unit": u["id"]}))


def courage_units(state, seat) -> list[dict]:
    """Banner of Courage: "once a Round outside combat flip to ready that Unit"."""
    if in_combat(state):
        return []
    return [u for u in units_of(state, seat) if banner_of(u) == "banner_of_courage" and not u.get("banner_used")
            and not u["ready"]]


def use_courage(state, seat, uid: int, events) -> None:
    u = next(x for x in units_of(state, seat) if x["uid"] == uid)
    u["banner_used"] = True
    u["ready"] = True
    events.append(Event(f"{hero_name(state, seat)} flips Banner of Courage: {unit_name(u['id'])} is ready.", None,
                        {"seat": seat, "unit": u["id"]}))


def glory_bonus(state, seat, u: dict) -> int:
    """Banner of Glory: "+1 to its attacks and blocks" (attached) / "+1 attack/block" for all Units this turn."""
    return (1 if banner_of(u) == "banner_of_glory" else 0) + (1 if (state["turn"] or {}).get("glory_all") else 0)


def _glory_all_do(state, seat, args, choice, events):
    state["turn"]["glory_all"] = True


def _protection_do(state, seat, args, choice, events):
    state["turn"]["protection"] = True


def _protection_usable(state, seat, args, ctx):
    """Of use once a Wound was received this turn or while a combat may still deal some."""
    turn = state["turn"]
    return not turn.get("protection") and (turn.get("wounds_received", 0) > 0 or in_combat(state))


# Banner of Fear: attached, "in the Block phase spend the Unit to cancel one enemy attack, Fame +1" (t-fear:<uid>,
# turn.py); thrown away, "up to 3 enemies do not attack this combat" (one pick per enemy, "no more" after the first).
def fear_units(state, seat) -> list[dict]:
    c = state.get("combat")
    if not c or c["phase"] != "block" or c["seat"] != seat or not combat.units_allowed(state):
        return []
    if not enemy_effects.enemy_targets(state, "fear_banner"):
        return []
    return [u for u in units_of(state, seat) if banner_of(u) == "banner_of_fear" and u["ready"] and not u.get("wounded")]


def use_fear(state, seat, uid: int, events) -> None:
    u = next(x for x in units_of(state, seat) if x["uid"] == uid)
    u["ready"] = False
    state["seats"][seat]["fame"] += 1
    events.append(Event(f"{hero_name(state, seat)} spends {unit_name(u['id'])} under Banner of Fear to cancel an "
                        f"enemy attack: Fame +1.", None, {"seat": seat, "unit": u["id"], "fame": 1}))
    state["turn"]["from_card"] = False
    start(state, seat, ["atom", "special", "fear_banner"], events)


def _fear_all_choices(state, seat, args):
    return [(str(i), lab) for i, lab in enemy_effects.enemy_targets(state, "fear")]


def _fear_all_do(state, seat, args, choice, events):
    enemy_effects.target_enemy(state, "fear", int(choice), events)
    if args[0] > 1 and state.get("combat") and _fear_all_choices(state, seat, args):
        state["turn"]["queue"].insert(0, ["atom", "special", "fear_more", args[0] - 1])


def _fear_more_choices(state, seat, args):
    return _fear_all_choices(state, seat, args) + [("done", "no more")]


def _fear_more_do(state, seat, args, choice, events):
    if choice not in (None, "done"):
        _fear_all_do(state, seat, args, choice, events)


BANNER_SPECIALS: dict[str, Special] = {
    "banner": Special(lambda a: "attach this Banner to one of your Units: " + BANNER_TEXT[a[0]],
                      lambda st, se, a, ctx: bool(units_of(st, se)), _attach_do, _attach_choices),
    "glory_all": Special(lambda a: "this turn all your Units get +1 Armor and +1 to their attacks and blocks, and "
                                   "Fame +1 for each Unit that attacks or blocks",
                         lambda st, se, a, ctx: bool(units_of(st, se)) and not st["turn"].get("glory_all"),
                         _glory_all_do),
    "protection_all": Special(lambda a: "at the end of the turn you may throw away all Wounds received this turn",
                              _protection_usable, _protection_do),
    "fear_all": Special(lambda a: f"up to {a[0]} enemies do not attack this combat",
                        lambda st, se, a, ctx: in_combat(st) and bool(_fear_all_choices(st, se, a)),
                        _fear_all_do, _fear_all_choices),
    "fear_more": Special(lambda a: "one more enemy does not attack this combat", lambda *a: False, _fear_more_do,
                         _fear_more_choices),
}

register(BANNER_SPECIALS)
