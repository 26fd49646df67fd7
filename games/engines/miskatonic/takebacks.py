"""Take-backs in Miskatonic: what a pick that can be taken back leaves unchanged (base.py ``checkpoint_key``).

A pick is a checkpoint when it touches the generator, a face-down deck (the seat's own draw deck, the Student and
Faculty decks that refill the shelves), another House (a card bought for an opponent, Sanity lost in Class) or who
decides next. Choosing what to play or buy for oneself before it reaches anyone else can be taken back.
"""

from __future__ import annotations

from .. import json_text


def checkpoint_key(state: dict, seat: int) -> bytes:
    dec, held = state["dec"], state["held"]
    seats = state["seats"]
    parts = [
        state["rng"], state["store"]["student"]["deck"], state["store"]["faculty"]["deck"],
        [s for i, s in enumerate(seats) if i != seat], seats[seat]["deck"],
        None if dec is None else dec["seat"], None if held is None else held["seat"], state["over"],
        state["round"], state["cur"],
    ]
    return json_text.dumps(parts)
