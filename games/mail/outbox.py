"""The outbox: queue a rendered delivery once (unique dedupe key), on its channel (an email, a player's webhook
call: models.Channel); it is sent once (row lock), on commit, by the channel's sender (delivery.SENDERS).

queue -> Notification row (pending) -> on commit: task mail.send_notification(id)   (send_tasks.py)
         (a reminders run's rows: mail.send_notifications(ids), a batch of those due in one second)
      -> lock the row, still pending and still relevant? send, mark sent; else mark skipped (delivery.py).
A lost task (broker down, worker killed) leaves the row pending; the periodic sweep re-enqueues it.
A row with ``not_before`` is enqueued with a countdown and swept only once it is due.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from email.utils import make_msgid
from typing import Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game, Prompt, Seat

from .compose import Rendered
from .models import DUE_AT, Channel, Notification, NotificationKind, NotificationStatus
from .send_tasks import send_enqueue_on_commit, sends_enqueue_on_commit

def sweep_grace() -> timedelta:
    """How long a mail task gets to run after its write before a sweep takes it as lost (the outbox,
    prompt and job sweeps): MAIL_SWEEP_GRACE_SECONDS."""
    return timedelta(seconds=getattr(settings, "MAIL_SWEEP_GRACE_SECONDS", 60))


def thread_id(*, game_id: int | None, user_id: int | None) -> str:
    """The game's root Message-ID for one player: every email of that game to them refers to it
    (In-Reply-To, References), prompts, answers, reminders, results, the game over and the table talk alike,
    so the game is one thread (mail readers group by References; the root itself is never sent)."""
    if game_id is None:
        return f"<faltisia.user{user_id}@{settings.EMAIL_DOMAIN}>"
    return f"<game{game_id}.user{user_id}@{settings.EMAIL_DOMAIN}>"


def _headers(rendered: Rendered, *, game: Game | None, user_id: int | None, message_id: str,
             kind: str, prompt: Prompt | None) -> dict[str, str]:
    root = thread_id(game_id=game.pk if game else None, user_id=user_id)
    headers = {
        "Message-ID": message_id,
        "In-Reply-To": root,
        "References": root,
        "Reply-To": rendered.reply_to,
        # RFC 3834: tells well-behaved auto-responders not to answer, which breaks mail loops.
        "Auto-Submitted": "auto-replied" if kind == NotificationKind.ANSWER else "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if game is not None:
        headers["List-Id"] = f"Faltisia game {game.pk} <game{game.pk}.{settings.EMAIL_DOMAIN}>"
    if rendered.unsubscribe:
        headers["List-Unsubscribe"] = f"<{rendered.unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
    if prompt is not None:
        headers["X-Faltisia-Prompt"] = str(prompt.pk)
    headers.update(rendered.extra_headers)
    return headers


def notification_queue(*, kind: str, dedupe_key: str, address: str, render: Callable[[], Rendered],
                       user_id: int | None = None, game: Game | None = None, seat: Seat | None = None,
                       prompt: Prompt | None = None, lead_hours: int | None = None,
                       not_before: datetime | None = None, away_only: bool = False,
                       channel: str = Channel.MAIL) -> Notification | None:
    """Store the delivery under ``dedupe_key`` and send it after the commit (not before ``not_before``;
    ``away_only``: only while the player is away from the game's page); None if it was queued before, or if it
    is an email with no address to go to."""
    if (channel == Channel.MAIL and not address) or Notification.objects.filter(dedupe_key=dedupe_key).exists():
        return None
    row = notification_build(kind=kind, dedupe_key=dedupe_key, address=address, rendered=render(), user_id=user_id,
                             game=game, seat=seat, prompt=prompt, lead_hours=lead_hours, not_before=not_before,
                             channel=channel)
    row.away_only = away_only
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:  # queued concurrently by a duplicate signal or sweep: that one wins
        return None
    send_enqueue_on_commit(notification_id=row.pk, kind=kind, not_before=not_before)
    return row


def notification_build(*, kind: str, dedupe_key: str, address: str, rendered: Rendered, user_id: int | None = None,
                       game: Game | None = None, seat: Seat | None = None, prompt: Prompt | None = None,
                       lead_hours: int | None = None, not_before: datetime | None = None,
                       channel: str = Channel.MAIL) -> Notification:
    """The outbox row of a rendered delivery, not saved (notification_queue saves one, notifications_queue_bulk
    a batch). Only an email has a Message-ID and headers."""
    row = Notification(
        kind=kind, channel=channel, dedupe_key=dedupe_key, user_id=user_id, game=game, seat=seat, prompt=prompt,
        deadline=prompt.deadline if prompt is not None else None, lead_hours=lead_hours,
        address=address, subject=rendered.subject[:300], body_text=rendered.text, body_html=rendered.html,
        not_before=not_before, message_id="", headers={})
    if channel == Channel.MAIL:
        row.message_id = make_msgid(idstring=kind, domain=settings.EMAIL_DOMAIN)
        row.headers = _headers(rendered, game=game, user_id=user_id, message_id=row.message_id, kind=kind,
                               prompt=prompt)
    return row


def notifications_queue_bulk(rows: list[Notification]) -> list[Notification]:
    """Store these built rows (notification_build, dedupe keys checked by the caller) in one INSERT and
    send them after the commit (each not before its ``not_before``), all enqueued in one go; returns the
    rows stored. If one's dedupe key was taken meanwhile (a concurrent duplicate), they are stored one at
    a time and the taken ones are left out, as notification_queue does."""
    if not rows:
        return []
    try:
        with transaction.atomic():
            stored = Notification.objects.bulk_create(rows)
    except IntegrityError:
        stored = []
        for row in rows:
            row.pk, row._state.adding = None, True
            try:
                with transaction.atomic():
                    row.save(force_insert=True)
            except IntegrityError:
                continue
            stored.append(row)
    sends_enqueue_on_commit(stored)
    return stored


OUTBOX_SWEEP_BATCH = 500  # rows re-enqueued per sweep; a send task locks its row, so a duplicate is harmless


def lost_notifications(*, now: datetime):
    """Pending deliveries due for over the sweep grace, in the order they fell due: the partial index
    mail_notification_due answers it, reading the rows due by then and none held for later."""
    return (Notification.objects.filter(status=NotificationStatus.PENDING).alias(due_at=DUE_AT)
            .filter(due_at__lte=now - sweep_grace()).order_by("due_at"))


def outbox_sweep(*, now=None, enqueue: Callable[[int, str], None] | None = None) -> int:
    """Re-enqueue pending emails due for over the sweep grace (their task was lost); uses the pending index.

    A row is due at ``not_before`` if it has one (a delayed follow-up prompt), else when it was queued;
    a delayed row is left to its countdown task until then, so it is never sent early.
    """
    lost = list(lost_notifications(now=now or timezone.now()).values_list("pk", "kind")[:OUTBOX_SWEEP_BATCH])
    for pk, kind in lost:
        if enqueue is not None:
            enqueue(pk, kind)
        else:
            send_enqueue_on_commit(notification_id=pk, kind=kind)
    return len(lost)
