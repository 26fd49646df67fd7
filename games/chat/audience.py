"""Who a message is for: the table (0), or a thread of seats kept as a bit per seat position.

A game has at most 12 seats (the API's bound), far below the 63 bits of the column.
"""

from __future__ import annotations

from typing import Iterable

TABLE = 0


def thread_of(positions: Iterable[int]) -> int:
    """The audience of a private thread of these seats (the author's included)."""
    mask = 0
    for p in positions:
        mask |= 1 << p
    return mask


def seats_of(audience: int) -> list[int]:
    """The positions of a thread, lowest first; [] for the table."""
    return [p for p in range(audience.bit_length()) if audience >> p & 1]


def readable_by(audience: int, position: int | None) -> bool:
    """Whether the seat at ``position`` (None: someone without a seat) reads a message with this audience."""
    return audience == TABLE or (position is not None and bool(audience >> position & 1))


def recipients(audience: int, author_position: int) -> list[int] | None:
    """The API's ``to``: None for the table, else the thread's seats but the author's."""
    if audience == TABLE:
        return None
    return [p for p in seats_of(audience) if p != author_position]
