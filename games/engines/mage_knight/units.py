"""Units (units.csv): facts, abilities in the README's effect vocabulary, and the two unit decks."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

from games.engines.rng import Rng

CSV_PATH = os.path.join(os.path.dirname(__file__), "units.csv")
TIERS = ("regular", "elite")
MANA = ("red", "blue", "green", "white", "black")
# Base game: 20 regular and 20 elite unit cards (shared/data/mage-knight/units.json, counts.base_cards = 40).
CARDS_PER_TIER = {"regular": 20, "elite": 20}


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    name: str
    tier: str
    level: int
    cost: int  # Influence to recruit
    armor: int
    copies: int
    recruit_sites: frozenset[str]
    resistances: frozenset[str]
    abilities: tuple[tuple[str, str | None], ...]  # (effect string, mana colour to pay or None)


def _ability(text: str) -> tuple[str, str | None]:
    effect, _, mana = text.partition("@")
    if mana and mana not in MANA:
        raise ValueError(f"units.csv: bad mana colour in {text!r}")
    return effect.strip(), mana or None


def _load() -> dict[str, Unit]:
    table = {}
    with open(CSV_PATH, newline="") as fh:
        for row in csv.DictReader(line for line in fh if not line.startswith("#")):
            if row["tier"] not in TIERS:
                raise ValueError(f"units.csv: bad tier in {row['id']}")
            table[row["id"]] = Unit(
                id=row["id"], name=row["name"], tier=row["tier"], level=int(row["level"]), cost=int(row["cost"]),
                armor=int(row["armor"]), copies=int(row["copies"]),
                recruit_sites=frozenset(row["recruit_sites"].split()),
                resistances=frozenset(row["resistances"].split()),
                abilities=tuple(_ability(a) for a in row["abilities"].split(";")))
    counts = {t: sum(u.copies for u in table.values() if u.tier == t) for t in TIERS}
    if counts != CARDS_PER_TIER:
        raise ValueError(f"units.csv: card counts {counts} != {CARDS_PER_TIER}")
    return table


UNITS = _load()


def unit(unit_id: str) -> Unit:
    return UNITS[unit_id]


def recruit_sites(unit_id: str) -> frozenset[str]:
    """Site names where the unit can be recruited (village, monastery, keep, mage_tower, city)."""
    return UNITS[unit_id].recruit_sites


def is_elite(unit_id: str) -> bool:
    """Gold back: its deck is units_elite."""
    return UNITS[unit_id].tier == "elite"


def abilities(unit_id: str) -> list[tuple[str, str | None]]:
    """The unit's abilities, one per activation: (effect string, mana colour it costs or None)."""
    return list(UNITS[unit_id].abilities)


def new_unit_decks(rng: Rng) -> tuple[list[str], list[str]]:
    """The shuffled regular and elite decks, one id per card (setup step 7): (units_regular, units_elite)."""
    decks = []
    for tier in TIERS:
        deck = [u.id for u in UNITS.values() if u.tier == tier for _ in range(u.copies)]
        rng.shuffle(deck)
        decks.append(deck)
    return decks[0], decks[1]
