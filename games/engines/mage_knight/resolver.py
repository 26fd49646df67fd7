"""Resolving an effect on a turn: the turn's pool, when an effect is of use, the effect queue and its picks,
the seat helpers (draw, heal, wounds, Reputation, offers) and the small helpers the special-effect modules share.
"""

from __future__ import annotations

from ..base import Event
from . import mana
from .specials_registry import SPECIALS
from .card_text import BONUS_KINDS, COMBAT, describe, _is_cost, WOUND
from .card_table import ACTION_KINDS, CARDS, name


# ---------------------------------------------------------------- the turn's pool

def empty_pool() -> dict:
    return {"move": 0, "influence": 0, "heal": 0,
            "attack": {"melee": {}, "ranged": {}, "siege": {}}, "block": {}}


def add_pool(turn, kind: str, n: int, elem: str = "physical") -> None:
    pool = turn["pool"]
    if turn.get("bonus") and kind in BONUS_KINDS:
        # Concentration / Will Focus: "get an additional 2 (3) Move, Influence, Block or Attack" -- once, on the
        # first Move/Influence/Attack/Block the free powered card gives (no Action card gives two of them at once)
        n += turn.pop("bonus")
    glory = turn.get("unit_bonus")
    if glory and kind in COMBAT:  # Banner of Glory: "+1 to its attacks and blocks" (each of them)
        n += glory["n"]
        glory["struck"] = True
    if kind in ("move", "influence", "heal"):
        pool[kind] += n
    elif kind == "block":
        pool["block"][elem] = pool["block"].get(elem, 0) + n
    else:
        modifier = turn.get("attack_modifier")
        if modifier == "cold_fire":
            elem = "cold_fire"
        elif modifier == "siege":
            kind = "siege"
        bucket = pool["attack"]["melee" if kind == "attack" else kind]
        bucket[elem] = bucket.get(elem, 0) + n


# ---------------------------------------------------------------- when an effect is of use

def in_combat(state) -> bool:
    return state.get("combat") is not None


def combat_allowed(state) -> set:
    if not in_combat(state):
        return set()
    from .turn import _combat  # imported lazily: combat.py imports modules that import this one
    return set(_combat().allowed(state))


def wounds_in_hand(seat_state) -> int:
    return sum(1 for c in seat_state["hand"] if c == WOUND)


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
    from .turn import _combat
    return _combat().enemy_targets(state, "whirlwind")  # the plain "does not attack this combat" modifier


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
            undo.append(mana._take(state, seat, src))
        return usable(state, seat, tree, ctx)
    finally:
        for u in reversed(undo):
            u()


def make_ctx(state, seat: int, exclude: str | None = None) -> dict:
    """``exclude``: a card still in the hand that is the one being played (not there to pay its costs)."""
    return {"allowed": combat_allowed(state), "exclude": exclude}


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
            if any(_is_cost(t) and not atom_usable(state, seat, t, make_ctx(state, seat)) for t in node[1]):
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


def ambush_bonus(turn, kind: str) -> int:
    """Ambush: "first Attack card this turn gets +1 or first Block card +2 (whichever comes first)"."""
    bonus = turn.get("ambush")
    if not bonus or not turn.get("from_card"):
        return 0
    turn["ambush"] = None
    return bonus[1] if kind == "block" else bonus[0]


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


# ---------------------------------------------------------------- seat helpers

def hero_name(state, seat: int) -> str:
    return f"Seat {seat + 1}"


def draw(state, seat: int, n: int, events: list | None) -> int:
    """Draw up to n cards from the top of the deed deck (the list's end, as setup.py deals); no reshuffle
    in the middle of a round."""
    s = state["seats"][seat]
    drawn = [s["deck"].pop() for _ in range(min(n, len(s["deck"])))]
    k = len(drawn)
    s["hand"].extend(drawn)
    if events is not None and k:
        events.append(Event(f"{hero_name(state, seat)} draws {k} card{'s' if k > 1 else ''}.", None,
                            {"seat": seat, "drew": k}))
        events.append(Event("You draw " + ", ".join(name(c) for c in drawn) + ".", (seat,), {"cards": drawn}))
    return k


