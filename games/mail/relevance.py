"""Whether a pending delivery of the outbox is still worth sending, on any channel, and whether its player is
away: what a send (delivery.py) and a quiet-hours merge (mail_sender.py) ask of each row before it goes."""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Prompt, Seat

from . import wants
from .models import PROMPT_KINDS, SEAT_HOLDER_KINDS, Notification, NotificationKind

# A countdown task may run a moment before ``not_before`` by the worker's clock; that is not "early".
NOT_BEFORE_TOLERANCE = timedelta(seconds=5)


class Moot(Exception):
    """The delivery lost its reason at send time (the player removed their hook): it is skipped, not failed."""


def still_relevant(row: Notification) -> bool:
    """Whether the row is still worth sending: a delivery to a seat's holder goes only to whoever holds the seat
    now (one left pending by a handover on any channel included), and one about a prompt only while the prompt
    is open (a reminder: with the deadline it was about)."""
    if row.kind not in SEAT_HOLDER_KINDS or row.seat_id is None:
        return True
    if row.kind in PROMPT_KINDS and row.prompt_id is not None:
        found = (Prompt.objects.filter(pk=row.prompt_id)
                 .values_list("closed_at", "deadline", "seat__user_id").first())
        if found is None:
            return False
        closed_at, deadline, holder_id = found
        if closed_at is not None or (row.kind == NotificationKind.REMINDER and deadline != row.deadline):
            return False
    else:
        holder_id = Seat.objects.filter(pk=row.seat_id).values_list("user_id", flat=True).first()
    return holder_id is not None and holder_id == row.user_id


def away_check(row: Notification, now: datetime) -> datetime | None:
    """For a row sent only while the player is away: None if they are, else until when they are not."""
    if not row.away_only or row.user_id is None or row.game_id is None:
        return None
    return wants.away_from(user_id=row.user_id, game_id=row.game_id, seat_id=row.seat_id, now=now)
