"""The registry of named effects (`special NAME` in cards.csv, units.csv and skills.csv): the Special record and
SPECIALS.

Each effect module (specials_*.py, banners.py) registers its specials when it is imported; the package's
``__init__`` imports them all before the card table is loaded, because parsing an effect string checks the special
names. The layers below the effects (card_text.py, resolver.py) only read SPECIALS and never import an effect module.
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


# name -> Special, filled by register()
SPECIALS: dict[str, Special] = {}


def register(specials: dict[str, Special]) -> None:
    """Add an effect module's specials; a name belongs to one module only."""
    taken = set(specials) & set(SPECIALS)
    if taken:
        raise ValueError(f"specials registered twice: {', '.join(sorted(taken))}")
    SPECIALS.update(specials)


def always(*_args) -> bool:
    """A Special's ``usable`` for an effect that is always of use."""
    return True
