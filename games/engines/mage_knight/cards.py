"""Deed cards (cards.csv) and the effect vocabulary: parse once at import, apply to a turn.

An effect string (README, "Effect vocabulary") parses into a JSON-able tree, so that a half-resolved
effect can wait in the state for a pick:

    ["atom", kind, *args]      move N | influence N | attack N elem | ranged N elem | siege N elem |
                               block N elem | heal N | draw N | mana C | crystal C | reputation N |
                               fame N | wound N | special NAME *ints
    ["all", [tree, ...]]       A + B
    ["any", [tree, ...]]       A | B   (the player picks one; "|" binds looser than "+"; parentheses group)

`mana any` is a choice of a token of any of the six colours. Effects resolve through a queue kept in
``state["turn"]["queue"]``; a choice stops the queue and opens ``state["turn"]["pending"]``
(kind "choose" or "special"), which turn.py turns into options (`effect_options` / `effect_pick`).
Specials (`special NAME`) are the named effects in SPECIALS below; cards.csv and units.csv share them.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass

from ..base import Event
from . import mana

CSV_PATH = os.path.join(os.path.dirname(__file__), "cards.csv")
KINDS = ("basic", "advanced", "spell", "artifact", "wound")
ELEMENTS = ("physical", "fire", "ice", "cold_fire")
ACTION_KINDS = ("basic", "advanced")
ANY_COLOURS = ("red", "blue", "green", "white", "gold", "black")
NUMERIC = ("move", "influence", "heal", "draw", "reputation", "fame", "wound")
COMBAT = ("attack", "ranged", "siege", "block")
WOUND = "wound"


class EffectError(ValueError):
    """An effect string outside the vocabulary."""


# ---------------------------------------------------------------- parsing

def parse(text: str) -> list:
    tokens = re.findall(r"\(|\)|\||\+|[^\s()|+]+", text)
    pos = 0

    def alt():
        nonlocal pos
        parts = [seq()]
        while pos < len(tokens) and tokens[pos] == "|":
            pos += 1
            parts.append(seq())
        return parts[0] if len(parts) == 1 else ["any", parts]

    def seq():
        nonlocal pos
        parts = [unit()]
        while pos < len(tokens) and tokens[pos] == "+":
            pos += 1
            parts.append(unit())
        return parts[0] if len(parts) == 1 else ["all", parts]

    def unit():
        nonlocal pos
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            tree = alt()
            if pos >= len(tokens) or tokens[pos] != ")":
                raise EffectError(f"unclosed parenthesis in {text!r}")
            pos += 1
            return tree
        words = []
        while pos < len(tokens) and tokens[pos] not in ("(", ")", "|", "+"):
            words.append(tokens[pos])
            pos += 1
        return atom(words, text)

    tree = alt()
    if pos != len(tokens):
        raise EffectError(f"unexpected {tokens[pos]!r} in {text!r}")
    return tree


def atom(words: list[str], text: str) -> list:
    if not words:
        raise EffectError(f"empty effect in {text!r}")
    kind, rest = words[0], words[1:]
    try:
        if kind in NUMERIC and len(rest) == 1:
            return ["atom", kind, int(rest[0])]
        if kind in COMBAT and len(rest) in (1, 2):
            elem = rest[1] if len(rest) == 2 else "physical"
            if elem not in ELEMENTS:
                raise EffectError(f"unknown element {elem!r} in {text!r}")
            return ["atom", kind, int(rest[0]), elem]
        if kind == "mana" and len(rest) == 1:
            if rest[0] == "any":
                return ["any", [["atom", "mana", c] for c in ANY_COLOURS]]
            if rest[0] in ANY_COLOURS:
                return ["atom", "mana", rest[0]]
        if kind == "crystal" and len(rest) == 1 and rest[0] in mana.BASIC:
            return ["atom", "crystal", rest[0]]
        if kind == "special" and rest:
            if rest[0] not in SPECIALS:
                raise EffectError(f"unknown special {rest[0]!r} in {text!r}")
            return ["atom", "special", rest[0], *[int(x) if x.lstrip("-").isdigit() else x for x in rest[1:]]]
    except ValueError as exc:
        raise EffectError(f"bad number in {text!r}") from exc
    raise EffectError(f"not in the vocabulary: {' '.join(words)!r} in {text!r}")


BONUS_KINDS = ("move", "influence", "attack", "ranged", "siege", "block")


COMBAT_WORD = {"attack": "Attack", "ranged": "Ranged Attack", "siege": "Siege Attack", "block": "Block"}
ELEMENT_WORD = {"fire": "fire", "ice": "ice", "cold_fire": "cold fire"}
ANY_MANA = ["any", [["atom", "mana", c] for c in ANY_COLOURS]]


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 wound", "2 wounds" (issue 11: correct plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _counted(tree: list, n: int) -> str:
    """n copies of one atom in a row ("mana any + mana any" -> "gain 2 mana tokens of any colour")."""
    if tree == ANY_MANA:
        return "gain a mana token of any colour" if n == 1 else f"gain {n} mana tokens of any colour"
    if tree[0] == "atom" and tree[1] == "mana":
        return f"gain a {tree[2]} mana token" if n == 1 else f"gain {n} {tree[2]} mana tokens"
    if tree[0] == "atom" and tree[1] == "crystal":
        return f"gain a {tree[2]} crystal" if n == 1 else f"gain {n} {tree[2]} crystals"
    if tree[0] == "atom" and tree[1] == "special" and tree[2] == "extra_die":
        return "use one more Source die this turn" if n == 1 else f"use {n} more Source dice this turn"
    one = describe(tree)
    return one if n == 1 else f"{one}, {'twice' if n == 2 else f'{n} times'}"


def _is_cost(tree: list) -> bool:
    return tree[0] == "atom" and tree[1] == "special" and SPECIALS[tree[2]].cost


def _same_gain(branches: list) -> str:
    """"gain a red, blue, green or white crystal" for a choice among mana tokens or among crystals only."""
    kinds = {b[1] for b in branches if b[0] == "atom"}
    if len(branches) < 2 or any(b[0] != "atom" for b in branches) or len(kinds) != 1 or kinds - {"mana", "crystal"}:
        return ""
    noun = "mana token" if kinds == {"mana"} else "crystal"
    return f"gain a {_choice([b[2] for b in branches])} {noun}"


def _choice(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def describe(tree: list) -> str:
    """An effect tree in plain English: "Attack 2 or Block 2", "Ranged Attack 3 (fire)", "gain a blue crystal",
    "Heal 2 wounds". Used for card text, option labels and unit abilities alike."""
    if tree == ANY_MANA:
        return _counted(tree, 1)
    if tree[0] == "any":
        same = _same_gain(tree[1])
        if same:
            return same
        return _choice([f"({describe(t)})" if t[0] == "all" and len(t[1]) > 1 and not _is_cost(t[1][0])
                        else describe(t) for t in tree[1]])
    if tree[0] == "all":
        parts = list(tree[1])
        if parts and _is_cost(parts[0]) and len(parts) > 1:  # "discard a card: Move 3, ... or Block 3"
            return f"{describe(parts[0])}: {describe(['all', parts[1:]] if len(parts) > 2 else parts[1])}"
        words, i = [], 0
        while i < len(parts):
            n = 1
            while i + n < len(parts) and parts[i + n] == parts[i]:
                n += 1
            t = parts[i]
            word = f"({describe(t)})" if t[0] == "any" and t != ANY_MANA and not _same_gain(t[1]) else _counted(t, n)
            if word.startswith("gain ") and words and words[-1].startswith(("gain ", "Gain ")) or (
                    word.startswith("gain ") and len(words) > 1 and words[0].startswith("gain ")):
                word = word[5:]  # "gain a blue mana token, a blue crystal and Fame +1"
            words.append(word)
            i += n
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    kind, args = tree[1], tree[2:]
    if kind in COMBAT:
        elem = "" if args[1] == "physical" else f" ({ELEMENT_WORD[args[1]]})"
        return f"{COMBAT_WORD[kind]} {args[0]}{elem}"
    if kind in ("mana", "crystal"):
        return _counted(tree, 1)
    if kind == "special":
        return SPECIALS[args[0]].label(args[1:])
    if kind == "wound":
        return f"take {plural(args[0], 'wound')}"
    if kind == "heal":
        return f"Heal {plural(args[0], 'wound')}"
    if kind == "draw":
        return f"draw {plural(args[0], 'card')}"
    if kind in ("reputation", "fame"):
        return f"{kind.title()} {args[0]:+d}"
    return f"{kind.title()} {args[0]}"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_text(kind: str, colour: str, basic: list | None, powered: list | None, powered_name: str = "") -> str:
    """The text a person reads on a card, written from the effects the engine plays (simplified ones
    included, so the text never promises what the engine does not do). tools/compile_cards.py stores it."""
    if kind == WOUND:
        return "A Wound: cannot be played; heal it to remove it from your hand."
    b, p = sentence(describe(basic)), sentence(describe(powered))
    if kind == "artifact":
        return f"{b}. Thrown away: {p}."
    if kind == "spell":
        return (f"With {colour} mana: {b}. {powered_name or 'Powered'} (at night, with {colour} and black "
                f"mana): {p}.")
    return f"{b}. Powered ({colour} mana): {p}." if colour else f"{b}. Powered: {p}."


# ---------------------------------------------------------------- the card table

@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    kind: str
    colour: str
    copies: int
    basic: list | None
    powered: list | None
    text: str


def load(path: str = CSV_PATH) -> dict[str, Card]:
    out: dict[str, Card] = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] not in KINDS:
                raise EffectError(f"{row['id']}: unknown kind {row['kind']!r}")
            out[row["id"]] = Card(
                id=row["id"], name=row["name"], kind=row["kind"], colour=row["colour"],
                copies=int(row["copies"]), text=row["text"],
                basic=parse(row["basic"]) if row["basic"] else None,
                powered=parse(row["powered"]) if row["powered"] else None)
    return out


# SPECIALS must exist before the table is parsed (atom() checks names): CARDS is loaded at the bottom.


def deck_of(kind: str) -> list[str]:
    """Every copy of the cards of one kind (setup deals the advanced, spell and artifact decks from it)."""
    return [c.id for c in CARDS.values() if c.kind == kind for _ in range(c.copies)]


def colour(card_id: str) -> str:
    """The card's mana colour ("" for a colourless artifact or a wound)."""
    return CARDS[card_id].colour


def name(card_id: str) -> str:
    c = CARDS.get(card_id)
    return c.name if c else card_id


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


def _ambush(state, seat, args, choice, events):
    state["turn"]["ambush"] = [args[0], args[1]]


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
    """Heal: each point throws a Wound card from the hand back to the supply; spare points stay in the
    pool for healing Units (turn.py). Nothing during combat."""
    if in_combat(state):
        return
    s = state["seats"][seat]
    k = min(n, wounds_in_hand(s))
    for _ in range(k):
        s["hand"].remove(WOUND)
    state["decks"]["wounds"] = state["decks"].get("wounds", 0) + k
    if state.get("turn") is not None:
        state["turn"]["pool"]["heal"] += n - k
    if k:
        events.append(Event(f"{hero_name(state, seat)} heals {k} Wound{'s' if k > 1 else ''}.", None,
                            {"seat": seat, "healed": k}))
    if k and state.get("turn") is not None and state["turn"].get("grail_draw"):
        draw(state, seat, k, events)  # Golden Grail powered: "draw a card each time you heal a Wound from hand"


