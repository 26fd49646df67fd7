"""The table-talk lines of a reply: ``say <text>`` posts to the table, ``tell <seat> <text>``
privately (seat numbers from 1, as the pages number seats; several: ``tell 2,3 ...``). The message is the
rest of that line and every line of the player's own after it, up to the quoted part, so picks come first
and one reply may carry both (inbound.py applies the picks, then posts the message through games.chat).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from games.chat.errors import ChatError
from games.chat.services import message_post
from games.models import Seat

_SAY = re.compile(r"^say\b[:,]?\s*(.*)$", re.IGNORECASE)
_TELL = re.compile(r"^tell\s+([0-9]{1,2}(?:\s*,\s*[0-9]{1,2})*)(?:\s*[:,]?\s+(.*)|\s*[:,]?\s*)$", re.IGNORECASE)
_QUOTED_CHARS = 80


@dataclass(frozen=True)
class Talk:
    start: int  # the index, among the reply's lines, of the say or tell line
    seat_numbers: tuple[int, ...] | None  # None: the table
    text: str


def talk_find(lines: Sequence[str]) -> Talk | None:
    """The reply's first say or tell line and the message it starts; None if the reply has none."""
    for i, line in enumerate(lines):
        say, tell = _SAY.match(line), _TELL.match(line)
        if say is None and tell is None:
            continue
        head = say.group(1) if say is not None else (tell.group(2) or "")
        text = "\n".join([head, *lines[i + 1:]]).strip()
        numbers = None if say is not None else tuple(dict.fromkeys(int(n) for n in re.findall("[0-9]+", tell.group(1))))
        return Talk(start=i, seat_numbers=numbers, text=text)
    return None


def talk_post(*, seat: Seat, talk: Talk, capped: bool) -> tuple[bool, list[str]]:
    """Post the message from the seat's player; (posted?, the answer's lines saying what happened)."""
    players = seat.game.players
    if talk.seat_numbers is not None and any(not 1 <= n <= players for n in talk.seat_numbers):
        return False, [f"Your message was not sent: the seats of this game are numbered 1 to {players}."]
    to = None if talk.seat_numbers is None else [n - 1 for n in talk.seat_numbers]
    try:
        message_post(game=seat.game, user=seat.user, text=talk.text, to=to)
    except ChatError as e:
        return False, [f"Your message was not sent: {e.detail}."]
    shown = talk.text if len(talk.text) <= _QUOTED_CHARS else talk.text[:_QUOTED_CHARS] + "..."
    where = "to the table" if to is None else "privately to seat " + ", ".join(str(n) for n in talk.seat_numbers)
    lines = [f"Sent {where}: \"{shown}\"."]
    if capped:
        lines.append("Only the first lines of your message were read; the rest was not sent.")
    return True, lines
