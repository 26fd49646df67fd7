"""The deed card table (cards.csv): Card, load, and CARDS with its look-ups (deck_of, colour, name).

CARDS is filled by cards.py once every special is registered (parsing checks special names).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

from .card_text import EffectError, parse


CSV_PATH = os.path.join(os.path.dirname(__file__), "cards.csv")
KINDS = ("basic", "advanced", "spell", "artifact", "wound")
ACTION_KINDS = ("basic", "advanced")
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


# SPECIALS must exist before the table is parsed (atom() checks names): cards.py fills CARDS once the theme
# modules are registered.
CARDS: dict[str, Card] = {}


def deck_of(kind: str) -> list[str]:
    """Every copy of the cards of one kind (setup deals the advanced, spell and artifact decks from it)."""
    return [c.id for c in CARDS.values() if c.kind == kind for _ in range(c.copies)]


def colour(card_id: str) -> str:
    """The card's mana colour ("" for a colourless artifact or a wound)."""
    return CARDS[card_id].colour


def name(card_id: str) -> str:
    c = CARDS.get(card_id)
    return c.name if c else card_id
