"""Interacting with locals at an inhabited site (rules: "Interacting with Locals").

"Total your Influence +/- your Reputation Modifier (no interaction if on an 'X' space of the reputation
track)" and "Spend Influence to buy any number and variety of things (only apply bonus/penalty once per
turn)": the modifier joins the Influence pool with the first purchase of the turn (``turn["rep_applied"]``).

Purchases (ids after "i-"):
  r:<unit>          recruit a Unit whose recruit sites include this site, within the Command limit
  d:<unit>:<uid>    recruit with no Command token free, disbanding one of one's Units (removed from the game)
  h                 one point of Healing: 3 Influence at a village, 2 at a monastery
  a:<card>          an Advanced Action from the Unit offer at a monastery, 6 Influence (top of the deed deck)
  s:<card>:<src>    a Spell from the spell offer at a mage tower, 7 Influence + one mana of its colour
Interacting is the turn's action: the first purchase marks it; more purchases may follow the same turn.
"""

from __future__ import annotations

from ..base import Event
from . import cards, mana
from . import units as unit_data
from .hero import change_reputation, heal, take_from_offer, wounds_in_hand
from .unit_rules import drop_banner

# Reputation -7..7 -> modifier; None is the 'X' space (no interaction).
REPUTATION_MODIFIERS = (None, -5, -3, -2, -1, -1, 0, 0, 0, 1, 1, 2, 2, 3, 5)
HEAL_COST = {"village": 3, "monastery": 2}
ADVANCED_COST = 6
SPELL_COST = 7


def reputation_modifier(reputation: int) -> int | None:
    return REPUTATION_MODIFIERS[max(-7, min(7, reputation)) + 7]


def is_unit(unit_id: str) -> bool:
    return unit_id in unit_data.UNITS


def has_command(state, seat: int) -> bool:
    s = state["seats"][seat]
    return len(s["units"]) < s["command"]


def add_unit(state, seat: int, unit_id: str, events: list) -> None:
    """Take a Unit card from the offer into the seat's units, ready and unwounded."""
    s = state["seats"][seat]
    state["offers"]["units"].remove(unit_id)
    uid = 1 + max([u["uid"] for st in state["seats"] for u in st["units"]] + [state.get("unit_uid", 0)])
    state["unit_uid"] = uid
    s["units"].append({"id": unit_id, "ready": True, "wounded": False, "uid": uid})
    events.append(Event(f"Seat {seat + 1} recruits {unit_data.UNITS[unit_id].name}.", None,
                        {"seat": seat, "unit": unit_id}))
    bonus = (state.get("turn") or {}).get("recruit_bonus")
    if bonus:
        change_reputation(state, seat, bonus[0], events)
        s["fame"] += bonus[1]


def disband(state, seat: int, uid: int, events: list) -> None:
    """A disbanded Unit is removed from the game (it does not go back to a unit deck)."""
    s = state["seats"][seat]
    old = next(u for u in s["units"] if u["uid"] == uid)
    s["units"].remove(old)
    drop_banner(s, old)  # "the banner stays with the Unit until ... the Unit is gone": to the discard pile
    events.append(Event(f"Seat {seat + 1} disbands {unit_data.UNITS[old['id']].name}.", None,
                        {"seat": seat, "unit": old["id"], "kind": "disband"}))


def site_here(state, seat: int):
    pos = state["seats"][seat].get("pos")
    cell = state["map"]["hexes"].get(pos) if pos else None
    return pos, cell


def inhabited_site(state, seat: int) -> str | None:
    """The site the seat may interact with where it stands, or None."""
    _, cell = site_here(state, seat)
    if not cell or not cell.get("site") or cell.get("burned"):
        return None
    site = cell["site"]
    if site in ("village", "monastery"):
        return site
    if site == "keep" and cell.get("conquered") and cell.get("owner") == seat:
        return site
    if site == "mage_tower" and cell.get("conquered"):
        return site
    return None


def can_interact(state, seat: int) -> bool:
    turn = state["turn"]
    if state.get("combat") is not None or inhabited_site(state, seat) is None:
        return False
    if reputation_modifier(state["seats"][seat]["reputation"]) is None:
        return False
    return not turn.get("acted") or turn.get("action") == "interact"


def influence_available(state, seat: int) -> int:
    turn = state["turn"]
    extra = 0 if turn.get("rep_applied") else reputation_modifier(state["seats"][seat]["reputation"]) or 0
    return turn["pool"]["influence"] + extra


