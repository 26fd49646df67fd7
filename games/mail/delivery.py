"""Delivery: send one stored outbox row once, or record why it was not sent.

    mail.send_notification(id) / mail.send_notifications(ids)   (send_tasks.py)
      -> lock the row, still pending and still relevant? send, mark sent; else mark skipped.

The row lock makes concurrent tasks for one row run one after another (the second sees "sent"); a
backend error propagates with the row still pending, so the task can retry with its back-off. At send
time a row also waits (issue 25): while the player is on the game's page (a "when away" prompt or
webhook: wants.py; a reminder then is skipped, they see the deadline there) and through their quiet hours,
after which what was held goes in one mail (quiet_merge.py). The queueing side (outbox.py) and the tasks
sit above it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Callable

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from accounts.quiet_hours import quiet_until
from games.models import Prompt, Seat

from . import hook_calls, quiet_merge, wants
from .models import PROMPT_KINDS, SEAT_HOLDER_KINDS, Notification, NotificationKind, NotificationStatus
from .recipients import loaded_preferences

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
# A countdown task may run a moment before ``not_before`` by the worker's clock; that is not "early".
NOT_BEFORE_TOLERANCE = timedelta(seconds=5)


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


def _still_relevant(row: Notification) -> bool:
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


# An answer goes at once whatever the hour: the player just wrote to us.
_QUIET_EXEMPT = (NotificationKind.ANSWER,)
POSTPONED = "postponed"  # notification_send: still pending, not before its new ``not_before``
PRESENT = "the player was on the game's page"


def build_message(row: Notification) -> EmailMultiAlternatives:
    msg = EmailMultiAlternatives(subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
                                 to=[row.to_email], headers=dict(row.headers))
    if row.body_html:
        msg.attach_alternative(row.body_html, "text/html")
    return msg


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


def _away_check(row: Notification, now: datetime) -> datetime | None:
    """For a row sent only while the player is away: None if they are, else until when they are not."""
    if not row.away_only or row.user_id is None or row.game_id is None:
        return None
    return wants.away_from(user_id=row.user_id, game_id=row.game_id, seat_id=row.seat_id, now=now)


def _held_with(row: Notification, now: datetime) -> list[Notification]:
    """The player's other mails held by their quiet hours and due now: they go in this row's mail (one
    mail when quiet hours end), each still relevant; locked (SKIP LOCKED: one a concurrent send holds
    goes in its own)."""
    if row.user_id is None or row.kind == NotificationKind.WEBHOOK:
        return []
    held = list(Notification.objects.select_for_update(skip_locked=True)
                .filter(user_id=row.user_id, status=NotificationStatus.PENDING, quiet_held=True,
                        not_before__lte=now + NOT_BEFORE_TOLERANCE)
                .exclude(pk=row.pk).exclude(kind=NotificationKind.WEBHOOK).order_by("pk"))
    kept = []
    for other in held:
        present_until = _away_check(other, now)
        if present_until is not None and _still_relevant(other):
            other.not_before = present_until  # on that game's page: waits as it would alone
            other.save(update_fields=["not_before"])
        elif _still_relevant(other):
            kept.append(other)
        else:
            other.status = NotificationStatus.SKIPPED
            other.save(update_fields=["status"])
    return kept


def _send(row: Notification, now: datetime) -> None:
    if row.kind == NotificationKind.WEBHOOK:
        user = User.objects.filter(pk=row.user_id).select_related("notification_preferences").first()
        url = loaded_preferences(user).webhook_url if user is not None and user.is_active else ""
        if not url:
            raise _Moot("the player removed their webhook")
        hook_calls.webhook_post(url=url, body=row.body_text.encode(), user_id=row.user_id, delivery_id=row.pk)
        return
    others = _held_with(row, now) if row.quiet_held else []
    if others:
        quiet_merge.merged_message([row, *others]).send(fail_silently=False)
        for other in others:
            other.status, other.sent_at, other.last_error = NotificationStatus.SENT, now, f"sent in mail {row.pk}"
            other.attempts += 1
            other.save(update_fields=["status", "sent_at", "last_error", "attempts"])
        return
    build_message(row).send(fail_silently=False)


class _Moot(Exception):
    pass


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
        if not _still_relevant(row):
            row.status = NotificationStatus.SKIPPED
            row.save(update_fields=["status"])
            return row.status
        if row.not_before is not None and now < row.not_before - NOT_BEFORE_TOLERANCE:
            return row.status  # not due (an eager run, a stray duplicate): its countdown task or the sweep sends it
        present_until = _away_check(row, now)
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
            _send(row, now)
        except _Moot as e:
            row.status, row.last_error = NotificationStatus.SKIPPED, str(e)
            row.save(update_fields=["status", "last_error"])
            return row.status
        except hook_calls.WebhookRefused as e:
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
