"""The deed card table (cards.csv): Card, load, and CARDS with its look-ups (deck_of, colour, name).

A card's basic and powered effects are effect trees (card_text.py parses them; resolver.py plays them). Parsing checks
the special names, so CARDS is filled by the package's ``__init__`` once every effect module has registered its
specials; importing any module of the package does that first.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

from .card_text import EffectError, parse, WOUND

CSV_PATH = os.path.join(os.path.dirname(__file__), "cards.csv")
KINDS = ("basic", "advanced", "spell", "artifact", WOUND)
ACTION_KINDS = ("basic", "advanced")

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


# card id -> Card; the package's __init__ fills it (see the docstring)
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