def heal(state, seat: int, n: int, events: list) -> None:
    """Heal: each point throws a Wound card from the hand back to the (unlimited, uncounted) supply; spare points
    stay in the pool for healing Units (turn.py). Nothing during combat."""
    if in_combat(state):
        return
    s = state["seats"][seat]
    k = min(n, wounds_in_hand(s))
    for _ in range(k):
        s["hand"].remove(WOUND)
    if state.get("turn") is not None:
        state["turn"]["pool"]["heal"] += n - k
    if k:
        events.append(Event(f"{hero_name(state, seat)} heals {k} Wound{'s' if k > 1 else ''}.", None,
                            {"seat": seat, "healed": k}))
    if k and state.get("turn") is not None and state["turn"].get("grail_draw"):
        draw(state, seat, k, events)  # Golden Grail powered: "draw a card each time you heal a Wound from hand"


def take_wounds(state, seat: int, n: int, events: list, into: str = "hand") -> None:
    """n Wound cards into the seat's hand (or ``into`` another pile). The Wound supply never runs out: the rules
    ("Stack the Wound Cards face up") set no number, so every Wound is given and none is counted."""
    s = state["seats"][seat]
    for _ in range(n):
        s[into].append(WOUND)
    if state.get("turn") is not None and state["turn"].get("seat") == seat:
        note_wounds(state["turn"], n)
    events.append(Event(f"{hero_name(state, seat)} takes {n} Wound{'s' if n > 1 else ''}.", None,
                        {"seat": seat, "wounds": n}))


def note_wounds(turn, n: int) -> None:
    """Wounds the hero received this turn (Banner of Protection's thrown-away effect counts them)."""
    turn["wounds_received"] = turn.get("wounds_received", 0) + n


def change_reputation(state, seat: int, n: int, events: list) -> None:
    s = state["seats"][seat]
    before = s["reputation"]
    s["reputation"] = max(-7, min(7, before + n))
    if s["reputation"] != before:
        events.append(Event(f"{hero_name(state, seat)}'s Reputation {'rises' if n > 0 else 'falls'} to "
                            f"{s['reputation']}.", None, {"seat": seat, "reputation": s["reputation"]}))


def throw_away(state, seat: int, card_id: str) -> None:
    s = state["seats"][seat]
    s["hand"].remove(card_id)
    s["removed"].append(card_id)


def action_cards_in_hand(state, seat: int) -> list[str]:
    return [c for c in dict.fromkeys(state["seats"][seat]["hand"]) if CARDS[c].kind in ACTION_KINDS]


def take_from_offer(state, offer: str, card_id: str) -> None:
    """Remove a card from an offer and refill it from its deck (new cards join at the top slot)."""
    state["offers"][offer].remove(card_id)
    deck = state["decks"].get(offer) or []
    if deck:
        state["offers"][offer].insert(0, deck.pop())  # the top of a deck is its end


def _yes(*_a):
    return True


def _units(state, seat):
    return state["seats"][seat]["units"]


def unit_level(unit_id: str) -> int:
    from . import units
    return units.UNITS[unit_id].level if unit_id in units.UNITS else 1


def _spendable(state, seat, exclude_crystals=True):
    """(source, colour it gives) for one mana of a basic colour, gold by day offered as each colour."""
    out, seen = [], set()
    for colour in mana.BASIC:
        for src in mana.sources_for(state, seat, colour):
            if exclude_crystals and src.startswith("crystal"):
                continue
            key = (mana.label(state, src), colour)
            if key not in seen:
                seen.add(key)
                out.append((src, colour))
    return out


def _spend_choices(state, seat, useful=None):
    return [(f"{src}>{colour}", f"{mana.label(state, src)} as {colour}" if "gold" in mana.label(state, src)
             else mana.label(state, src))
            for src, colour in _spendable(state, seat, exclude_crystals=False)
            if useful is None or useful(colour)]


def _split(choice):
    src, colour = choice.split(">")
    return src, colour


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
