"""Load and validate the Miskatonic card set (cards.csv, one row per physical card) into lookup tables.

Kinds: house, starting, student, student_event, faculty, faculty_event, transfer, substitute.

Ability vocabulary (``;`` joins abilities; N is an integer):

  locker                       bought (or revealed, for an event) into a Locker, where it stays
  aggressive                   Faculty: goes to the Classroom of the player it is bought for, who has Class at once
  friendly                     Student: goes to the buyer's Classroom and joins this turn's Class
  expel                        Faculty: at Class the first BFF drawn goes to the Discard before its BFF Ability
  bff:gp:N  bff:resolve:N  bff:sanity:N              BFF Ability (when drawn as a BFF)
  defeat:sanity:N  defeat:others_lose:N              Defeat ability (the Faculty is defeated)
  survive:lose:N  survive:all_lose:N                 Survive ability (the Faculty survives Class)
  preclass:sanity:N  preclass:dismiss                Pre-Class ability (used from the hand)
  locker:produce:f:N  locker:produce:n:N  locker:resolve:N  locker:gp:N      ongoing, while in a Locker
  event:all_gain:N  event:all_lose:N  event:you_gain:N  event:you_lose:N  event:locker   Event effects

A new card needs a new row, not new code, as long as it speaks this vocabulary.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from dataclasses import dataclass

CSV_PATH = os.path.join(os.path.dirname(__file__), "cards.csv")
KINDS = ("house", "starting", "student", "student_event", "faculty", "faculty_event", "transfer", "substitute")
# The rulebook's Game Contents: the loader refuses any other count.
COUNTS = {"house": 4, "starting": 40, "student": 51, "student_event": 4, "faculty": 46, "faculty_event": 4,
          "transfer": 18, "substitute": 20}
# Set-Up: "two copies of each students from the Starting Class except for Keziah Mason (only one copy) and Natalie
# Peaslee (three copies)" -- per house.
STARTING_COPIES = {"Keziah Mason": 1, "Natalie Peaslee": 3}
STARTING_NAMES = 5
TWO_PLAYER_REMOVED = ("Grace Traceofyith", "Whipper' Wills")  # 2-Player Game Special Rule #1
STUDENT_KINDS = ("starting", "student", "transfer")
FACULTY_KINDS = ("faculty", "substitute")

_SIMPLE = {"locker", "aggressive", "friendly", "expel", "event:locker", "preclass:dismiss"}
_NUMERIC = {"bff:gp", "bff:resolve", "bff:sanity", "defeat:sanity", "defeat:others_lose", "survive:lose",
            "survive:all_lose", "preclass:sanity", "locker:produce:f", "locker:produce:n", "locker:resolve",
            "locker:gp", "event:all_gain", "event:all_lose", "event:you_gain", "event:you_lose"}


class CardDataError(ValueError):
    """The card file breaks a rule of the format; the message names the row."""


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    kind: str
    name: str
    house: str
    nightmare: int
    friendship: int
    girl_power: int
    resolve: int
    health: int
    damage: int
    cost_nightmare: int
    cost_friendship: int
    abilities: tuple[tuple[str, int], ...]  # ("bff:gp", 2), ("locker", 0), ...
    text: str
    groups: dict  # keyword -> ((effect, N), ...): "bff" -> (("gp", 2),), precomputed because play asks often
    is_student: bool  # Starting, Student or Transfer (these three are fields, not properties: play asks often)
    is_faculty: bool  # Faculty or Substitute
    is_event: bool

    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.abilities)

    def amount(self, prefix: str) -> tuple[tuple[str, int], ...]:
        """The abilities under one keyword (``bff``, ``defeat``, ``locker``...), as (effect, N) pairs."""
        return self.groups.get(prefix, ())


def parse_abilities(text: str, where: str) -> tuple[tuple[str, int], ...]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        if part in _SIMPLE:
            out.append((part, 0))
            continue
        key, _, n = part.rpartition(":")
        if key not in _NUMERIC or not n.lstrip("-").isdigit():
            raise CardDataError(f"{where}: unknown ability {part!r}")
        out.append((key, int(n)))
    return tuple(out)


def load(path: str = CSV_PATH) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    with open(path, newline="") as fh:
        lines = [ln for ln in fh if not ln.startswith("#")]
    for row in csv.DictReader(lines):
        where = f"cards.csv row {row['id']!r}"
        if row["kind"] not in KINDS:
            raise CardDataError(f"{where}: unknown kind {row['kind']!r}")
        if row["id"] in cards:
            raise CardDataError(f"{where}: duplicate id")
        try:
            nums = [int(row[k] or 0) for k in ("nightmare", "friendship", "girl_power", "resolve", "health", "damage",
                                               "cost_nightmare", "cost_friendship")]
        except ValueError as exc:
            raise CardDataError(f"{where}: {exc}") from None
        abilities = parse_abilities(row["abilities"], where)
        groups: dict[str, list] = {}
        for key, n in abilities:
            head, _, rest = key.partition(":")
            if rest:
                groups.setdefault(head, []).append((rest, n))
        card = Card(row["id"], row["kind"], row["name"], row["house"], *nums, abilities, row["text"],
                    {k: tuple(v) for k, v in groups.items()}, row["kind"] in STUDENT_KINDS,
                    row["kind"] in FACULTY_KINDS, row["kind"] in ("student_event", "faculty_event"))
        if card.is_faculty and card.health <= 0:
            raise CardDataError(f"{where}: a Faculty needs Health")
        if card.is_event and not any(k.startswith("event:") for k, _ in card.abilities):
            raise CardDataError(f"{where}: an Event needs an event: effect")
        cards[card.id] = card
    validate(cards)
    return cards


def validate(cards: dict[str, Card]) -> None:
    """The rulebook's component list, exactly."""
    counts = Counter(c.kind for c in cards.values())
    for kind, n in COUNTS.items():
        if counts[kind] != n:
            raise CardDataError(f"cards.csv: {counts[kind]} {kind} cards, the rulebook lists {n}")
    houses = [c.id for c in cards.values() if c.kind == "house"]
    for h in houses:
        names = Counter(c.name for c in cards.values() if c.kind == "starting" and c.house == h)
        if len(names) != STARTING_NAMES or any(n != STARTING_COPIES.get(name, 2) for name, n in names.items()):
            raise CardDataError(f"cards.csv: house {h} starting class {dict(names)} is not two of each student, "
                                "one Keziah Mason and three Natalie Peaslee")
    faculty_names = {c.name for c in cards.values() if c.kind == "faculty"}
    for name in TWO_PLAYER_REMOVED:
        if name not in faculty_names:
            raise CardDataError(f"cards.csv: {name!r} must be in the Faculty deck (2-Player Special Rule #1)")


CARDS: dict[str, Card] = load()
HOUSES: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.kind == "house")


_BY_KIND = {k: tuple(c.id for c in CARDS.values() if c.kind == k) for k in KINDS}
_BY_HOUSE = {h: tuple(c.id for c in CARDS.values() if c.kind == "starting" and c.house == h) for h in HOUSES}


def of_kind(kind: str) -> list[str]:
    """A new list of the ids of one kind, in file order (precomputed: every new game asks)."""
    return list(_BY_KIND[kind])


def starting_class(house: str) -> list[str]:
    return list(_BY_HOUSE[house])


def card_dict(cid: str) -> dict:
    """A card as a page or client shows it (no CSV needed)."""
    c = CARDS[cid]
    return {"id": c.id, "kind": c.kind, "name": c.name, "nightmare": c.nightmare, "friendship": c.friendship,
            "girl_power": c.girl_power, "resolve": c.resolve, "health": c.health, "damage": c.damage,
            "cost_nightmare": c.cost_nightmare, "cost_friendship": c.cost_friendship,
            "keywords": [k for k, _ in c.abilities], "text": c.text}
