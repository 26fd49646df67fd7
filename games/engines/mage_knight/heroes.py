"""The heroes (heroes.csv): name, the card that replaces a basic one in the hero's deck, the Dummy Player's crystals,
the 16-card starting deed deck.
"""

from __future__ import annotations

import csv
import os
from typing import Any

CSV_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "heroes.csv")


def load(path: str = CSV_PATH) -> dict[str, dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return {r["id"]: {"id": r["id"], "name": r["name"], "card": r["card"], "replaces": r["replaces"],
                          "crystals": r["crystals"].split(), "deck": r["deck"].split()}
                for r in csv.DictReader(f)}


HEROES: dict[str, dict[str, Any]] = load()
HERO_ORDER = tuple(HEROES)  # arythea, tovak, goldyx, norowas: dealt in seat order by default