def take_wounds(state, seat: int, n: int, events: list, into: str = "hand") -> None:
    s = state["seats"][seat]
    for _ in range(n):
        s[into].append(WOUND)
    if state.get("turn") is not None and state["turn"].get("seat") == seat:
        note_wounds(state["turn"], n)
    state["decks"]["wounds"] = max(0, state["decks"].get("wounds", 0) - n)
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


# ---------------------------------------------------------------- specials

@dataclass(frozen=True)
class Special:
    label: object           # args -> str
    usable: object          # (state, seat, args, ctx) -> bool
    do: object              # (state, seat, args, choice | None, events) -> None
    choices: object = None  # (state, seat, args) -> [(id, label)] or None (no pick)
    cost: bool = False      # a cost: a card whose cost cannot be paid cannot be played
    pays: bool = False      # asks for one more mana besides the card's own (turn.py checks both can be paid)


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


# discard_card: a cost; discard another non-Wound card from the hand
def _discardables(state, seat):
    s = state["seats"][seat]
    return [c for c in dict.fromkeys(s["hand"]) if c != WOUND]


def _hand_without(state, seat, ctx):
    hand = list(state["seats"][seat]["hand"])
    exclude = ctx.get("exclude")
    for c in (exclude if isinstance(exclude, (list, tuple)) else [exclude]):
        if c in hand:
            hand.remove(c)  # the card being played (and the card it is played with) cannot pay for itself
    return hand


def _discard_usable(state, seat, args, ctx):
    return any(c != WOUND for c in _hand_without(state, seat, ctx))


def _discard_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    s["hand"].remove(choice)
    s["discard"].append(choice)
    events.append(Event(f"{hero_name(state, seat)} discards {name(choice)}.", None, {"seat": seat}))


def _crystallize_do(state, seat, args, choice, events):
    src, colour = _split(choice)
    mana.pay(state, seat, src)
    mana.crystal_gain(state["seats"][seat], colour, state["turn"])


def _extra_die(state, seat, args, choice, events):
    state["turn"]["dice_allowed"] = state["turn"].get("dice_allowed", 1) + 1


def _free_dice(state):
    return [i for i in range(len(state["source"]["dice"])) if i not in state["source"]["taken"]]


def _mana_draw_do(state, seat, args, choice, events):
    i = _free_dice(state)[0]
    turn = state["turn"]
    state["source"]["taken"].append(i)
    state["source"]["dice"][i] = choice
    turn.setdefault("keep_dice", {})[str(i)] = choice
    turn["tokens"].extend([choice] * args[0])


def _concentration_usable(state, seat, args, ctx):
    """Of use if another Action card in the hand has a powered effect of use now (it will be played with it)."""
    hand = _hand_without(state, seat, ctx)
    return any(CARDS[c].kind in ACTION_KINDS and usable(state, seat, CARDS[c].powered, dict(
        ctx, exclude=[x for x in (ctx.get("exclude"), c) if x])) for c in dict.fromkeys(hand))


def _concentration_do(state, seat, args, choice, events):
    state["turn"]["boost"] = args[0]


def _mastery_choices(state, seat, args):
    cr = state["seats"][seat]["crystals"]
    return [(c, f"a {c} crystal") for c in mana.BASIC if 0 < cr[c] < mana.CRYSTAL_MAX]


def _mastery_do(state, seat, args, choice, events):
    mana.crystal_gain(state["seats"][seat], choice, state["turn"])


def _crystal_return(state, seat, args, choice, events):
    state["turn"]["crystal_return"] = True


PURE = {"green": "move", "white": "influence", "blue": "block", "red": "attack"}


def _pure_useful(state, seat):
    ctx = make_ctx(state, seat)
    return lambda colour: atom_usable(state, seat, ["atom", PURE[colour], 1, "physical"], ctx)


def _pure_do(state, seat, args, choice, events):
    src, colour = _split(choice)
    mana.pay(state, seat, src)
    add_pool(state["turn"], PURE[colour], args[0])


def _in_need_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    wounds = wounds_in_hand(s) + sum(unit_wounds(u) for u in s["units"])
    add_pool(state["turn"], "influence", args[0] + args[1] * wounds)


def _spent_units(state, seat, max_level):
    return [u for u in _units(state, seat) if not u["ready"] and unit_level(u["id"]) <= max_level]


def _ready_choices(state, seat, args):
    return [(str(u["uid"]), unit_name(u["id"])) for u in _spent_units(state, seat, args[0])]


def _ready_do(state, seat, args, choice, events):
    for u in _units(state, seat):
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
    for u in _units(state, seat):
        u["ready"] = True


def _heal_unit_choices(state, seat, args):
    return [(str(u["uid"]), unit_name(u["id"])) for u in _units(state, seat) if u.get("wounded")]


def _heal_unit_do(state, seat, args, choice, events):
    for u in _units(state, seat):
        if str(u["uid"]) == choice:
            heal_unit_wound(u)


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


def unit_name(unit_id):
    from . import units
    return units.UNITS[unit_id].name if unit_id in units.UNITS else unit_id


def _aa_pairs(state, seat, offer):
    pairs = []
    for c in action_cards_in_hand(state, seat):
        for o in state["offers"].get(offer, []):
            if CARDS.get(o) and CARDS[o].colour == CARDS[c].colour and CARDS[c].colour:
                pairs.append((f"{c}>{o}", f"throw away {name(c)}, take {name(o)}"))
    return pairs


def _training(dest):
    def do(state, seat, args, choice, events):
        c, o = choice.split(">")
        throw_away(state, seat, c)
        take_from_offer(state, "advanced", o)
        state["seats"][seat][dest].append(o)
        events.append(Event(f"{hero_name(state, seat)} throws away {name(c)} and takes {name(o)}.", None,
                            {"seat": seat}))
    return do


def _decompose_choices(state, seat, args):
    return [(c, f"throw away {name(c)}") for c in action_cards_in_hand(state, seat) if CARDS[c].colour]


def _decompose(powered):
    def do(state, seat, args, choice, events):
        colour = CARDS[choice].colour
        throw_away(state, seat, choice)
        s = state["seats"][seat]
        for c in ([x for x in mana.BASIC if x != colour] if powered else [colour, colour]):
            mana.crystal_gain(s, c, state["turn"])
    return do


def _learn_spell_choices(state, seat, args):
    out = []
    for sp in state["offers"].get("spells", []):
        colour = CARDS[sp].colour if sp in CARDS else ""
        srcs = mana.sources_for(state, seat, colour) if colour else []
        if srcs:
            out.append((f"{sp}>{srcs[0]}", f"{name(sp)}, paying with {mana.label(state, srcs[0])}"))
    return out


def _learn_spell_do(state, seat, args, choice, events):
    sp, src = choice.split(">")
    mana.pay(state, seat, src)
    take_from_offer(state, "spells", sp)
    state["seats"][seat]["discard"].append(sp)
    events.append(Event(f"{hero_name(state, seat)} learns {name(sp)}.", None, {"seat": seat}))


def _book_spell_do(state, seat, args, choice, events):
    c, o = choice.split(">")
    throw_away(state, seat, c)
    take_from_offer(state, "spells", o)
    s = state["seats"][seat]
    s["hand"].append(o)
    mana.crystal_gain(s, CARDS[o].colour, state["turn"])


def _recruit_bonus(rep, fame):
    def do(state, seat, args, choice, events):
        state["turn"]["recruit_bonus"] = [rep, fame]
    return do


def _storm_choices(state, seat, args):
    seen, out = set(), []
    for i in _free_dice(state):
        d = state["source"]["dice"][i]
        if d in mana.BASIC and d not in seen:
            seen.add(d)
            out.append((str(i), f"the {d} die"))
    return out


def _storm_powered_do(state, seat, args, choice, events):
    """Mana Storm powered: "reroll all Source dice; you may use 3 extra dice and black/gold dice count as any basic
    colour this turn" (the dice already taken this turn are rerolled when they come back)."""
    turn = state["turn"]
    for i in _free_dice(state):
        state["source"]["dice"][i] = mana.roll(state)
    turn["dice_allowed"] = turn.get("dice_allowed", 1) + 3
    turn["storm"] = True
    events.append(Event(f"{hero_name(state, seat)} rerolls the Source: " + ", ".join(
        state["source"]["dice"][i] for i in _free_dice(state)) + " (Mana Storm).", None, {"seat": seat}))


def _storm_do(state, seat, args, choice, events):
    i = int(choice)
    mana.crystal_gain(state["seats"][seat], state["source"]["dice"][i], state["turn"])
    state["source"]["dice"][i] = mana.roll(state)


BOLT = {"blue": ("attack", 0, "ice"), "red": ("attack", 1, "cold_fire"), "white": ("ranged", 2, "ice"),
        "green": ("siege", 3, "ice")}


def _bolt_useful(state, seat):
    allowed = combat_allowed(state)
    return lambda colour: {"attack": "melee"}.get(BOLT[colour][0], BOLT[colour][0]) in allowed


def _bolt_choices(state, seat, args):
    out = []
    for i, lab in _spend_choices(state, seat, _bolt_useful(state, seat)):
        kind, minus, elem = BOLT[_split(i)[1]]
        out.append((i, f"{lab}: {describe(['atom', kind, args[0] - minus, elem])}"))
    return out


def _bolt_do(state, seat, args, choice, events):
    src, colour = _split(choice)
    mana.pay(state, seat, src)
    kind, minus, elem = BOLT[colour]
    add_pool(state["turn"], kind, args[0] - minus, elem)


def _claim_choices(state, seat, args):
    """Mana Claim: "take a basic-coloured Source die until end of Round: gain 3 tokens of its colour now, or 1 token
    each turn for the rest of the Round" -- both ways for each colour, 3 now first (the default)."""
    out = []
    for i, lab in _storm_choices(state, seat, args):
        c = state["source"]["dice"][int(i)]
        out.append((f"{i}>now", f"take {lab}: 3 {c} mana tokens now"))
        out.append((f"{i}>turns", f"take {lab}: 1 {c} mana token now and at the start of each of your turns this "
                                  f"Round"))
    return out


def _claim_do(state, seat, args, choice, events):
    i, how = choice.split(">")
    colour = mana.take_die_out(state, int(i))
    each = how == "turns"
    state["seats"][seat]["claimed"] = {"colour": colour, "each_turn": each, "curse": bool(args[0])}
    state["turn"]["tokens"].extend([colour] * (1 if each else 3))
    events.append(Event(f"{hero_name(state, seat)} takes the {colour} die from the Source until the end of the Round ("
                        + ("Mana Curse" if args[0] else "Mana Claim") + ").", None,
                        {"seat": seat, "claimed": colour, "each_turn": each, "curse": bool(args[0])}))


def _restoration_do(state, seat, args, choice, events):
    pos = state["seats"][seat].get("pos")
    terrain = state["map"]["hexes"].get(pos, {}).get("terrain") if pos else None
    heal(state, seat, 5 if terrain == "forest" else 3, events)


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
    u = next(u for u in _units(state, seat) if str(u["uid"]) == choice)
    u["ready"] = True
    turn["rebirth_left"] = left - unit_level(u["id"])
    if _budget_choices(state, seat, args):
        turn["queue"].insert(0, ["atom", "special", "ready_budget", *args])
    else:
        turn.pop("rebirth_left", None)


def _free_recruit_choices(state, seat, args):
    from . import interaction
    return [(u, unit_name(u)) for u in dict.fromkeys(state["offers"].get("units", []))
            if interaction.is_unit(u) and interaction.has_command(state, seat)]


def _free_recruit_do(state, seat, args, choice, events):
    from . import interaction
    interaction.add_unit(state, seat, choice, events)


