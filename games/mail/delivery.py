"""Delivery: send one stored outbox row once, or record why it was not sent.

    mail.send_notification(id) / mail.send_notifications(ids)   (send_tasks.py)
      -> lock the row, still pending and still relevant? send, mark sent; else mark skipped.

The row lock makes concurrent tasks for one row run one after another (the second sees "sent"); a
backend error propagates with the row still pending, so the task can retry with its back-off. Only the
models and the mail backend are used here: the queueing side (outbox.py) and the tasks sit above it.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Callable

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from games.models import Prompt

from .models import Notification, NotificationKind, NotificationStatus

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
# A countdown task may run a moment before ``not_before`` by the worker's clock; that is not "early".
NOT_BEFORE_TOLERANCE = timedelta(seconds=5)


def notifications_send(notification_ids: list[int], *, retry_alone: Callable[[int], None]) -> int:
    """Send each of these rows once (notification_send, one transaction each); a row whose send fails has
    the attempt recorded and ``retry_alone(id)`` called (its own task, with the back-off), so one bad
    address or a backend hiccup never holds the others. Returns how many of them are marked sent (now
    or by an earlier delivery of the same batch)."""
    sent = 0
    for pk in notification_ids:
        try:
            sent += notification_send(notification_id=pk) == NotificationStatus.SENT
        except Exception as exc:  # the backend's errors vary by provider; all are worth a retry
            notification_failed(notification_id=pk, error=repr(exc), final=False)
            try:
                retry_alone(pk)
            except Exception:  # an eager retry that fails again, a broker down: the outbox sweep retries it
                logger.warning("could not retry mail %s; the outbox sweep will", pk, exc_info=True)
    return sent


def _still_relevant(row: Notification) -> bool:
    """A prompt or reminder email for a prompt already answered (or moved) would only confuse."""
    if row.kind not in (NotificationKind.PROMPT, NotificationKind.REMINDER) or row.prompt_id is None:
        return True
    prompt = Prompt.objects.filter(pk=row.prompt_id).only("closed_at", "deadline").first()
    if prompt is None or prompt.closed_at is not None:
        return False
    return row.kind != NotificationKind.REMINDER or prompt.deadline == row.deadline


def build_message(row: Notification) -> EmailMultiAlternatives:
    msg = EmailMultiAlternatives(subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
                                 to=[row.to_email], headers=dict(row.headers))
    if row.body_html:
        msg.attach_alternative(row.body_html, "text/html")
    return msg


def notification_send(*, notification_id: int) -> str:
    """Send the row's email unless it was sent (or became moot); returns the row's final status.

    The row lock makes concurrent tasks for one row run one after another; the second sees "sent".
    An exception from the backend propagates (the row stays pending) so the task can retry.
    """
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if row is None or row.status != NotificationStatus.PENDING:
            return row.status if row else "gone"
        if not _still_relevant(row):
            row.status = NotificationStatus.SKIPPED
            row.save(update_fields=["status"])
            return row.status
        if row.not_before is not None and timezone.now() < row.not_before - NOT_BEFORE_TOLERANCE:
            return row.status  # not due (an eager run, a stray duplicate): its countdown task or the sweep sends it
        build_message(row).send(fail_silently=False)
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
