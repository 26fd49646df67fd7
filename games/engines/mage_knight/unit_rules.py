"""A seat's Units in play, as the rules read them: names and levels, their abilities in the effect vocabulary, their
wounds, and the Banner attached to one with what it adds to the Unit's Armor and resistances.

The Unit facts themselves (units.csv) are units.py's; a Unit in a seat's area is ``{"id", "ready", "wounded",
"uid", "wounds"?, "banner"?, "banner_used"?}`` (README, "Shared state").
"""

from __future__ import annotations

from . import units
from .card_text import EffectError, parse

_ABILITIES: dict[str, list] = {}  # unit id -> its abilities parsed once (the table never changes)


def units_of(state, seat: int) -> list[dict]:
    return state["seats"][seat]["units"]


def unit_name(unit_id: str) -> str:
    return units.UNITS[unit_id].name if unit_id in units.UNITS else unit_id


def unit_level(unit_id: str) -> int:
    return units.UNITS[unit_id].level if unit_id in units.UNITS else 1


def unit_abilities(unit_id: str) -> list[tuple[list | None, str | None]]:
    """A unit's abilities parsed once, with the mana colour each costs; an ability naming a special no module
    implements is None."""
    if unit_id not in _ABILITIES:
        parsed = []
        for text, colour in units.abilities(unit_id):
            try:
                parsed.append((parse(text), colour))
            except EffectError:
                parsed.append((None, colour))
        _ABILITIES[unit_id] = parsed
    return _ABILITIES[unit_id]


# ---------------------------------------------------------------- wounds

def unit_wounds(u: dict) -> int:
    """A wounded unit has one wound, or two after a poisonous attack (combat.py sets ``"wounds": 2``)."""
    return u.get("wounds", 1) if u.get("wounded") else 0


def heal_unit_wound(u: dict) -> None:
    """Heal one wound of a unit: a poisoned unit "will need to be healed twice" (rulebook, Poison)."""
    if unit_wounds(u) > 1:
        u["wounds"] -= 1
    else:
        u["wounded"] = False
        u.pop("wounds", None)


# ---------------------------------------------------------------- an attached Banner
# Banners (artifacts): the basic effect attaches the card to one of one's Units (``unit["banner"]``, a card outside
# hand, deck and discard pile: invariants.py counts it); it stays there across rounds until the Unit is gone (then it
# goes to the discard pile) or its owner discards it at a round's preparation ("you may discard Banners at this
# point", rounds.py). ``unit["banner_used"]``: Banner of Courage's once-a-Round flip, back at the round's start.
# The Banners' effects are banners.py's; what a Banner does to its Unit's own numbers is here, where combat reads it.

def banner_of(u: dict) -> str | None:
    return u.get("banner")


def drop_banner(seat_state: dict, u: dict) -> None:
    """A Unit leaves its owner (disbanded, destroyed): its Banner goes to the discard pile."""
    banner = u.pop("banner", None)
    u.pop("banner_used", None)
    if banner:
        seat_state["discard"].append(banner)


def unit_armor(state, seat: int, u: dict) -> int:
    """A Unit's Armor with Banner of Glory / Protection (+1 each) and Banner of Glory's thrown-away +1 this turn."""
    armor = units.unit(u["id"]).armor
    if banner_of(u) in ("banner_of_glory", "banner_of_protection"):
        armor += 1
    if ((state.get("turn") or {}).get("glory_all")):
        armor += 1
    return armor


def unit_resistances(state, seat: int, u: dict) -> frozenset:
    """A Unit's resistances; Banner of Protection adds fire and ice ("+1 Armor, fire and ice resistance")."""
    res = units.unit(u["id"]).resistances
    if banner_of(u) == "banner_of_protection":
        res = res | {"fire", "ice"}
    return res