def _endless_do(state, seat, args, choice, events):
    """A Ring thrown away: "unlimited <colour> and black mana this turn" (mana.sources_for offers it for every cost)
    "; Fame +1 per <colour> Spell cast this turn" (counted at the end of the turn, endturn.py)."""
    endless = state["turn"].setdefault("endless", [])
    for c in (args[0], "black"):
        if c not in endless:
            endless.append(c)
    state["turn"].setdefault("ring_fame", []).append(args[0])


def _gem_pouch_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    for _ in range(2):
        face = mana.roll(state)
        if face == "black":
            s["fame"] += 1
        elif face == "gold":  # "gold = your choice": a pick after the rolls
            state["turn"]["queue"].insert(0, ["atom", "special", "gem_gold"])
        else:
            mana.crystal_gain(s, face, state["turn"])
        events.append(Event(f"{hero_name(state, seat)} rolls {face}.", None, {"seat": seat}))


def _gem_gold_choices(state, seat, args):
    """Endless Gem Pouch, a gold roll: a crystal of the colour chosen (the colours held fewest of first)."""
    cr = state["seats"][seat]["crystals"]
    return [(c, f"a {c} crystal" + (" (you hold 3: a token instead)" if cr[c] >= mana.CRYSTAL_MAX else ""))
            for c in sorted(mana.BASIC, key=lambda c: cr[c])]


AMULET_TIME = {"sun": "night", "dark": "day"}  # when each Amulet's extra rules apply


def _amulet_do(state, seat, args, choice, events):
    """Amulet of the Sun, at Night: "forests cost 3, gold mana usable, fortified-site garrisons and ruins revealed as
    by Day"; Amulet of Darkness, by Day: "deserts cost 3 and black mana usable as at Night" (mana.time_for)."""
    from . import hexmap
    kind = args[0]
    turn = state["turn"]
    if state["time"] != AMULET_TIME[kind] or turn.get("amulet") == kind:
        return
    turn["amulet"] = kind
    turn.setdefault("terrain", []).append(["set", "forest" if kind == "sun" else "desert", 3])
    if kind == "sun":
        pos = state["seats"][seat].get("pos")
        events += hexmap.reveal_ruins_at_day(state["map"])
        if pos:
            events += hexmap.reveal_garrisons_near(state["map"], pos, "day")
    events.append(Event(f"{hero_name(state, seat)}: " + (
        "this turn forests cost 3, gold mana is usable and sites are revealed as by Day (Amulet of the Sun)."
        if kind == "sun" else "this turn deserts cost 3 and black mana is usable as at Night (Amulet of Darkness)."),
        None, {"seat": seat}))


def _day_night_token(state, seat, args, choice, events):
    state["turn"]["tokens"].append("gold" if state["time"] == "day" else "black")


def _risk_wound(state, seat, args, choice, events):
    faces = [mana.roll(state) for _ in range(args[0])]
    bad = sum(1 for f in faces if f in ("black", "red"))
    events.append(Event(f"{hero_name(state, seat)} rolls {', '.join(faces)}.", None, {"seat": seat}))
    if bad:
        take_wounds(state, seat, bad, events)


def _wound_self(state, seat, args, choice, events):
    """A unit's ability that wounds the unit itself (Utem Swordsmen's Attack/Block 6)."""
    for u in _units(state, seat):
        if u["uid"] == state["turn"].get("unit_uid"):
            u["wounded"] = True
            u["wounds"] = max(1, u.get("wounds", 1))


# Unit abilities that act on one enemy (combat.TARGET_EFFECTS) or on all the seat's units for the combat.

def _target_usable(effect):
    def ok(state, seat, args, ctx):
        from .turn import _combat
        return in_combat(state) and bool(_combat().enemy_targets(state, effect))
    return ok


def _target_choices(effect):
    def choices(state, seat, args):
        from .turn import _combat
        return [(str(i), lab) for i, lab in _combat().enemy_targets(state, effect)]
    return choices


def _target_do(effect):
    def do(state, seat, args, choice, events):
        from .turn import _combat
        _combat().target_enemy(state, effect, int(choice), events)
    return do


def _all_usable(effect):
    def ok(state, seat, args, ctx):
        from .turn import _combat
        return in_combat(state) and _combat().all_enemies_of_use(state, effect)
    return ok


def _all_do(effect):
    def do(state, seat, args, choice, events):
        from .turn import _combat
        _combat().affect_all_enemies(state, effect, events)
    return do


def _target_special(effect, label):
    return Special(lambda a: label, _target_usable(effect), _target_do(effect), _target_choices(effect))


def _all_special(effect, label):
    return Special(lambda a: label, _all_usable(effect), _all_do(effect))


def _rider(name, label):
    """A block card's effect that acts on the enemy its block stops (combat.add_block_rider); never a use by
    itself: the card's Block is."""
    def do(state, seat, args, choice, events):
        from .turn import _combat
        _combat().add_block_rider(state, name)
    return Special(lambda a: label, lambda *a: False, do)


def _swift_block_do(state, seat, args, choice, events):
    from .turn import _combat
    bonus = (state["turn"].get("unit_bonus") or {}).get("n", 0)  # Glory / Into the Heat raised the Block: it counts too
    _combat().add_swift_block(state, args[0] + bonus)


ENEMY_SPECIALS = {
    "tremor_one": _target_special("tremor_one", "one enemy gets Armor -3 (at least 1) this combat"),
    "tremor_all": _all_special("tremor_all", "all enemies get Armor -2 (at least 1) this combat"),
    "earthquake_one": _target_special("earthquake_one", "one enemy gets Armor -3, or -6 if it is fortified "
                                                        "(at least 1), this combat"),
    "earthquake_all": _all_special("earthquake_all", "all enemies get Armor -2, or -4 if fortified (at least 1), "
                                                     "this combat"),
    "chill": _target_special("chill", "one enemy without ice resistance does not attack this combat and loses "
                                      "its fire resistance"),
    "lethal_chill": _target_special("lethal_chill", "one enemy without ice resistance does not attack this combat "
                                                    "and gets Armor -4 (at least 1)"),
    "whirlwind": _target_special("whirlwind", "one enemy does not attack this combat"),
    "tornado": _target_special("tornado", "in the Attack phase, destroy one enemy"),
    "expose": _target_special("expose", "one enemy loses its fortification and resistances this combat"),
    "mass_expose_fortifications": _all_special("mass_expose_fortifications",
                                               "all enemies lose their fortifications this combat"),
    "mass_expose_resistances": _all_special("mass_expose_resistances",
                                            "all enemies lose their resistances this combat"),
    "demolish": _all_special("demolish", "ignore site fortifications this turn; all enemies without fire "
                                         "resistance get Armor -1 (at least 1) this combat"),
    "disintegrate": _target_special("disintegrate", "in the Attack phase, destroy one enemy without fire "
                                                    "resistance"),
    "disintegrate_others": _all_special("disintegrate_others", "the other enemies without fire resistance get "
                                                               "Armor -1 (at least 1) this combat"),
    "ice_shield": _rider("ice_shield", "the enemy it blocks gets Armor -3 (at least 1) unless ice resistant"),
    "cold_toughness": _rider("cold_toughness", "+1 Ice Block per ability, attack colour and resistance of the "
                                               "blocked enemy"),
    "burning_shield": _rider("burning_shield", "Fire Attack 4 in the Attack phase if the block succeeds"),
    "exploding_shield": _rider("exploding_shield", "the blocked enemy is destroyed if the block succeeds "
                                                   "(unless fire resistant)"),
    "swift_block": Special(lambda a: "this Block counts twice against Swift enemies", lambda *a: False,
                           _swift_block_do),
}


def _resist_all_usable(state, seat, args, ctx):
    """Altem Guardians: "all your Units gain all resistances" for this combat; of use before damage is dealt."""
    c = state.get("combat")
    return bool(c) and c["phase"] in ("ranged", "block", "damage") and not state["turn"].get("units_resist_all")


def _resist_all_do(state, seat, args, choice, events):
    state["turn"]["units_resist_all"] = True
    events.append(Event(f"{hero_name(state, seat)}'s Units gain all resistances this combat.", None, {"seat": seat}))


def _attack_modifier_usable(state, seat, args, ctx):
    """Altem Mages (black mana): "this combat all your attacks become Cold Fire, or all become Siege"."""
    return in_combat(state) and not state["turn"].get("attack_modifier")


def _attack_modifier_do(state, seat, args, choice, events):
    turn = state["turn"]
    turn["attack_modifier"] = choice
    attack = turn["pool"]["attack"]
    held = [(kind, elem, n) for kind in ("melee", "ranged", "siege") for elem, n in attack[kind].items() if n]
    for kind in ("melee", "ranged", "siege"):
        attack[kind] = {}
    live = {k: turn.pop(k) for k in ("bonus", "unit_bonus") if k in turn}  # no bonus for points already counted
    for kind, elem, n in held:  # the attacks already in the pool change too
        add_pool(turn, {"melee": "attack"}.get(kind, kind), n, elem)
    turn.update(live)
    events.append(Event(f"{hero_name(state, seat)}'s attacks become " +
                        ("cold fire" if choice == "cold_fire" else "siege attacks") + " this combat.", None,
                        {"seat": seat}))


OPEN_TERRAIN = ("plains", "desert", "wasteland")  # Song of Wind
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


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


# ---------------------------------------------------------------- skills (skills.csv `special <skill id>`)

def _by_time(day_kind, day_n, night_n, elem="physical"):
    """A skill giving one amount by Day and another at Night (Dark Paths, Bright Negotiation, ...)."""
    def tree(state):
        n = day_n if state["time"] == "day" else night_n
        return ["atom", day_kind, n, elem] if day_kind in COMBAT else ["atom", day_kind, n]

    def ok(state, seat, args, ctx):
        return atom_usable(state, seat, tree(state), ctx)

    def do(state, seat, args, choice, events):
        apply_atom(state, seat, tree(state), events)
    return Special(lambda a: f"{day_kind.title()} {day_n} by Day, {night_n} at Night", ok, do)


def _dark_fire_do(state, seat, args, choice, events):
    mana.crystal_gain(state["seats"][seat], "red", state["turn"])
    state["turn"]["tokens"].append(choice)


def _invocation_choices(state, seat, args):
    out = []
    for c in dict.fromkeys(state["seats"][seat]["hand"]):
        for colour in (("red", "black") if c == WOUND else ("white", "green")):
            out.append((f"{c}>{colour}", f"discard {name(c)} for a {colour} token"))
    return out


def _invocation_do(state, seat, args, choice, events):
    card, colour = choice.split(">")
    s = state["seats"][seat]
    s["hand"].remove(card)
    s["discard"].append(card)
    state["turn"]["tokens"].append(colour)


def _no_pain_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    s["hand"].remove(WOUND)
    s["discard"].append(WOUND)
    draw(state, seat, 1, events)


def _glitter_do(state, seat, args, choice, events):
    add_pool(state["turn"], "influence", sum(1 for v in state["seats"][seat]["crystals"].values() if v > 0))


def _ready_units(state, seat):
    return sum(1 for u in _units(state, seat) if u["ready"] and not u.get("wounded"))


def _forward_march_do(state, seat, args, choice, events):
    add_pool(state["turn"], "move", min(3, _ready_units(state, seat)))


def _inspiration_choices(state, seat, args):
    return ([(f"r{u['uid']}", f"ready {unit_name(u['id'])}") for u in _units(state, seat) if not u["ready"]] +
            [(f"h{u['uid']}", f"heal {unit_name(u['id'])}") for u in _units(state, seat) if u.get("wounded")])


