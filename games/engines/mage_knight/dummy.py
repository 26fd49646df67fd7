"""The Dummy Player of the solo game: a hero's deck that is flipped, never played.

Rules text: an unused hero, "Place 3 Crystals matching the hero card's depiction ... Shuffle the Hero Deck"; at each
round's refresh "add the lowest advanced action to its deck and shuffle, and add a crystal of the lowest spell card to
its inventory (no limit)"; its tactic: scenario data "you pick first, the Dummy takes a random remaining card".
Its turn (the solo rules the data's scenario points to, recorded in docs/rules-decisions/mage-knight.md): flip 3
cards from its deck to its discard pile; if the last flipped card's colour matches crystals in its inventory, flip as
many more cards as it has crystals of that colour. With an empty deck at the start of its turn it announces the end
of the round instead.
"""

from __future__ import annotations

from ..base import Event
from ..rng import Rng
from . import cards

FLIP = 3


def card_colour(card: str) -> str | None:
    return cards.colour(card)


def take_turn(state: dict, ev: list) -> bool:
    """Play the Dummy's turn; return True if it announced the end of the round instead (its deck was empty)."""
    d = state["dummy"]
    if not d["deck"]:
        return True
    flipped = []
    for _ in range(min(FLIP, len(d["deck"]))):
        flipped.append(d["deck"].pop())
    extra = d["crystals"].get(card_colour(flipped[-1]) or "", 0)
    for _ in range(min(extra, len(d["deck"]))):
        flipped.append(d["deck"].pop())
    d["discard"] += flipped
    ev.append(Event(f"The Dummy Player flips {len(flipped)} card{'' if len(flipped) == 1 else 's'} ({len(d['deck'])} left in its deck)", None,
                    {"seat": -1, "flipped": list(flipped)}))
    return False


def reshuffle(state: dict, rng: Rng) -> None:
    """Round preparation: the Dummy's discard pile goes back into its deck, shuffled."""
    d = state["dummy"]
    d["deck"] += d["discard"]
    d["discard"] = []
    rng.shuffle(d["deck"])
