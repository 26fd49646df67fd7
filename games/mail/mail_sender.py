"""The mail channel's sender: one outbox row as an email, or, when the player's quiet hours end, every mail they
held in one (quiet_merge.py)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives

from . import quiet_merge
from .models import Channel, Notification, NotificationStatus
from .relevance import NOT_BEFORE_TOLERANCE, away_check, still_relevant


def build_message(row: Notification) -> EmailMultiAlternatives:
    msg = EmailMultiAlternatives(subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
                                 to=[row.address], headers=dict(row.headers))
    if row.body_html:
        msg.attach_alternative(row.body_html, "text/html")
    return msg


def _held_with(row: Notification, now: datetime) -> list[Notification]:
    """The player's other mails held by their quiet hours and due now: they go in this row's mail (one
    mail when quiet hours end), each still relevant; locked (SKIP LOCKED: one a concurrent send holds
    goes in its own)."""
    if row.user_id is None:
        return []
    held = list(Notification.objects.select_for_update(skip_locked=True)
                .filter(user_id=row.user_id, channel=Channel.MAIL, status=NotificationStatus.PENDING,
                        quiet_held=True, not_before__lte=now + NOT_BEFORE_TOLERANCE)
                .exclude(pk=row.pk).order_by("pk"))
    kept = []
    for other in held:
        present_until = away_check(other, now)
        if present_until is not None and still_relevant(other):
            other.not_before = present_until  # on that game's page: waits as it would alone
            other.save(update_fields=["not_before"])
        elif still_relevant(other):
            kept.append(other)
        else:
            other.status = NotificationStatus.SKIPPED
            other.save(update_fields=["status"])
    return kept


def send(row: Notification, now: datetime) -> None:
    """Send the row's email (with the others its quiet hours held, if it was held); a backend error propagates."""
    others = _held_with(row, now) if row.quiet_held else []
    if others:
        quiet_merge.merged_message([row, *others]).send(fail_silently=False)
        for other in others:
            other.status, other.sent_at, other.last_error = NotificationStatus.SENT, now, f"sent in mail {row.pk}"
            other.attempts += 1
            other.save(update_fields=["status", "sent_at", "last_error", "attempts"])
        return
    build_message(row).send(fail_silently=False)