def _inspiration_do(state, seat, args, choice, events):
    for u in _units(state, seat):
        if str(u["uid"]) == choice[1:]:
            if choice[0] == "r":
                u["ready"] = True
            else:
                heal_unit_wound(u)


def _motivation(colour):
    def do(state, seat, args, choice, events):
        draw(state, seat, 2, events)
        fames = [s["fame"] for s in state["seats"]]
        mine = fames[seat]
        if fames.count(mine) == 1 and mine == min(fames) and len(fames) > 1:  # "if you alone have the least Fame"
            state["turn"]["tokens"].append(colour)
    return Special(lambda a: "draw 2 cards", lambda st, se, a, ctx: bool(st["seats"][se]["deck"]), do)


SKILL_SPECIALS = {
    "arythea_dark_paths": _by_time("move", 1, 2),
    "arythea_dark_negotiation": _by_time("influence", 2, 3),
    "tovak_double_time": _by_time("move", 2, 1),
    "tovak_night_sharpshooting": _by_time("ranged", 1, 2),
    "norowas_day_sharpshooting": _by_time("ranged", 2, 1),
    "norowas_bright_negotiation": _by_time("influence", 3, 2),
    "arythea_dark_fire_magic": Special(lambda a: "a red crystal and a red or black token", _yes, _dark_fire_do,
                                       lambda st, se, a: [("red", "red token"), ("black", "black token")]),
    "arythea_invocation": Special(lambda a: "discard a card for a mana token",
                                  lambda st, se, a, ctx: bool(st["seats"][se]["hand"]), _invocation_do,
                                  _invocation_choices),
    "tovak_i_feel_no_pain": Special(lambda a: "discard a Wound and draw a card",
                                    lambda st, se, a, ctx: not in_combat(st) and wounds_in_hand(st["seats"][se]) > 0,
                                    _no_pain_do),
    "goldyx_glittering_fortune": Special(lambda a: "Influence 1 per crystal colour",
                                         lambda st, se, a, ctx: atom_usable(st, se, ["atom", "influence", 1], ctx)
                                         and any(v > 0 for v in st["seats"][se]["crystals"].values()), _glitter_do),
    "norowas_forward_march": Special(lambda a: "Move 1 per ready Unit (max 3)",
                                     lambda st, se, a, ctx: _ready_units(st, se) > 0 and atom_usable(
                                         st, se, ["atom", "move", 1], ctx), _forward_march_do),
    "norowas_inspiration": Special(lambda a: "ready or heal a Unit",
                                   lambda st, se, a, ctx: not in_combat(st) and bool(_inspiration_choices(st, se, a)),
                                   _inspiration_do, _inspiration_choices),
    "arythea_motivation": _motivation("red"),
    "tovak_motivation": _motivation("blue"),
    "goldyx_motivation": _motivation("green"),
    "norowas_motivation": _motivation("white"),
}


def _noble_do(state, seat, args, choice, events):
    """Noble Manners: the Fame (and Reputation) waits for an interaction that uses this Influence (a purchase
    after the card is played: interaction._spend moves it to ``noble_earned``); endturn.finish gives it."""
    state["turn"].setdefault("noble", []).append(list(args))


def noble_label(args) -> str:
    gain = f"Fame +{args[0]}" + (f" and Reputation +{args[1]}" if args[1] else "")
    return f"at the end of the turn {gain}, if this Influence is used in an interaction"


# Meditation / Trance: two cards of the discard pile (random / chosen) go on top or at the bottom of the deed deck,
# then "draw 2 over Hand limit at end of turn" (turn["hand_bonus"], endturn.finish). The cards stay in the discard
# pile, listed in turn["meditation"], until they are placed (card conservation holds at every pick).
MEDITATION_CARDS = 2


def _meditation_usable(state, seat, args, ctx):
    s = state["seats"][seat]
    return bool(s["discard"] or s["deck"])  # something to put back, or to draw with the larger hand limit


def _meditation_left(state, seat):
    left = list(state["seats"][seat]["discard"])
    for c in state["turn"].get("meditation", []):
        left.remove(c)
    return left


def _meditation_do(state, seat, args, choice, events):
    """Meditation: "put 2 random cards from discard pile" (a random draw without replacement)."""
    from ..rng import Rng
    turn = state["turn"]
    pile = list(state["seats"][seat]["discard"])
    rng = Rng(state["rng"])
    picked = []
    for _ in range(min(MEDITATION_CARDS, len(pile))):
        picked.append(pile.pop(rng.below(len(pile))))
    state["rng"] = rng.state
    turn["meditation"] = picked
    if picked:
        events.append(Event("You pick " + " and ".join(name(c) for c in picked) + " at random.", (seat,),
                            {"cards": picked}))
    turn["queue"].insert(0, ["atom", "special", "meditation_place"])


def _trance_choices(state, seat, args):
    return [(c, f"choose {name(c)}") for c in dict.fromkeys(_meditation_left(state, seat))] or None


def _trance_do(state, seat, args, choice, events):
    """Trance: "as basic but you choose the 2 cards" (one pick each)."""
    turn = state["turn"]
    held = turn.setdefault("meditation", [])
    if choice is not None:
        held.append(choice)
    if choice is not None and len(held) < MEDITATION_CARDS and _meditation_left(state, seat):
        turn["queue"].insert(0, ["atom", "special", "trance"])
    else:
        turn["queue"].insert(0, ["atom", "special", "meditation_place"])


def _place_choices(state, seat, args):
    n = len(state["turn"].get("meditation", []))
    if not n:
        return None
    what = "the card" if n == 1 else f"the {n} cards"
    return [("top", f"put {what} on top of your deed deck"), ("bottom", f"put {what} at the bottom of your deed deck")]


def _place_do(state, seat, args, choice, events):
    turn = state["turn"]
    s = state["seats"][seat]
    held = turn.pop("meditation", [])
    for c in held:
        s["discard"].remove(c)
        if choice == "top":
            s["deck"].append(c)  # the deck's top is its end: the last one placed is drawn first
        else:
            s["deck"].insert(0, c)
    if held:
        events.append(Event(f"{hero_name(state, seat)} puts {plural(len(held), 'card')} from the discard pile "
                            f"{'on top of' if choice == 'top' else 'at the bottom of'} the deed deck.", None,
                            {"seat": seat}))
    turn["hand_bonus"] = turn.get("hand_bonus", 0) + 2


# Maximal Effect: "play with another Action card: use its basic effect 3 times (powered: its powered effect twice
# for free), then throw that card away". args = [times, powered]; the card is thrown away as its effect is queued.
def _maximal_tree(card_id, args):
    return CARDS[card_id].powered if args[1] else CARDS[card_id].basic


def _maximal_targets(state, seat, args, ctx):
    hand = _hand_without(state, seat, ctx)
    return [c for c in dict.fromkeys(hand) if CARDS[c].kind in ACTION_KINDS and usable(
        state, seat, _maximal_tree(c, args), dict(ctx, exclude=[x for x in (ctx.get("exclude"), c) if x]))]


def _maximal_choices(state, seat, args):
    n = "3 times" if args[0] == 3 else ("twice" if args[0] == 2 else f"{args[0]} times")
    return [(c, f"throw away {name(c)}: {describe(_maximal_tree(c, args))}, {n}")
            for c in _maximal_targets(state, seat, args, make_ctx(state, seat))]


def _maximal_do(state, seat, args, choice, events):
    throw_away(state, seat, choice)
    events.append(Event(f"{hero_name(state, seat)} throws away {name(choice)} (Maximal Effect).", None,
                        {"seat": seat, "card": choice}))
    state["turn"]["queue"][:0] = [_maximal_tree(choice, args)] * args[0]


def _maximal_label(args):
    times = "3 times" if args[0] == 3 else ("twice" if args[0] == 2 else f"{args[0]} times")
    which = "powered effect" if args[1] else "basic effect"
    return f"use another Action card's {which} {times}{' for free' if args[1] else ''}, then throw that card away"


# Call to Arms: "use the ability of one Unit in the Unit offer this turn as if you had it (cannot assign damage to
# it)": an ability of an offered Unit, its own mana paid as for a Unit of one's own; the Unit stays in the offer.
def _mentions(tree, special):
    if tree[0] == "atom":
        return tree[1] == "special" and tree[2] == special
    return any(_mentions(t, special) for t in tree[1])


def _call_abilities(state, seat, ctx):
    from .turn import _combat, unit_abilities
    if in_combat(state) and not _combat().units_allowed(state):
        return []
    out = []
    for u in dict.fromkeys(state["offers"].get("units", [])):
        if u in CARDS:
            continue  # a monastery's Advanced Action in the offer
        for i, (tree, colour) in enumerate(unit_abilities(u)):
            if tree is None or _mentions(tree, "wound_self") or not usable(state, seat, tree, ctx):
                continue  # an ability that wounds the Unit itself needs a Unit that can take the wound
            srcs = mana.sources_for(state, seat, colour) if colour else [None]
            if srcs:
                out.append((u, i, tree, srcs[0]))
    return out


def _call_choices(state, seat, args):
    return [(f"{u}>{i}", f"{unit_name(u)}: {describe(tree)}" + (f" (paying {mana.label(state, src)})" if src else ""))
            for u, i, tree, src in _call_abilities(state, seat, make_ctx(state, seat))]


def _call_do(state, seat, args, choice, events):
    from .turn import unit_abilities
    u, i = choice.split(">")
    tree, colour = unit_abilities(u)[int(i)]
    if colour:
        mana.pay(state, seat, mana.sources_for(state, seat, colour)[0])
    state["turn"]["unit_uid"] = None  # not a Unit of one's own: nothing of it can be wounded
    events.append(Event(f"{hero_name(state, seat)} calls on the {unit_name(u)} of the Unit offer.", None,
                        {"seat": seat, "unit": u}))
    state["turn"]["queue"].insert(0, tree)


# Magic Talent basic: "Discard a card of any color. You may play one Spell card of the same color in the Spells offer
# this turn as if it were in your hand. That card remains in the Spells offer." turn["talent"] holds the colour;
# turn.py offers the offer's Spells of that colour (t-talent:<spell>) and plays them without taking them.
def talent_castable(state, seat, colour: str) -> list[str]:
    """The offer's Spells of ``colour`` that could be cast now (an effect of use and its mana payable)."""
    from . import mana as _mana
    out = []
    ctx = make_ctx(state, seat)
    for sp in dict.fromkeys(state["offers"].get("spells", [])):
        card = CARDS.get(sp)
        if not card or card.colour != colour:
            continue
        ok = usable(state, seat, card.basic, ctx) and any(
            usable_after_paying(state, seat, card.basic, combo, ctx) for combo in _mana.payments(state, seat, [colour]))
        if not ok and state["time"] == "night" and usable(state, seat, card.powered, ctx):
            ok = any(usable_after_paying(state, seat, card.powered, combo, ctx)
                     for combo in _mana.payments(state, seat, [colour, "black"]))
        if ok:
            out.append(sp)
    return out


def _talent_choices(state, seat, args, ctx=None):
    ctx = ctx or make_ctx(state, seat)
    out = []
    for c in dict.fromkeys(_hand_without(state, seat, ctx)):
        colour = CARDS[c].colour if c in CARDS else ""
        if c == WOUND or not colour:
            continue  # "a card of any color": Wounds and colourless Artifacts have none
        spells = talent_castable(state, seat, colour)
        if spells:
            out.append((c, f"discard {name(c)}: cast {_choice([name(x) for x in spells])} from the Spell offer"))
    return out