def _spend(state, seat: int, cost: int) -> None:
    turn = state["turn"]
    if not turn.get("rep_applied"):
        turn["pool"]["influence"] += reputation_modifier(state["seats"][seat]["reputation"]) or 0
        turn["rep_applied"] = True
    turn["pool"]["influence"] -= cost
    turn.setdefault("noble_earned", []).extend(turn.pop("noble", []))  # Noble Manners' Influence is used
    turn["acted"] = True
    turn["action"] = "interact"


def monastery_advanced(state) -> list[str]:
    """The Advanced Actions a monastery's reveal added to the Unit offer: turn.py keeps them in
    ``offers["monastery"]`` (so the unit decks never receive a card); any in ``offers["units"]`` count too."""
    out = [c for c in state["offers"].get("units", []) if c in cards.CARDS]
    return out + [c for c in state["offers"].get("monastery", []) if c in cards.CARDS]


def options(state, seat: int) -> list[tuple[str, str]]:
    """The purchases open now: (option id, label)."""
    site = inhabited_site(state, seat)
    if site is None:
        return []
    s = state["seats"][seat]
    have = influence_available(state, seat)
    out: list[tuple[str, str]] = []
    for u in dict.fromkeys(state["offers"].get("units", [])):
        if is_unit(u) and site in unit_data.UNITS[u].recruit_sites and unit_data.UNITS[u].cost <= have:
            name, cost = unit_data.UNITS[u].name, unit_data.UNITS[u].cost
            if has_command(state, seat):
                out.append((f"i-r:{u}", f"recruit {name} ({cost})"))
            else:  # rulebook: with no free Command token "you may disband one of your Units to make room"
                for old in s["units"]:
                    out.append((f"i-d:{u}:{old['uid']}",
                                f"recruit {name} ({cost}), disbanding {unit_data.UNITS[old['id']].name}"))
    if site in HEAL_COST and HEAL_COST[site] <= have and (
            wounds_in_hand(s) or any(u.get("wounded") for u in s["units"])):
        out.append(("i-h", f"buy 1 Healing ({HEAL_COST[site]})"))
    if site == "monastery" and have >= ADVANCED_COST:
        for c in dict.fromkeys(monastery_advanced(state)):
            out.append((f"i-a:{c}", f"learn {cards.name(c)} ({ADVANCED_COST})"))
    if site == "mage_tower" and have >= SPELL_COST:
        for c in dict.fromkeys(state["offers"].get("spells", [])):
            for src in mana.sources_for(state, seat, cards.CARDS[c].colour):
                out.append((f"i-s:{c}:{src}", f"learn {cards.name(c)} ({SPELL_COST} and {mana.label(state, src)})"))
    return out


def apply(state, seat: int, option_id: str, events: list) -> None:
    kind, _, rest = option_id[2:].partition(":")
    s = state["seats"][seat]
    site = inhabited_site(state, seat)
    if kind == "r":
        _spend(state, seat, unit_data.UNITS[rest].cost)
        add_unit(state, seat, rest, events)
    elif kind == "d":
        unit_id, uid = rest.split(":")
        _spend(state, seat, unit_data.UNITS[unit_id].cost)
        disband(state, seat, int(uid), events)
        add_unit(state, seat, unit_id, events)
    elif kind == "h":
        _spend(state, seat, HEAL_COST[site])
        if wounds_in_hand(s):
            heal(state, seat, 1, events)
        else:
            state["turn"]["pool"]["heal"] += 1  # for a wounded Unit (turn.py offers it)
    elif kind == "a":
        _spend(state, seat, ADVANCED_COST)
        where = "units" if rest in state["offers"].get("units", []) else "monastery"
        state["offers"][where].remove(rest)
        s["deck"].append(rest)  # "to: top of Deed deck"
        events.append(Event(f"Seat {seat + 1} learns {cards.name(rest)}.", None, {"seat": seat, "card": rest}))
    elif kind == "s":
        card, src = rest.split(":", 1)
        _spend(state, seat, SPELL_COST)
        mana.pay(state, seat, src)
        take_from_offer(state, "spells", card)
        s["deck"].append(card)
        events.append(Event(f"Seat {seat + 1} learns {cards.name(card)}.", None, {"seat": seat, "card": card}))
