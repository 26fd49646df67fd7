"""Resolving an effect on a turn: when an effect is of use now, the effect queue and its picks.

An effect tree (card_text.py) is queued in ``state["turn"]["queue"]`` and resolved atom by atom; a choice stops the
queue and opens ``state["turn"]["pending"]`` (kind "choose": branches of "A | B"; kind "special": a special's own
choices), which turn.py offers as "fx:..." picks (``effect_options`` / ``effect_pick``). A special (`special NAME`)
is looked up in SPECIALS, which the effect modules fill when the package is imported: this module never imports
them.
"""

from __future__ import annotations

from ..base import Event
from . import combat, enemy_effects, mana
from .card_text import COMBAT, describe, is_cost
from .hero import change_reputation, draw, heal, hero_name, take_wounds, wounds_in_hand
from .pool import add_pool, ambush_bonus
from .specials_registry import SPECIALS


# ---------------------------------------------------------------- when an effect is of use

def in_combat(state) -> bool:
    return state.get("combat") is not None


def combat_allowed(state) -> set:
    if not in_combat(state):
        return set()
    return set(combat.allowed(state))


def agility_kinds(state) -> list[str]:
    """The conversions of Move open now: Attack 1:1 in the Attack phase, Ranged Attack 2:1 (powered) in the
    ranged/siege phase (in the Attack phase 1:1 is always better)."""
    turn = state.get("turn") or {}
    if not turn.get("agility") or not in_combat(state):
        return []
    allowed = combat_allowed(state)
    if "melee" in allowed:
        return ["melee"]
    if turn["agility"] > 1 and "ranged" in allowed:
        return ["ranged"]
    return []


def diplomacy_open(state) -> bool:
    turn = state.get("turn") or {}
    return bool(turn.get("diplomacy")) and "block" in combat_allowed(state)


def wings_targets(state) -> list[tuple[int, str]]:
    return enemy_effects.enemy_targets(state, "whirlwind")  # the plain "does not attack this combat" modifier


def wings_cost(state) -> int | None:
    """Wings of Night: the Move points the next extra enemy costs (1, 2, 3...), or None if it is not open."""
    n = (state.get("turn") or {}).get("wings_night")
    return n if n and in_combat(state) and wings_targets(state) else None


def atom_usable(state, seat: int, tree: list, ctx: dict) -> bool:
    kind = tree[1]
    turn = state["turn"]
    if kind == "move":  # in combat: Agility's conversion into Attack, or paying Wings of Night's further enemies
        if in_combat(state):
            return bool(agility_kinds(state)) or wings_cost(state) is not None
        return not turn.get("acted")
    if kind == "influence":  # of use for an interaction, which is the turn's action; in combat: Diplomacy's Block
        if in_combat(state):
            return diplomacy_open(state)
        return not turn.get("acted") or turn.get("action") == "interact"
    if kind in COMBAT:
        key = {"attack": "melee"}.get(kind, kind)
        return key in ctx["allowed"]
    if kind == "heal":  # "healing effects at any time except during combat"
        s = state["seats"][seat]
        return not in_combat(state) and (wounds_in_hand(s) > 0 or any(u.get("wounded") for u in s["units"]))
    if kind == "draw":
        return bool(state["seats"][seat]["deck"])
    if kind in ("mana", "crystal"):
        return True
    if kind == "special":
        return SPECIALS[tree[2]].usable(state, seat, tree[3:], ctx)
    return False  # reputation, fame, wound: side effects only


def usable(state, seat: int, tree: list | None, ctx: dict | None = None) -> bool:
    """Would playing this effect now do something useful (and can its costs be paid)?"""
    if tree is None:
        return False
    ctx = ctx if ctx is not None else make_ctx(state, seat)
    if tree[0] == "atom":
        return atom_usable(state, seat, tree, ctx)
    if tree[0] == "any":
        return any(usable(state, seat, t, ctx) for t in tree[1])
    costs = [t for t in tree[1] if t[0] == "atom" and t[1] == "special" and SPECIALS[t[2]].cost]
    rest = [t for t in tree[1] if t not in costs]
    return all(usable(state, seat, t, ctx) for t in costs) and any(usable(state, seat, t, ctx) for t in rest)


def pays_more(tree: list | None) -> bool:
    """Does the effect ask for a mana besides the card's own (Mana Bolt, Pure Magic, Magic Talent powered)?"""
    if tree is None:
        return False
    if tree[0] == "atom":
        return tree[1] == "special" and SPECIALS[tree[2]].pays
    return any(pays_more(t) for t in tree[1])


def usable_after_paying(state, seat: int, tree: list | None, combo: list[str], ctx: dict) -> bool:
    """``usable`` once the card's own mana (``combo``) is paid: a "pay one more mana" effect is offered only
    if a second mana is left to pay it with. The payment is taken tentatively and undone."""
    if not pays_more(tree):
        return True
    undo = []
    try:
        for src in combo:
            undo.append(mana.take_tentatively(state, seat, src))
        return usable(state, seat, tree, ctx)
    finally:
        for u in reversed(undo):
            u()