def _talent_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    s["hand"].remove(choice)
    s["discard"].append(choice)
    state["turn"]["talent"] = CARDS[choice].colour
    events.append(Event(f"{hero_name(state, seat)} discards {name(choice)} (Magic Talent: a "
                        f"{CARDS[choice].colour} Spell of the offer may be cast this turn).", None, {"seat": seat}))


# Learning: "Once during this turn, you may pay Influence 6 to gain an Advanced Action card from the Advanced Actions
# offer to your discard pile" (powered: Influence 9, to your hand). turn["learning"] = [cost, to_hand]; turn.py
# offers the purchase (t-learn:<card>) while the Influence pool pays for it.
def _learning_do(state, seat, args, choice, events):
    turn = state["turn"]
    if not turn.get("learned"):
        turn["learning"] = list(args)


def learning_label(args) -> str:
    where = "your hand" if args[1] else "your discard pile"
    return f"once this turn you may pay Influence {args[0]} for an Advanced Action from the offer into {where}"


# Banners (artifacts): the basic effect attaches the card to one of one's Units (``unit["banner"]``, a card outside
# hand, deck and discard pile: invariants.py counts it); it stays there across rounds until the Unit is gone (then it
# goes to the discard pile) or its owner discards it at a round's preparation ("you may discard Banners at this
# point", rounds.py). ``unit["banner_used"]``: Banner of Courage's once-a-Round flip, back at the round's start.
BANNERS = ("banner_of_glory", "banner_of_protection", "banner_of_courage", "banner_of_fear")


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
    from . import units
    armor = units.unit(u["id"]).armor
    if banner_of(u) in ("banner_of_glory", "banner_of_protection"):
        armor += 1
    if ((state.get("turn") or {}).get("glory_all")):
        armor += 1
    return armor


def unit_resistances(state, seat: int, u: dict) -> frozenset:
    """A Unit's resistances; Banner of Protection adds fire and ice ("+1 Armor, fire and ice resistance")."""
    from . import units
    res = units.unit(u["id"]).resistances
    if banner_of(u) == "banner_of_protection":
        res = res | {"fire", "ice"}
    return res


BANNER_TEXT = {
    "glory": "it gets +1 Armor and +1 to its attacks and blocks, and Fame +1 whenever it attacks or blocks",
    "protection": "it gets +1 Armor and fire and ice resistance",
    "courage": "once a Round, outside combat, you may flip the Banner to ready that Unit",
    "fear": "in the Block phase you may spend that Unit to cancel one enemy attack, Fame +1",
}


def _attach_choices(state, seat, args):
    out = []
    for u in _units(state, seat):
        old = banner_of(u)
        out.append((str(u["uid"]), f"attach it to {unit_name(u['id'])}" +
                    (f" ({name(old)} goes to the discard pile)" if old else "")))
    return out


def _attach_do(state, seat, args, choice, events):
    turn = state["turn"]
    s = state["seats"][seat]
    card = turn["played"][-1][0]  # the Banner whose basic effect this is (turn.play_card listed it)
    u = next(x for x in _units(state, seat) if str(x["uid"]) == choice)
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
    return [u for u in _units(state, seat) if banner_of(u) == "banner_of_courage" and not u.get("banner_used")
            and not u["ready"]]


def use_courage(state, seat, uid: int, events) -> None:
    u = next(x for x in _units(state, seat) if x["uid"] == uid)
    u["banner_used"] = True
    u["ready"] = True
    events.append(Event(f"{hero_name(state, seat)} flips Banner of Courage: {unit_name(u['id'])} is ready.", None,
                        {"seat": seat, "unit": u["id"]}))


def glory_bonus(state, seat, u: dict) -> int:
    """Banner of Glory: "+1 to its attacks and blocks" (attached) / "+1 attack/block" for all Units this turn."""
    return (1 if banner_of(u) == "banner_of_glory" else 0) + (1 if (state["turn"] or {}).get("glory_all") else 0)


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


def _glory_all_do(state, seat, args, choice, events):
    state["turn"]["glory_all"] = True


def _protection_do(state, seat, args, choice, events):
    state["turn"]["protection"] = True


def _protection_usable(state, seat, args, ctx):
    """Of use once a Wound was received this turn or while a combat may still deal some."""
    turn = state["turn"]
    return not turn.get("protection") and (turn.get("wounds_received", 0) > 0 or in_combat(state))


# Mind Read / Mind Steal: "choose a colour, gain a crystal of it; each other player discards a Spell/Action of that
# colour or shows they have none"; powered: "you may keep one discarded Action card (not a Spell) in your hand".
# state["mind_read"] walks the other seats in seat order; a seat with two or more different such cards picks one
# (engine.py's decision "mind_read", state["effect"]), the others are settled at once. The Dummy has no hand.
MIND_COLOURS = ("red", "blue", "green", "white")


def _mind_candidates(state, seat: int, colour: str) -> list[str]:
    return [c for c in dict.fromkeys(state["seats"][seat]["hand"])
            if c in CARDS and CARDS[c].kind in ("basic", "advanced", "spell") and CARDS[c].colour == colour]


def _mind_read_choices(state, seat, args):
    others = "each other player" if state["players"] > 1 else ""
    return [(c, f"a {c} crystal" + (f"; {others} discards a {c} Spell or Action card or shows none" if others else ""))
            for c in MIND_COLOURS]


def _mind_read_do(state, seat, args, choice, events):
    mana.crystal_gain(state["seats"][seat], choice, state["turn"])
    events.append(Event(f"{hero_name(state, seat)} reads minds: {choice}.", None, {"seat": seat, "colour": choice}))
    others = [(seat + k) % state["players"] for k in range(1, state["players"])]
    state["mind_read"] = {"caster": seat, "colour": choice, "steal": bool(args[0]), "queue": others,
                          "discarded": []}
    mind_read_next(state, events)


def mind_read_options(state, seat: int) -> list[tuple[str, str]]:
    mr = state["mind_read"]
    return [(f"discard:{c}", f"discard {name(c)} (Mind Read)") for c in _mind_candidates(state, seat, mr["colour"])]


def mind_read_discard(state, seat: int, card: str, events: list) -> None:
    s = state["seats"][seat]
    s["hand"].remove(card)
    s["discard"].append(card)
    state["mind_read"]["discarded"].append([seat, card])
    events.append(Event(f"Seat {seat + 1} discards {name(card)} (Mind Read).", None, {"seat": seat, "card": card}))


def mind_read_next(state, events: list) -> None:
    """Settle the next seats of a Mind Read; stop at a seat that must choose (state["effect"])."""
    mr = state["mind_read"]
    state["effect"] = None
    while mr["queue"]:
        other = mr["queue"].pop(0)
        found = _mind_candidates(state, other, mr["colour"])
        if len(found) > 1:
            state["effect"] = {"seat": other, "kind": "mind_read"}
            return
        if found:
            mind_read_discard(state, other, found[0], events)
        else:  # "or reveal their hand to show that they have none"
            hand = state["seats"][other]["hand"]
            shown = ", ".join(name(c) for c in hand) or "no cards"
            events.append(Event(f"Seat {other + 1} has no {mr['colour']} Spell or Action card and shows their hand: "
                                f"{shown}.", None, {"seat": other, "revealed": list(hand)}))
    caster = mr["caster"]
    state.pop("mind_read")
    stealable = [[o, c] for o, c in mr["discarded"] if CARDS[c].kind in ACTION_KINDS]
    if mr["steal"] and stealable and state.get("turn") is not None:
        state["turn"]["steal"] = stealable
        state["turn"]["queue"].insert(0, ["atom", "special", "mind_steal"])
        run(state, caster, events)


def _steal_choices(state, seat, args):
    return [("none", "steal nothing")] + [(f"{o}>{c}", f"steal {name(c)} from Seat {o + 1} into your hand")
                                         for o, c in state["turn"].get("steal", [])]


def _steal_do(state, seat, args, choice, events):
    state["turn"].pop("steal", None)
    if choice == "none":
        return
    other, card = choice.split(">")
    o = state["seats"][int(other)]
    o["discard"].remove(card)
    o.setdefault("stolen_out", []).append(card)  # invariants.py: a basic card that changed hands
    me = state["seats"][seat]
    me["hand"].append(card)
    me.setdefault("stolen_in", []).append(card)
    events.append(Event(f"{hero_name(state, seat)} steals {name(card)} from Seat {int(other) + 1} (Mind Steal).", None,
                        {"seat": seat, "card": card}))


# Mana Meltdown: "each other player loses a random crystal (or takes a Wound if they have none); you may gain one lost
# crystal"; Mana Radiance: "choose a basic colour; every player incl. you takes a Wound per crystal of that colour; you
# gain 2 crystals of it". The Dummy Player is no player here (the rules count players "excluding the dummy").
def _other_seats(state, seat) -> list[int]:
    n = len(state["seats"])
    return [(seat + k) % n for k in range(1, n)]


def _wounds_from_supply(state, seat, n, events) -> int:
    """Up to n Wounds from the supply into the seat's hand (none once it is empty)."""
    k = max(0, min(n, state["decks"].get("wounds", 0)))
    if k:
        take_wounds(state, seat, k, events)
    return k


def _meltdown_usable(state, seat, args, ctx):
    """Of use when some other player has a crystal to lose or a Wound is left in the supply for them."""
    others = _other_seats(state, seat)
    return bool(others) and (state["decks"].get("wounds", 0) > 0
                             or any(sum(state["seats"][o]["crystals"].values()) for o in others))


def _meltdown_do(state, seat, args, choice, events):
    from ..rng import Rng
    lost = []
    for o in _other_seats(state, seat):
        cr = state["seats"][o]["crystals"]
        held = [c for c in mana.BASIC for _ in range(cr[c])]
        if held:  # "a random crystal": each crystal held alike, drawn with the state's rng
            rng = Rng(state["rng"])
            colour = held[rng.below(len(held))]
            state["rng"] = rng.state
            cr[colour] -= 1
            lost.append(colour)
            events.append(Event(f"Seat {o + 1} loses a {colour} crystal (Mana Meltdown).", None,
                                {"seat": o, "lost_crystal": colour}))
        elif state["decks"].get("wounds", 0) > 0:
            events.append(Event(f"Seat {o + 1} has no crystal and takes a Wound (Mana Meltdown).", None,
                                {"seat": o, "meltdown_wound": 1}))
            _wounds_from_supply(state, o, 1, events)
        else:
            events.append(Event(f"Seat {o + 1} has no crystal and no Wound is left in the supply (Mana Meltdown).",
                                None, {"seat": o}))
    if lost:
        state["turn"]["meltdown_lost"] = lost
        state["turn"]["queue"].insert(0, ["atom", "special", "meltdown_gain"])


def _meltdown_gain_choices(state, seat, args):
    """"You may gain one lost crystal": "none" first (the default), then each colour lost."""
    cr = state["seats"][seat]["crystals"]
    return [("none", "gain none of the lost crystals")] + [
        (c, f"gain a lost {c} crystal" + (" (you hold 3: a token instead)" if cr[c] >= mana.CRYSTAL_MAX else ""))
        for c in dict.fromkeys(state["turn"].get("meltdown_lost", []))]


def _meltdown_gain_do(state, seat, args, choice, events):
    state["turn"].pop("meltdown_lost", None)
    if choice in mana.BASIC:
        mana.crystal_gain(state["seats"][seat], choice, state["turn"])
        events.append(Event(f"{hero_name(state, seat)} gains a lost {choice} crystal (Mana Meltdown).", None,
                            {"seat": seat, "crystal": choice}))


