"""Outbox rows not sent yet whose reason went away: withdrawn or skipped before they go.

A reminder is queued ahead of its time (reminders.py's look-ahead) and a prompt email may wait for its
send task; when what they were planned from changes (the player's preferences or vacations, the seat's
holder) the rows still waiting must not go. Only the models are read here, so the seat's mailbox rotation
(tokens.py) and the reminder planning (reminders.py) both use it without importing the outbox.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from .models import PROMPT_KINDS, SEAT_HOLDER_KINDS, Notification, NotificationKind, NotificationStatus


def reminders_queued_ahead_withdraw(**filters) -> int:
    """Delete the unsent reminders matching ``filters`` that were queued ahead of their time (``not_before``
    still to come) because what they were planned from changed: the new plan queues them again if still
    wanted, under the same dedupe key. Their countdown tasks then find no row. Returns how many were
    withdrawn."""
    return Notification.objects.filter(kind=NotificationKind.REMINDER, status=NotificationStatus.PENDING,
                                       not_before__gt=timezone.now(), **filters).delete()[0]


def seat_deliveries_withdraw(*, seat_id: int, holder_id: int | None, reason: str) -> int:
    """The seat changed hands (``holder_id`` holds it now): mark skipped what is still unsent about it to anyone
    else, on every channel, and its prompt deliveries to anyone (they carry an address and links that no
    longer work); returns how many."""
    pending = Notification.objects.filter(seat_id=seat_id, status=NotificationStatus.PENDING)
    to_others = Q(kind__in=SEAT_HOLDER_KINDS) & ~Q(user_id=holder_id) if holder_id else Q(kind__in=SEAT_HOLDER_KINDS)
    return pending.filter(to_others | Q(kind__in=PROMPT_KINDS)).update(status=NotificationStatus.SKIPPED,
                                                                        last_error=reason)