def make_ctx(state, seat: int, exclude: str | None = None) -> dict:
    """``exclude``: a card still in the hand that is the one being played (not there to pay its costs)."""
    return {"allowed": combat_allowed(state), "exclude": exclude}


def hand_without(state, seat: int, ctx: dict) -> list[str]:
    """The seat's hand less the card being played and the card it is played with (``ctx["exclude"]``: one id or a
    list): they cannot pay for themselves."""
    hand = list(state["seats"][seat]["hand"])
    exclude = ctx.get("exclude")
    for c in (exclude if isinstance(exclude, (list, tuple)) else [exclude]):
        if c in hand:
            hand.remove(c)
    return hand


# ---------------------------------------------------------------- resolving an effect

def start(state, seat: int, tree: list, events: list) -> None:
    """Queue an effect (its card already left the hand) and resolve as far as no pick is needed."""
    turn = state["turn"]
    turn["queue"] = [tree] + turn.get("queue", [])
    run(state, seat, events)


def run(state, seat: int, events: list) -> None:
    turn = state["turn"]
    while turn["queue"] and turn.get("pending") is None:
        node = turn["queue"].pop(0)
        if node[0] == "all":
            if any(is_cost(t) and not atom_usable(state, seat, t, make_ctx(state, seat)) for t in node[1]):
                continue  # "You cannot play a card if its cost is not paid in full": a repeat it cannot pay
            turn["queue"] = list(node[1]) + turn["queue"]
        elif node[0] == "any":
            ctx = make_ctx(state, seat)
            branches = [b for b in node[1] if usable(state, seat, b, ctx)]
            if len(branches) == 1:
                turn["queue"].insert(0, branches[0])
            elif branches:
                turn["pending"] = {"kind": "choose", "branches": branches}
        else:
            apply_atom(state, seat, node, events)
    if not turn["queue"] and turn.get("pending") is None:
        turn.pop("bonus", None)  # the card's effect is resolved: an unused Concentration bonus is lost
        glory = turn.pop("unit_bonus", None)
        if glory and glory.get("struck"):
            _glory_fame(state, seat, glory, events)


def apply_atom(state, seat: int, node: list, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    kind, args = node[1], node[2:]
    if kind in ("move", "influence"):
        if atom_usable(state, seat, node, make_ctx(state, seat)):
            add_pool(turn, kind, args[0])
    elif kind in COMBAT:
        if atom_usable(state, seat, node, make_ctx(state, seat)):
            add_pool(turn, kind, args[0] + ambush_bonus(turn, kind), args[1])
    elif kind == "heal":
        heal(state, seat, args[0], events)
    elif kind == "draw":
        draw(state, seat, args[0], events)
    elif kind == "mana":
        turn["tokens"].append(args[0])
    elif kind == "crystal":
        mana.crystal_gain(s, args[0], turn)
    elif kind == "fame":
        s["fame"] += args[0]
        events.append(Event(f"{hero_name(state, seat)} gains {args[0]} Fame.", None, {"seat": seat}))
    elif kind == "reputation":
        change_reputation(state, seat, args[0], events)
    elif kind == "wound":
        take_wounds(state, seat, args[0], events)
    elif kind == "special":
        spec = SPECIALS[args[0]]
        choices = spec.choices(state, seat, list(args[1:])) if spec.choices else None
        if choices is None:
            spec.do(state, seat, list(args[1:]), None, events)
        elif len(choices) == 1:
            spec.do(state, seat, list(args[1:]), choices[0][0], events)
        elif choices:
            turn["pending"] = {"kind": "special", "name": args[0], "args": list(args[1:]),
                               "choices": [list(c) for c in choices]}


def effect_options(state, seat: int) -> list[tuple[str, str]]:
    """The picks of an open effect choice: (option id, label)."""
    p = state["turn"]["pending"]
    if p["kind"] == "choose":
        return [(f"fx:{i}", describe(b)) for i, b in enumerate(p["branches"])]
    return [(f"fx:{c[0]}", c[1]) for c in p["choices"]]


def effect_pick(state, seat: int, option_id: str, events: list) -> None:
    turn = state["turn"]
    p = turn["pending"]
    choice = option_id[3:]
    turn["pending"] = None
    if p["kind"] == "choose":
        turn["queue"].insert(0, p["branches"][int(choice)])
    else:
        SPECIALS[p["name"]].do(state, seat, p["args"], choice, events)
    run(state, seat, events)


def _glory_fame(state, seat, glory, events):
    """Banner of Glory: "Fame +1 whenever it attacks or blocks" (attached); thrown away: "Fame +1 per Unit that
    attacks or blocks" this turn (once per Unit)."""
    turn = state["turn"]
    fame = 1 if glory["attached"] else 0
    if turn.get("glory_all") and glory["uid"] not in turn.setdefault("glory_units", []):
        turn["glory_units"].append(glory["uid"])
        fame += 1
    if fame:
        state["seats"][seat]["fame"] += fame
        events.append(Event(f"{hero_name(state, seat)} gains {fame} Fame (Banner of Glory).", None,
                            {"seat": seat, "fame": fame}))