def _radiance_choices(state, seat, args):
    """A basic colour, the one the caster holds fewest crystals of first (the default: the fewest own Wounds)."""
    cr = state["seats"][seat]["crystals"]
    others = _other_seats(state, seat)
    out = []
    for c in sorted(mana.BASIC, key=lambda c: cr[c]):
        theirs = ", ".join(f"Seat {o + 1} {state['seats'][o]['crystals'][c]}" for o in others)
        out.append((c, f"{c}: Wounds for you {cr[c]}" + (f", {theirs}" if theirs else "") + f"; gain 2 {c} crystals"))
    return out


def _radiance_do(state, seat, args, choice, events):
    """Every player, the caster first then the others in seat order, takes a Wound per crystal of the colour (as far
    as the supply lasts; the crystals stay); then the caster gains 2 crystals of it (the cap keeps extras as tokens)."""
    events.append(Event(f"{hero_name(state, seat)} casts Mana Radiance: {choice}.", None,
                        {"seat": seat, "colour": choice}))
    for o in [seat] + _other_seats(state, seat):
        n = state["seats"][o]["crystals"][choice]
        if n:
            k = _wounds_from_supply(state, o, n, events)
            if k < n:
                events.append(Event(f"The Wound supply is empty: Seat {o + 1} takes {k} of {n} (Mana Radiance).",
                                    None, {"seat": o, "wording": f"The Wound supply is empty: {{seat}} takes {k} "
                                                                 f"of {n} (Mana Radiance)."}))
    for _ in range(2):
        mana.crystal_gain(state["seats"][seat], choice, state["turn"])


def _token_crystal_choices(state, seat, args):
    """Blood Ritual powered (MKD: an optional mana-to-crystal conversion): one of the ``args[0]`` tokens just gained,
    of a basic colour whose crystals are not at the cap."""
    gained = state["turn"]["tokens"][-args[0]:]
    cr = state["seats"][seat]["crystals"]
    colours = [c for c in dict.fromkeys(gained) if c in mana.BASIC and cr[c] < mana.CRYSTAL_MAX]
    if not colours:
        return []
    return [("keep", "keep the tokens")] + [(c, f"turn the {c} token into a {c} crystal") for c in colours]


def _token_crystal_do(state, seat, args, choice, events):
    if choice in mana.BASIC:
        tokens = state["turn"]["tokens"]
        del tokens[len(tokens) - 1 - tokens[::-1].index(choice)]
        mana.crystal_gain(state["seats"][seat], choice, state["turn"])


def _influence_ok(state, seat, args, ctx):
    return not in_combat(state)


# ---------------------------------------------------------------- combat cards (second batch)

def _combat_mod():
    from .turn import _combat
    return _combat()


def _fighting_units(state, seat):
    """Own Units that could still attack or block this combat (ready, unwounded, units allowed here)."""
    if not in_combat(state) or not _combat_mod().units_allowed(state):
        return []
    from .turn import unit_abilities
    out = []
    for u in _units(state, seat):
        if u["ready"] and not u.get("wounded") and any(
                tree is not None and _has_combat_atom(tree) for tree, _ in unit_abilities(u["id"])):
            out.append(u)
    return out


def _has_combat_atom(tree) -> bool:
    if tree[0] == "atom":
        return tree[1] in COMBAT
    return any(_has_combat_atom(t) for t in tree[1])


# Into the Heat: "at start of combat: all your Units get +2 Attack and +2 Block this combat; no damage may be assigned
# to Units this turn" (powered +3). turn["heat"] (this combat; combat.py clears it) is added to every Attack/Block atom
# of an own Unit's ability (turn.use_unit); turn["no_unit_damage"] (this turn) keeps damage off the Units.
def _heat_usable(state, seat, args, ctx):
    c = state.get("combat")
    return bool(c) and c["phase"] == "ranged" and not state["turn"].get("heat") and bool(_fighting_units(state, seat))


def _heat_do(state, seat, args, choice, events):
    turn = state["turn"]
    turn["heat"] = args[0]
    turn["no_unit_damage"] = True
    events.append(Event(f"{hero_name(state, seat)}'s Units get +{args[0]} to their attacks and blocks this combat; "
                        f"no damage may be assigned to Units this turn (Into the Heat).", None, {"seat": seat}))


# Agility: "Move 2; in combat this turn leftover Move may be spent as Attack 1:1" (powered: "Move 4; ... as Attack 1:1
# or as Ranged Attack 2:1"). turn["agility"] = 1 (Attack) or 2 (also Ranged); turn.py offers the conversions
# (t-agility:melee|ranged:1|all) and, while a conversion is open, Move cards are of use in combat.
AGILITY_RATE = {"melee": 1, "ranged": 2}


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


def _agility_usable(state, seat, args, ctx):
    if not in_combat(state):
        return not state["turn"].get("acted")
    allowed = ctx["allowed"]
    return "melee" in allowed or (bool(args[1]) and "ranged" in allowed)


def _agility_do(state, seat, args, choice, events):
    turn = state["turn"]
    add_pool(turn, "move", args[0])
    turn["agility"] = max(turn.get("agility", 0), 2 if args[1] else 1)


def agility_convert(state, seat, kind: str, how: str, events) -> None:
    turn = state["turn"]
    rate = AGILITY_RATE[kind]
    n = 1 if how == "1" else turn["pool"]["move"] // rate
    turn["pool"]["move"] -= n * rate
    add_pool(turn, "attack" if kind == "melee" else "ranged", n)
    events.append(Event(f"{hero_name(state, seat)} spends {n * rate} Move for "
                        f"{'Attack' if kind == 'melee' else 'Ranged Attack'} {n} (Agility).", None, {"seat": seat}))


# Diplomacy: "Influence 2; Influence may be used as Block this turn" (powered: "Influence 4; choose Ice or Fire:
# Influence may be used as Block of that element this turn"). turn["diplomacy"] = the Block's element; turn.py offers
# t-diplomacy:1|all in the block phase, and Influence cards are of use then.
def diplomacy_open(state) -> bool:
    turn = state.get("turn") or {}
    return bool(turn.get("diplomacy")) and "block" in combat_allowed(state)


def _diplomacy_usable(state, seat, args, ctx):
    if not in_combat(state):
        turn = state["turn"]
        return not turn.get("acted") or turn.get("action") == "interact"
    return "block" in ctx["allowed"]


def _diplomacy_choices(state, seat, args):
    if not args[1]:
        return None
    order = ["ice", "fire"]
    c = state.get("combat")
    if c:  # the element that blocks more of the attacks still coming first: Ice against fire, Fire against ice
        from . import enemies as enemy_data
        attacks = [enemy_data.enemy(e["id"]).element for e in c["enemies"]
                   if not e["defeated"] and not e["gone"] and not e["blocked"] and not e.get("skip")]
        if attacks.count("ice") > attacks.count("fire"):
            order.reverse()
    return [(e, f"Influence may be spent as {e.title()} Block this turn") for e in order]


def _diplomacy_do(state, seat, args, choice, events):
    turn = state["turn"]
    add_pool(turn, "influence", args[0])
    if choice or not turn.get("diplomacy"):
        turn["diplomacy"] = choice or "physical"


def diplomacy_convert(state, seat, how: str, events) -> None:
    turn = state["turn"]
    n = 1 if how == "1" else turn["pool"]["influence"]
    elem = turn["diplomacy"]
    turn["pool"]["influence"] -= n
    add_pool(turn, "block", n, elem)
    events.append(Event(f"{hero_name(state, seat)} spends Influence {n} as Block {n}"
                        f"{'' if elem == 'physical' else ' (' + elem + ')'} (Diplomacy).", None, {"seat": seat}))


# Flame Wall powered (Flame Wave): "Fire Attack 5 or Fire Block 7, +2 per enemy token faced": the tokens of the combat
# still in play (summoned ones included while they stand).
def enemies_faced(state) -> int:
    c = state.get("combat")
    return sum(1 for e in c["enemies"] if not e["defeated"] and not e["gone"]) if c else 0


def _wave_choices(state, seat, args):
    allowed = combat_allowed(state)
    bonus = args[2] * enemies_faced(state)
    out = []
    if "melee" in allowed:
        out.append(("attack", f"Attack {args[0] + bonus} (fire)"))
    if "block" in allowed:
        out.append(("block", f"Block {args[1] + bonus} (fire)"))
    return out


def _wave_do(state, seat, args, choice, events):
    bonus = args[2] * enemies_faced(state)
    add_pool(state["turn"], choice, (args[0] if choice == "attack" else args[1]) + bonus, "fire")


# Sword of Justice: basic "discard any number of cards: Attack 3 each; Fame +1 per enemy defeated this turn"; powered
# "physical attacks in your Attack phase count double; enemies lose physical resistance this turn; Fame +1 per enemy
# defeated". The cards are those of a colour (MKD attacks_by_color: not Wounds, not colourless Artifacts), one pick
# each, "done" first (the safe default). The Fame: +1 for each enemy already defeated this turn, then at each defeat
# (combat._defeat reads turn["sword_fame"]).
def _sword_fame(state, seat, events):
    turn = state["turn"]
    if turn.get("sword_fame"):
        return
    turn["sword_fame"] = True
    n = turn.get("defeats", 0)
    if n:
        state["seats"][seat]["fame"] += n
        events.append(Event(f"{hero_name(state, seat)} gains {n} Fame (Sword of Justice).", None,
                            {"seat": seat, "fame": n}))


def _sword_do(state, seat, args, choice, events):
    _sword_fame(state, seat, events)
    state["turn"]["queue"].insert(0, ["atom", "special", "sword_discard", args[0]])


def _sword_discard_choices(state, seat, args):
    return [("done", "discard no more cards")] + [
        (c, f"discard {name(c)}: Attack {args[0]}") for c in dict.fromkeys(state["seats"][seat]["hand"])
        if c in CARDS and CARDS[c].colour]


def _sword_discard_do(state, seat, args, choice, events):
    if choice in (None, "done"):
        return
    s = state["seats"][seat]
    s["hand"].remove(choice)
    s["discard"].append(choice)
    events.append(Event(f"{hero_name(state, seat)} discards {name(choice)} (Sword of Justice).", None, {"seat": seat}))
    add_pool(state["turn"], "attack", args[0])
    state["turn"]["queue"].insert(0, ["atom", "special", "sword_discard", args[0]])


def _sword_powered_usable(state, seat, args, ctx):
    c = state.get("combat")
    return bool(c) and c["phase"] in ("ranged", "block", "attack") and not state["turn"].get("sword_double")


def _sword_powered_do(state, seat, args, choice, events):
    state["turn"]["sword_double"] = True
    events.append(Event(f"{hero_name(state, seat)}'s physical attacks count double in the Attack phase this turn "
                        f"(Sword of Justice).", None, {"seat": seat}))
    _combat_mod().affect_all_enemies(state, "sword_physical", events)
    _sword_fame(state, seat, events)


# Horn of Wrath powered: "Siege Attack 5, add up to +5; roll a die per +1, take a Wound per black or red".
def _horn_choices(state, seat, args):
    return [("0", "no more (no dice rolled)")] + [
        (str(k), f"Siege Attack +{k}, rolling {plural(k, 'mana die', 'mana dice')}: a wound for each red or black")
        for k in range(1, args[0] + 1)]


def _horn_do(state, seat, args, choice, events):
    k = int(choice or 0)
    if k:
        add_pool(state["turn"], "siege", k)
        _risk_wound(state, seat, [k], None, events)


# Golden Grail: basic "Heal 2; Fame +1 per healing point of this card used this turn" (on a Wound in hand at once; the
# points left over in the Heal pool give their Fame when they heal a Unit, counted before other points:
# turn["grail_points"], turn.heal_unit); powered "Heal 6; draw a card each time you heal a Wound from hand this turn"
# (turn["grail_draw"], cards.heal).
def _grail_usable(state, seat, args, ctx):
    return atom_usable(state, seat, ["atom", "heal", args[0]], ctx)


