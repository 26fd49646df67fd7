"""The registry of named effects (`special NAME` in cards.csv, units.csv and skills.csv): the Special
record and SPECIALS, which cards.py fills from the theme modules before any effect string is parsed.
"""

from __future__ import annotations

from dataclasses import dataclass




@dataclass(frozen=True)
class Special:
    label: object           # args -> str
    usable: object          # (state, seat, args, ctx) -> bool
    do: object              # (state, seat, args, choice | None, events) -> None
    choices: object = None  # (state, seat, args) -> [(id, label)] or None (no pick)
    cost: bool = False      # a cost: a card whose cost cannot be paid cannot be played
    pays: bool = False      # asks for one more mana besides the card's own (turn.py checks both can be paid)


# name -> Special; cards.py merges the theme modules' dicts into it
SPECIALS: dict[str, Special] = {}
