"""The effect vocabulary in words: parse an effect string into a tree (README, "Effect vocabulary"), describe a
tree in English, a card's rules text.
"""

from __future__ import annotations

import re

from ..wording import plural  # "1 wound", "2 wounds": one pluraliser, so every engine words a count alike
from .colours import ALL, BASIC
from .specials_registry import SPECIALS


ELEMENTS = ("physical", "fire", "ice", "cold_fire")
ANY_COLOURS = ALL
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
        if kind == "crystal" and len(rest) == 1 and rest[0] in BASIC:
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


def is_cost(tree: list) -> bool:
    """A cost atom ("discard a card"): a card whose cost cannot be paid cannot be played."""
    return tree[0] == "atom" and tree[1] == "special" and SPECIALS[tree[2]].cost


def _same_gain(branches: list) -> str:
    """"gain a red, blue, green or white crystal" for a choice among mana tokens or among crystals only."""
    kinds = {b[1] for b in branches if b[0] == "atom"}
    if len(branches) < 2 or any(b[0] != "atom" for b in branches) or len(kinds) != 1 or kinds - {"mana", "crystal"}:
        return ""
    noun = "mana token" if kinds == {"mana"} else "crystal"
    return f"gain a {joined_with_or([b[2] for b in branches])} {noun}"


def joined_with_or(parts: list[str]) -> str:
    """"Attack 2, Block 2 or Move 2"."""
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
        return joined_with_or([f"({describe(t)})" if t[0] == "all" and len(t[1]) > 1 and not is_cost(t[1][0])
                        else describe(t) for t in tree[1]])
    if tree[0] == "all":
        parts = list(tree[1])
        if parts and is_cost(parts[0]) and len(parts) > 1:  # "discard a card: Move 3, ... or Block 3"
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