def _grail_do(state, seat, args, choice, events):
    turn = state["turn"]
    s = state["seats"][seat]
    if args[1]:
        turn["grail_draw"] = True
    before = wounds_in_hand(s)
    heal(state, seat, args[0], events)
    if not args[1]:
        healed = before - wounds_in_hand(s)
        turn["grail_points"] = turn.get("grail_points", 0) + args[0] - healed
        grail_fame(state, seat, healed, events)


def grail_fame(state, seat, n, events) -> None:
    if n:
        state["seats"][seat]["fame"] += n
        events.append(Event(f"{hero_name(state, seat)} gains {n} Fame (Golden Grail).", None, {"seat": seat, "fame": n}))


def grail_unit_heal(state, seat, cost, events) -> None:
    """A Unit healed from the Heal pool: the Grail's points are spent first, Fame +1 each."""
    turn = state["turn"]
    n = min(turn.get("grail_points", 0), cost)
    if n:
        turn["grail_points"] -= n
        grail_fame(state, seat, n, events)


# Banner of Fear: attached, "in the Block phase spend the Unit to cancel one enemy attack, Fame +1" (t-fear:<uid>,
# turn.py); thrown away, "up to 3 enemies do not attack this combat" (one pick per enemy, "no more" after the first).
def fear_units(state, seat) -> list[dict]:
    c = state.get("combat")
    if not c or c["phase"] != "block" or c["seat"] != seat or not _combat_mod().units_allowed(state):
        return []
    if not _combat_mod().enemy_targets(state, "fear_banner"):
        return []
    return [u for u in _units(state, seat) if banner_of(u) == "banner_of_fear" and u["ready"] and not u.get("wounded")]


def use_fear(state, seat, uid: int, events) -> None:
    u = next(x for x in _units(state, seat) if x["uid"] == uid)
    u["ready"] = False
    state["seats"][seat]["fame"] += 1
    events.append(Event(f"{hero_name(state, seat)} spends {unit_name(u['id'])} under Banner of Fear to cancel an "
                        f"enemy attack: Fame +1.", None, {"seat": seat, "unit": u["id"], "fame": 1}))
    state["turn"]["from_card"] = False
    start(state, seat, ["atom", "special", "fear_banner"], events)


def _fear_all_choices(state, seat, args):
    return [(str(i), lab) for i, lab in _combat_mod().enemy_targets(state, "fear")]


def _fear_all_do(state, seat, args, choice, events):
    _combat_mod().target_enemy(state, "fear", int(choice), events)
    if args[0] > 1 and state.get("combat") and _fear_all_choices(state, seat, args):
        state["turn"]["queue"].insert(0, ["atom", "special", "fear_more", args[0] - 1])


def _fear_more_choices(state, seat, args):
    return _fear_all_choices(state, seat, args) + [("done", "no more")]


def _fear_more_do(state, seat, args, choice, events):
    if choice not in (None, "done"):
        _fear_all_do(state, seat, args, choice, events)


def turn_effects(turn: dict | None) -> list[str]:
    """The effects of played cards lasting the turn or the combat, for the view (played cards are public)."""
    if not turn:
        return []
    out = []
    if turn.get("heat"):
        out.append(f"Into the Heat: Units +{turn['heat']} to their attacks and blocks this combat")
    if turn.get("no_unit_damage"):
        out.append("Into the Heat: no damage may be assigned to Units this turn")
    if turn.get("agility"):
        out.append("Agility: Move may be spent as Attack 1:1" + (" or as Ranged Attack 2:1" if turn["agility"] > 1
                                                                   else "") + " in combat this turn")
    if turn.get("diplomacy"):
        elem = turn["diplomacy"]
        out.append("Diplomacy: Influence may be spent as " + ("" if elem == "physical" else elem.title() + " ")
                   + "Block this turn")
    if turn.get("sword_double"):
        out.append("Sword of Justice: physical attacks count double in the Attack phase; enemies lose physical "
                   "resistance")
    if turn.get("sword_fame"):
        out.append("Sword of Justice: Fame +1 per enemy defeated this turn")
    if turn.get("grail_points"):
        out.append(f"Golden Grail: Fame +1 for each of its {turn['grail_points']} healing points still used")
    if turn.get("grail_draw"):
        out.append("Golden Grail: draw a card for each Wound healed from the hand this turn")
    return out


# ---------------------------------------------------------------- moving by card: Space Bending, Underground Travel,
# Wings of Wind (turn.py moves the hero: turn.jump); Time Bending (endturn.py); Wings of Night (combat's skip)

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
    from . import hexmap
    from . import sites as site_facts
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
    from . import hexmap
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
    from .turn import jump
    jump(state, seat, choice, events, "Underground Attack" if args[0] else "Underground Travel",
         assault=bool(args[0]))


def _flight_choices(state, seat, args):
    t = flight_targets(state, seat)
    return [(k, f"fly to {k} (spend Move {t[k]})") for k in _near_first(t)]


def _flight_do(state, seat, args, choice, events):
    from .turn import jump
    cost = flight_targets(state, seat)[choice]
    state["turn"]["pool"]["move"] -= cost
    jump(state, seat, choice, events, "Wings of Wind")


def wings_targets(state) -> list[tuple[int, str]]:
    from .turn import _combat
    return _combat().enemy_targets(state, "whirlwind")  # the plain "does not attack this combat" modifier


def wings_cost(state) -> int | None:
    """Wings of Night: the Move points the next extra enemy costs (1, 2, 3...), or None if it is not open."""
    n = (state.get("turn") or {}).get("wings_night")
    return n if n and in_combat(state) and wings_targets(state) else None


def _wings_night_usable(state, seat, args, ctx):
    return in_combat(state) and not state["turn"].get("wings_night") and bool(wings_targets(state))


def _wings_night_choices(state, seat, args):
    return [(str(i), f"{lab} does not attack") for i, lab in wings_targets(state)]


def wings_night_target(state, seat, index: int, events) -> None:
    from .turn import _combat
    _combat().target_enemy(state, "whirlwind", index, events)


def _wings_night_do(state, seat, args, choice, events):
    wings_night_target(state, seat, int(choice), events)
    state["turn"]["wings_night"] = 1  # the next enemy costs 1 Move, then 2, 3...


