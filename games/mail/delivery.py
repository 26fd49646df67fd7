"""Delivery: send one stored outbox row once, on its channel, or record why it was not sent.

    mail.send_notification(id) / mail.send_notifications(ids)   (send_tasks.py)
      -> lock the row, still pending and still relevant (relevance.py)? its channel's sender sends it
         (SENDERS: mail_sender.py, player_hook_sender.py), mark sent; else mark skipped.

The row lock makes concurrent tasks for one row run one after another (the second sees "sent"); a
sender's error propagates with the row still pending, so the task can retry with its back-off. At send
time a row also waits, on every channel: while the player is on the game's page (a "when away" prompt:
wants.py; a reminder then is skipped, they see the deadline there) and through their quiet hours, after
which what was held goes at once (the mails in one: quiet_merge.py). The queueing side (outbox.py) and the
tasks sit above it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from django.db import transaction
from django.utils import timezone

from accounts.models import NotificationPreferences
from accounts.quiet_hours import quiet_until

from . import mail_sender, player_hook_calls, player_hook_sender
from .models import Channel, Notification, NotificationKind, NotificationStatus
from .relevance import NOT_BEFORE_TOLERANCE, Moot, away_check, still_relevant

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
# Each channel's sender: send(row, now), raising Moot (skipped), WebhookRefused (failed at once) or any other
# error (the row stays pending: the task retries it).
SENDERS: dict[str, Callable[[Notification, datetime], None]] = {
    Channel.MAIL: mail_sender.send,
    Channel.WEBHOOK: player_hook_sender.send,
}


def notifications_send(notification_ids: list[int], *, retry_alone: Callable[[int], None],
                       later: Callable[[int], None] | None = None) -> int:
    """Send each of these rows once (notification_send, one transaction each); a row whose send fails has
    the attempt recorded and ``retry_alone(id)`` called (its own task, with the back-off), so one bad
    address or a backend hiccup never holds the others. Returns how many of them are marked sent (now
    or by an earlier delivery of the same batch)."""
    sent = 0
    for pk in notification_ids:
        try:
            status = notification_send(notification_id=pk)
            sent += status == NotificationStatus.SENT
            if status == POSTPONED and later is not None:
                later(pk)  # it waits now (the player's page, quiet hours): its own task for then
        except Exception as exc:  # the backend's errors vary by provider; all are worth a retry
            notification_failed(notification_id=pk, error=repr(exc), final=False)
            try:
                retry_alone(pk)
            except Exception:  # an eager retry that fails again, a broker down: the outbox sweep retries it
                logger.warning("could not retry mail %s; the outbox sweep will", pk, exc_info=True)
    return sent


# An answer goes at once whatever the hour: the player just wrote to us.
_QUIET_EXEMPT = (NotificationKind.ANSWER,)
POSTPONED = "postponed"  # notification_send: still pending, not before its new ``not_before``
PRESENT = "the player was on the game's page"


def _quiet_until(row: Notification, now: datetime) -> datetime | None:
    """When the player's quiet hours end, if ``now`` is inside them (one small read, no row for a player
    who has none)."""
    if row.user_id is None or row.kind in _QUIET_EXEMPT:
        return None
    found = (NotificationPreferences.objects.filter(user_id=row.user_id, quiet_start__isnull=False,
                                                    quiet_end__isnull=False)
             .values_list("quiet_start", "quiet_end", "user__timezone").first())
    if found is None:
        return None
    start, end, tz_name = found
    return quiet_until(NotificationPreferences(quiet_start=start, quiet_end=end), tz_name=tz_name, now=now)


def notification_send(*, notification_id: int, now: datetime | None = None) -> str:
    """Send the row's email unless it was sent (or became moot); returns the row's final status, or
    POSTPONED when it waits (the player is on the game's page, or in their quiet hours) with a new
    ``not_before``: the caller enqueues it again for then, and the outbox sweep would anyway.

    The row lock makes concurrent tasks for one row run one after another; the second sees "sent".
    An exception from the backend propagates (the row stays pending) so the task can retry; a webhook
    the address rules or its receiver refused is marked failed at once (never resent).
    """
    now = now or timezone.now()
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if row is None or row.status != NotificationStatus.PENDING:
            return row.status if row else "gone"
        if not still_relevant(row):
            row.status = NotificationStatus.SKIPPED
            row.save(update_fields=["status"])
            return row.status
        if row.not_before is not None and now < row.not_before - NOT_BEFORE_TOLERANCE:
            return row.status  # not due (an eager run, a stray duplicate): its countdown task or the sweep sends it
        present_until = away_check(row, now)
        if present_until is not None:
            if row.kind == NotificationKind.REMINDER:  # they see the deadline's countdown on the page
                row.status, row.last_error = NotificationStatus.SKIPPED, PRESENT
                row.save(update_fields=["status", "last_error"])
                return row.status
            row.not_before = present_until  # mailed if they leave the page without answering
            row.save(update_fields=["not_before"])
            return POSTPONED
        quiet_end = _quiet_until(row, now)
        if quiet_end is not None:
            row.not_before, row.quiet_held = quiet_end, True
            row.save(update_fields=["not_before", "quiet_held"])
            return POSTPONED
        try:
            SENDERS[row.channel](row, now)
        except Moot as e:
            row.status, row.last_error = NotificationStatus.SKIPPED, str(e)
            row.save(update_fields=["status", "last_error"])
            return row.status
        except player_hook_calls.WebhookRefused as e:
            row.status, row.last_error, row.attempts = NotificationStatus.FAILED, str(e)[:2000], row.attempts + 1
            row.save(update_fields=["status", "last_error", "attempts"])
            return row.status
        row.status = NotificationStatus.SENT
        row.sent_at = timezone.now()
        row.attempts += 1
        row.save(update_fields=["status", "sent_at", "attempts"])
        return row.status


def notification_failed(*, notification_id: int, error: str, final: bool) -> None:
    """Record a failed attempt; after the last one the row is marked failed (and never resent)."""
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if row is None or row.status != NotificationStatus.PENDING:
            return
        row.attempts += 1
        row.last_error = error[:2000]
        if final or row.attempts >= MAX_ATTEMPTS:
            row.status = NotificationStatus.FAILED
        row.save(update_fields=["attempts", "last_error", "status"])
