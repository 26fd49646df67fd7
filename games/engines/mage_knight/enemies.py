"""Enemy tokens (enemies.csv) and the seven face-down piles by colour (state["enemies"]).

A token on the map or in a combat is ``{"id": enemy id, "colour": colour, "face_up": bool}``; the piles hold ids.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

from games.engines.rng import Rng

CSV_PATH = os.path.join(os.path.dirname(__file__), "enemies.csv")
COLOURS = ("green", "gray", "brown", "violet", "white", "red")
ELEMENTS = ("physical", "fire", "ice", "cold_fire")
ABILITIES = ("fortified", "swift", "brutal", "poison", "paralyze", "summon")
# Base game token counts per colour (shared/data/mage-knight/enemies.json, base_game_token_counts_by_colour).
TOKENS_PER_COLOUR = {"green": 12, "gray": 12, "brown": 10, "violet": 10, "white": 10, "red": 8}


@dataclass(frozen=True, slots=True)
class Enemy:
    id: str
    name: str
    colour: str
    copies: int
    armor: int
    attack: int  # 0 for a summoner: it attacks through the enemy it summons
    element: str  # physical | fire | ice | cold_fire
    summon: str | None  # colour of the pile a summoner draws from
    abilities: frozenset[str]
    resistances: frozenset[str]
    fame: int
    reputation: int  # Reputation change when defeated (Thugs +1)

    def has(self, ability: str) -> bool:
        return ability in self.abilities


def _load() -> dict[str, Enemy]:
    table = {}
    with open(CSV_PATH, newline="") as fh:
        for row in csv.DictReader(line for line in fh if not line.startswith("#")):
            value, kind = row["attack"].split()
            summon = kind if value == "summon" else None
            abilities = frozenset(row["abilities"].split())
            resistances = frozenset(row["resistances"].split())
            if row["colour"] not in COLOURS or not abilities <= set(ABILITIES) or not resistances <= set(ELEMENTS):
                raise ValueError(f"enemies.csv: bad row {row['id']}")
            table[row["id"]] = Enemy(
                id=row["id"], name=row["name"], colour=row["colour"], copies=int(row["copies"]),
                armor=int(row["armor"]), attack=0 if summon else int(value), element="physical" if summon else kind,
                summon=summon, abilities=abilities, resistances=resistances, fame=int(row["fame"]),
                reputation=int(row["reputation"]))
    counts = {c: sum(e.copies for e in table.values() if e.colour == c) for c in COLOURS}
    if counts != TOKENS_PER_COLOUR:
        raise ValueError(f"enemies.csv: token counts {counts} != {TOKENS_PER_COLOUR}")
    return table


ENEMIES = _load()


def enemy(enemy_id: str) -> Enemy:
    return ENEMIES[enemy_id]


def new_piles(rng: Rng) -> dict:
    """Every base-game token, shuffled face down into one pile per colour (setup step 3)."""
    piles = {}
    for colour in COLOURS:
        pile = [e.id for e in ENEMIES.values() if e.colour == colour for _ in range(e.copies)]
        rng.shuffle(pile)
        piles[colour] = pile
    return {"piles": piles, "discards": {c: [] for c in COLOURS}}


def draw(state: dict, colour: str) -> dict | None:
    """Take the top token of a colour's pile, face down; an empty pile is its shuffled discard first.

    None only when every token of that colour is on the map or in a combat (the caller places nothing)."""
    piles, discards = state["enemies"]["piles"], state["enemies"]["discards"]
    if not piles[colour]:
        if not discards.get(colour):
            return None
        rng = Rng(state["rng"])
        piles[colour] = discards[colour]
        discards[colour] = []
        rng.shuffle(piles[colour])
        state["rng"] = rng.state
    return {"id": piles[colour].pop(), "colour": colour, "face_up": False}


def discard(state: dict, token: dict) -> None:
    state["enemies"]["discards"].setdefault(token["colour"], []).append(token["id"])


def resists(resistances, element: str) -> bool:
    """Whether these resistances make an attack of this element inefficient (cold fire needs fire and ice both)."""
    if element == "cold_fire":
        return "fire" in resistances and "ice" in resistances
    return element in resistances