SPECIALS: dict[str, Special] = {
    "discard_card": Special(lambda a: "discard a card", _discard_usable, _discard_do,
                            lambda st, se, a: [(c, f"discard {name(c)}") for c in _discardables(st, se)], cost=True),
    "crystallize": Special(lambda a: "pay a mana of a basic colour and gain a crystal of that colour",
                           lambda st, se, a, ctx: bool(_spendable(st, se)), _crystallize_do,
                           lambda st, se, a: [(f"{s}>{c}", f"{mana.label(st, s)} into a {c} crystal")
                                              for s, c in _spendable(st, se)], pays=True),
    "extra_die": Special(lambda a: "use one more Source die this turn", _yes, _extra_die),
    "mana_draw": Special(lambda a: f"set a Source die to a colour and gain {a[0]} mana tokens of it",
                         lambda st, se, a, ctx: bool(_free_dice(st)), _mana_draw_do,
                         lambda st, se, a: [(c, f"{c} ({plural(a[0], 'token')})") for c in mana.BASIC]),
    "concentration": Special(lambda a: f"the next Action card you play powered needs no mana, and +{a[0]} on one "
                                       f"Move, Influence, Attack or Block it gives",
                             _concentration_usable,
                             _concentration_do),
    "crystal_mastery": Special(lambda a: "gain a crystal of a colour you already have",
                               lambda st, se, a, ctx: bool(_mastery_choices(st, se, a)), _mastery_do,
                               _mastery_choices),
    "crystal_return": Special(lambda a: "the crystals you spend this turn come back at its end", _yes, _crystal_return),
    "pure_magic": Special(lambda a: f"pay a mana: green for Move {a[0]}, white for Influence {a[0]}, blue for Block "
                                   f"{a[0]} or red for Attack {a[0]}",
                          lambda st, se, a, ctx: bool(_spend_choices(st, se, _pure_useful(st, se))), _pure_do,
                          lambda st, se, a: [(i, f"{lab}: {PURE[_split(i)[1]].title()} {a[0]}")
                                             for i, lab in _spend_choices(st, se, _pure_useful(st, se))],
                          pays=True),
    "in_need": Special(lambda a: f"Influence {a[0]}, +{a[1]} per wound in your hand or on your Units",
                       lambda st, se, a, ctx: atom_usable(st, se, ["atom", "influence", a[0]], ctx), _in_need_do),
    "ready_unit": Special(lambda a: f"ready a Unit of level {ROMAN[a[0]]} or lower",
                          lambda st, se, a, ctx: bool(_spent_units(st, se, a[0])),
                          _ready_do, _ready_choices),
    "energy_spend": Special(lambda a: f"you may spend one ready Unit of level {ROMAN[a[0]]} or lower of each other "
                                      f"player" + (" if you readied a Unit" if a[1] else ""),
                            lambda *a: False, _energy_do, _energy_choices),
    "ready_all_units": Special(lambda a: "ready all your Units",
                               lambda st, se, a, ctx: not in_combat(st) and any(not u["ready"] for u in _units(st, se)),
                               _ready_all),
    "heal_unit": Special(lambda a: "heal a Unit",
                         lambda st, se, a, ctx: not in_combat(st) and bool(_heal_unit_choices(st, se, a)),
                         _heal_unit_do, _heal_unit_choices),
    "training": Special(lambda a: "throw away an Action card: take an Advanced Action of its colour from the "
                                  "offer into your discard pile",
                        lambda st, se, a, ctx: bool(_aa_pairs(st, se, "advanced")), _training("discard"),
                        lambda st, se, a: _aa_pairs(st, se, "advanced")),
    "training_hand": Special(lambda a: "throw away an Action card: take an Advanced Action of its colour from the "
                                       "offer into your hand",
                             lambda st, se, a, ctx: bool(_aa_pairs(st, se, "advanced")), _training("hand"),
                             lambda st, se, a: _aa_pairs(st, se, "advanced")),
    "decompose": Special(lambda a: "throw away an Action card: gain 2 crystals of its colour",
                         lambda st, se, a, ctx: bool(_decompose_choices(st, se, a)), _decompose(False),
                         _decompose_choices),
    "decompose_powered": Special(lambda a: "throw away an Action card: gain a crystal of each other basic colour",
                                 lambda st, se, a, ctx: bool(_decompose_choices(st, se, a)), _decompose(True),
                                 _decompose_choices),
    "learn_spell": Special(lambda a: "pay a mana: take a Spell of that colour from the offer",
                           lambda st, se, a, ctx: bool(_learn_spell_choices(st, se, a)), _learn_spell_do,
                           _learn_spell_choices, pays=True),
    "book_spell": Special(lambda a: "throw away an Action card: take a Spell of its colour into your hand and "
                                    "gain a crystal of that colour",
                          lambda st, se, a, ctx: bool(_aa_pairs(st, se, "spells")), _book_spell_do,
                          lambda st, se, a: _aa_pairs(st, se, "spells")),
    "meditation": Special(lambda a: "put 2 random cards of your discard pile on top or at the bottom of your deed "
                                    "deck, and your Hand limit is 2 higher at the end of the turn",
                          _meditation_usable, _meditation_do),
    "trance": Special(lambda a: "put 2 cards of your discard pile (your choice) on top or at the bottom of your "
                                "deed deck, and your Hand limit is 2 higher at the end of the turn",
                      _meditation_usable, _trance_do, _trance_choices),
    "meditation_place": Special(lambda a: "put the cards on top or at the bottom of your deed deck", _yes, _place_do,
                                _place_choices),
    "steady_tempo": Special(lambda a: "at the end of the turn you may put this card " + (
                                "on top of your deed deck" if a[0] else "at the bottom of your deed deck (if it is "
                                                                        "not empty)") + " instead of discarding it",
                            lambda *a: False, lambda *a: None),
    "maximal_effect": Special(_maximal_label, lambda st, se, a, ctx: bool(_maximal_targets(st, se, a, ctx)),
                              _maximal_do, _maximal_choices),
    "call_to_arms": Special(lambda a: "use the ability of a Unit in the Unit offer as if it were yours",
                            lambda st, se, a, ctx: bool(_call_abilities(st, se, ctx)), _call_do, _call_choices,
                            pays=True),
    "magic_talent": Special(lambda a: "discard a card: you may cast one Spell of its colour from the Spell offer this "
                                      "turn (it stays in the offer)",
                            lambda st, se, a, ctx: bool(_talent_choices(st, se, a, ctx)), _talent_do,
                            lambda st, se, a: _talent_choices(st, se, a)),
    "learning": Special(learning_label, lambda *a: False, _learning_do),
    "banner": Special(lambda a: "attach this Banner to one of your Units: " + BANNER_TEXT[a[0]],
                      lambda st, se, a, ctx: bool(_units(st, se)), _attach_do, _attach_choices),
    "glory_all": Special(lambda a: "this turn all your Units get +1 Armor and +1 to their attacks and blocks, and "
                                   "Fame +1 for each Unit that attacks or blocks",
                         lambda st, se, a, ctx: bool(_units(st, se)) and not st["turn"].get("glory_all"),
                         _glory_all_do),
    "protection_all": Special(lambda a: "at the end of the turn you may throw away all Wounds received this turn",
                              _protection_usable, _protection_do),
    "mind_read": Special(lambda a: "choose a colour: gain a crystal of it; each other player discards a Spell or "
                                   "Action card of that colour or shows that they have none" +
                                   ("; you may steal one discarded Action card into your hand" if a[0] else ""),
                         _yes, _mind_read_do, _mind_read_choices),
    "meltdown": Special(lambda a: "each other player loses a random crystal (or takes a Wound if they have none); "
                                  "you may gain one lost crystal", _meltdown_usable, _meltdown_do),
    "meltdown_gain": Special(lambda a: "you may gain one lost crystal", lambda *a: False, _meltdown_gain_do,
                             _meltdown_gain_choices),
    "radiance": Special(lambda a: "choose a basic colour: every player, you too, takes a Wound per crystal of that "
                                  "colour; you gain 2 crystals of it", _yes, _radiance_do, _radiance_choices),
    "mind_steal": Special(lambda a: "you may steal one discarded Action card into your hand", _yes, _steal_do,
                          _steal_choices),
    "noble_manners": Special(noble_label, lambda *a: False, _noble_do),
    "recruit_reputation": Special(lambda a: "Reputation +1 per Unit recruited this turn", _influence_ok,
                                  _recruit_bonus(1, 0)),
    "recruit_glory": Special(lambda a: "Reputation and Fame +1 per Unit recruited this turn", _influence_ok,
                             _recruit_bonus(1, 1)),
    "mana_storm": Special(lambda a: "gain a crystal of a Source die's colour, then reroll that die",
                          lambda st, se, a, ctx: bool(_storm_choices(st, se, a)), _storm_do, _storm_choices),
    "mana_storm_powered": Special(lambda a: "reroll all Source dice; this turn you may use 3 more dice and black and "
                                            "gold dice count as any basic colour", _yes, _storm_powered_do),
    "mana_bolt": Special(lambda a: f"pay a mana: blue for Attack {a[0]} (ice), red for Attack {a[0] - 1} "
                                   f"(cold fire), white for Ranged Attack {a[0] - 2} (ice) or green for Siege "
                                   f"Attack {a[0] - 3} (ice)",
                         lambda st, se, a, ctx: bool(_spend_choices(st, se, _bolt_useful(st, se))), _bolt_do,
                         lambda st, se, a: _bolt_choices(st, se, a), pays=True),
    "mana_claim": Special(lambda a: "take a basic-coloured Source die until the end of the Round: gain 3 mana tokens "
                                    "of its colour now, or 1 now and 1 at the start of each of your turns this Round"
                                    + ("; until then every other player who uses mana of that colour takes a Wound "
                                       "(at most 1 a turn)" if a[0] else ""),
                          lambda st, se, a, ctx: bool(_storm_choices(st, se, a)) and not st["seats"][se].get("claimed"),
                          _claim_do, _claim_choices),
    "restoration": Special(lambda a: "Heal 3 wounds (5 in a forest)",
                           lambda st, se, a, ctx: not in_combat(st) and wounds_in_hand(st["seats"][se]) > 0,
                           _restoration_do),
    "ready_budget": Special(lambda a: f"ready Units of a total level up to {a[0]} ({a[1]} in a forest)",
                            lambda st, se, a, ctx: bool(_budget_choices(st, se, a)), _budget_do, _budget_choices),
    "free_recruit": Special(lambda a: "recruit a Unit from the offer for free",
                            lambda st, se, a, ctx: not in_combat(st) and bool(_free_recruit_choices(st, se, a)),
                            _free_recruit_do, _free_recruit_choices),
    "endless_mana": Special(lambda a: f"unlimited {a[0]} and black mana this turn; Fame +1 for each {a[0]} Spell "
                                      f"cast this turn", lambda st, se, a, ctx: a[0] not in st["turn"].get("ring_fame", ()),
                            _endless_do),
    "gem_pouch": Special(lambda a: "roll a mana die twice: gain a crystal of each colour rolled (gold: of your choice; "
                                   "Fame +1 for black)",
                         _yes, _gem_pouch_do),
    "gem_gold": Special(lambda a: "a crystal of the colour you choose", _yes,
                        lambda st, se, a, ch, ev: mana.crystal_gain(st["seats"][se], ch, st["turn"]), _gem_gold_choices),
    "amulet": Special(lambda a: ("at Night also: this turn forests cost 3, gold mana is usable and fortified sites' "
                                 "defenders and ruins are revealed as by Day") if a[0] == "sun" else
                      "by Day also: this turn deserts cost 3 and black mana is usable as at Night",
                      lambda *a: False, _amulet_do),
    "day_night_token": Special(lambda a: "gain a gold mana token by day or a black one at night", _yes,
                               _day_night_token),
    "wound_self": Special(lambda a: "the Unit is wounded", lambda *a: False, _wound_self),
    "freeze_enemy": Special(lambda a: "one enemy without ice resistance does not attack this combat and gets "
                                      "Armor -3 (at least 1)", _target_usable("freeze_enemy"),
                            _target_do("freeze_enemy"), _target_choices("freeze_enemy")),
    "illusion": Special(lambda a: "one unfortified enemy does not attack this combat", _target_usable("illusion"),
                        _target_do("illusion"), _target_choices("illusion")),
    "all_resistances": Special(lambda a: "all your Units gain all resistances this combat", _resist_all_usable,
                               _resist_all_do),
    "cold_fire_or_siege": Special(lambda a: "all your attacks become cold fire, or all become siege attacks, this "
                                            "combat", _attack_modifier_usable, _attack_modifier_do,
                                  lambda st, se, a: [("cold_fire", "all attacks become cold fire"),
                                                     ("siege", "all attacks become siege attacks")]),
    "ready_unit_level_2": Special(lambda a: "ready a level I-II Unit",
                                  lambda st, se, a, ctx: bool(_spent_units(st, se, 2)),
                                  lambda st, se, a, ch, ev: _ready_do(st, se, [2], ch, ev),
                                  lambda st, se, a: _ready_choices(st, se, [2])),
    "forest_path": Special(lambda a: "forests cost less this turn (not applied)", lambda *a: False,
                           lambda *a: None),
    "terrain_set": Special(lambda a: f"{_terrain_word(a[0])} cost {a[1]} this turn",
                           lambda *a: False, _terrain_set),
    "terrain_minus": Special(lambda a: f"{_terrain_word(a[0])} cost {a[1]} less "
                                       f"(at least {a[2]}) this turn", lambda *a: False, _terrain_minus),
    "ambush": Special(lambda a: f"the first Attack card played this turn gets +{a[0]}, or the first Block card +{a[1]}",
                      lambda *a: False,
                      _ambush),
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
    "token_to_crystal": Special(lambda a: f"you may turn one of these {a[0]} tokens of a basic colour into a crystal",
                                lambda *a: False, _token_crystal_do, _token_crystal_choices),
    "risk_wound": Special(lambda a: f"roll {plural(a[0], 'mana die', 'mana dice')}: take a wound for each red or black",
                          lambda *a: False, _risk_wound),
    "into_the_heat": Special(lambda a: f"all your Units get +{a[0]} to their attacks and blocks this combat; no damage "
                                       f"may be assigned to Units this turn (play at the start of combat)",
                             _heat_usable, _heat_do),
    "agility": Special(lambda a: f"Move {a[0]}; in combat this turn you may spend Move as Attack 1 per point" +
                                 (" or 2 Move per Ranged Attack 1" if a[1] else ""), _agility_usable, _agility_do),
    "diplomacy": Special(lambda a: f"Influence {a[0]}; this turn you may spend Influence as " +
                                   ("Ice or Fire Block (choose one)" if a[1] else "Block"),
                         _diplomacy_usable, _diplomacy_do, _diplomacy_choices),
    "flame_wave": Special(lambda a: f"Attack {a[0]} (fire) or Block {a[1]} (fire), +{a[2]} per enemy token faced",
                          lambda st, se, a, ctx: bool(_wave_choices(st, se, a)), _wave_do, _wave_choices),
    "sword_justice": Special(lambda a: f"discard any number of cards of a colour: Attack {a[0]} each; Fame +1 per "
                                       f"enemy defeated this turn",
                             lambda st, se, a, ctx: "melee" in ctx["allowed"], _sword_do),
    "sword_discard": Special(lambda a: f"discard a card of a colour: Attack {a[0]}", lambda *a: False,
                             _sword_discard_do, _sword_discard_choices),
    "sword_powered": Special(lambda a: "your physical attacks count double in the Attack phase this turn, all enemies "
                                       "lose physical resistance, and Fame +1 per enemy defeated this turn",
                             _sword_powered_usable, _sword_powered_do),
    "horn": Special(lambda a: f"add up to Siege Attack +{a[0]}: roll a mana die per +1, take a wound for each red "
                              f"or black", lambda *a: False, _horn_do, _horn_choices),
    "grail": Special(lambda a: f"Heal {plural(a[0], 'wound')}; " + (
                         "draw a card for each Wound you heal from your hand this turn" if a[1] else
                         "Fame +1 for each of these healing points used this turn"), _grail_usable, _grail_do),
    "fear_all": Special(lambda a: f"up to {a[0]} enemies do not attack this combat",
                        lambda st, se, a, ctx: in_combat(st) and bool(_fear_all_choices(st, se, a)),
                        _fear_all_do, _fear_all_choices),
    "fear_more": Special(lambda a: "one more enemy does not attack this combat", lambda *a: False, _fear_more_do,
                         _fear_more_choices),
    "fear_banner": _target_special("fear_banner", "one enemy attack is cancelled"),
}

SPECIALS.update(SKILL_SPECIALS)
SPECIALS.update(ENEMY_SPECIALS)

CARDS: dict[str, Card] = load()
