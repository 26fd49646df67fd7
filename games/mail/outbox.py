"""The outbox: queue a rendered email once (unique dedupe key), send it once (row lock), on commit.

queue -> Notification row (pending) -> on commit: task mail.send_notification(id)
         (a reminders run's rows: mail.send_notifications(ids), a batch of those due in one second)
      -> lock the row, still pending and still relevant? send, mark sent; else mark skipped.
A lost task (broker down, worker killed) leaves the row pending; the periodic sweep re-enqueues it.
A row with ``not_before`` is enqueued with a countdown and swept only once it is due.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.utils import make_msgid
from typing import Callable

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game, Prompt, Seat

from .compose import Rendered
from .models import Notification, NotificationKind, NotificationStatus
from .priorities import send_priority

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
# A countdown task may run a moment before ``not_before`` by the worker's clock; that is not "early".
NOT_BEFORE_TOLERANCE = timedelta(seconds=5)


def sweep_grace() -> timedelta:
    """How long a mail task gets to run after its write before a sweep takes it as lost (the outbox,
    prompt and job sweeps): MAIL_SWEEP_GRACE_SECONDS."""
    return timedelta(seconds=getattr(settings, "MAIL_SWEEP_GRACE_SECONDS", 60))


def thread_id(*, game_id: int | None, user_id: int | None) -> str:
    """The Message-ID every email of one game to one player refers to, so the game stays one thread."""
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


def notification_queue(*, kind: str, dedupe_key: str, to_email: str, render: Callable[[], Rendered],
                       user_id: int | None = None, game: Game | None = None, seat: Seat | None = None,
                       prompt: Prompt | None = None, lead_hours: int | None = None,
                       not_before: datetime | None = None) -> Notification | None:
    """Store the email under ``dedupe_key`` and send it after the commit (not before ``not_before``);
    None if it was queued before."""
    if not to_email or Notification.objects.filter(dedupe_key=dedupe_key).exists():
        return None
    row = notification_build(kind=kind, dedupe_key=dedupe_key, to_email=to_email, rendered=render(), user_id=user_id,
                             game=game, seat=seat, prompt=prompt, lead_hours=lead_hours, not_before=not_before)
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:  # queued concurrently by a duplicate signal or sweep: that one wins
        return None
    send_enqueue_on_commit(notification_id=row.pk, kind=kind, not_before=not_before)
    return row


def notification_build(*, kind: str, dedupe_key: str, to_email: str, rendered: Rendered, user_id: int | None = None,
                       game: Game | None = None, seat: Seat | None = None, prompt: Prompt | None = None,
                       lead_hours: int | None = None, not_before: datetime | None = None) -> Notification:
    """The outbox row of a rendered email, not saved (notification_queue saves one, notifications_queue_bulk
    a batch)."""
    message_id = make_msgid(idstring=kind, domain=settings.EMAIL_DOMAIN)
    return Notification(
        kind=kind, dedupe_key=dedupe_key, user_id=user_id, game=game, seat=seat, prompt=prompt,
        deadline=prompt.deadline if prompt is not None else None, lead_hours=lead_hours,
        to_email=to_email, subject=rendered.subject[:300], body_text=rendered.text, body_html=rendered.html,
        message_id=message_id, not_before=not_before,
        headers=_headers(rendered, game=game, user_id=user_id, message_id=message_id, kind=kind, prompt=prompt))


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


def send_task_enqueue(notification_id: int, kind: str, *, countdown: float | None = None, producer=None,
                      retries: int = 0) -> None:
    """Enqueue the send task of one outbox row at its kind's priority (priorities.py); ``retries``: the
    attempts made already (a row retried after its batch task failed to send it)."""
    from .tasks import send_notification  # tasks import this module

    send_notification.apply_async(args=(notification_id,), countdown=countdown, retry=False, producer=producer,
                                  priority=send_priority(kind), retries=retries)


def _countdown(not_before: datetime | None) -> float | None:
    """Seconds until ``not_before`` (None: due now). A worker holds a countdown task until it is due.
    Eager (in-process) tasks ignore countdowns: the task runs now, finds the row not yet due and leaves
    it to the outbox sweep (beat, or `manage.py beat_embedded` in the embedded mode)."""
    seconds = 0.0 if not_before is None else (not_before - timezone.now()).total_seconds()
    return seconds if seconds > 0 else None


def send_enqueue_on_commit(*, notification_id: int, kind: str, not_before: datetime | None = None) -> None:
    def send() -> None:
        try:
            send_task_enqueue(notification_id, kind, countdown=_countdown(not_before))
        except Exception:
            logger.warning("could not enqueue mail %s; the outbox sweep will", notification_id, exc_info=True)

    transaction.on_commit(send)


SEND_BATCH = 20  # rows one mail.send_notifications task sends; a slow provider (~0.3 s a mail) stays far under its limit


def send_batches(rows: list[Notification]) -> list[tuple[list[int], int, datetime | None]]:
    """These stored rows grouped for mail.send_notifications: (ids, priority, due time) per group of at
    most SEND_BATCH rows of one priority due in the same second. The due time is ``not_before`` rounded up
    to the second (None: due now), so no row of a group is sent before its time, and none more than a
    second after."""
    groups: dict[tuple[int, datetime | None], list[int]] = {}
    for row in rows:
        due = row.not_before
        if due is not None and due.microsecond:
            due = due.replace(microsecond=0) + timedelta(seconds=1)
        groups.setdefault((send_priority(row.kind), due), []).append(row.pk)
    return [(pks[i:i + SEND_BATCH], priority, due) for (priority, due), pks in groups.items()
            for i in range(0, len(pks), SEND_BATCH)]


def sends_enqueue_on_commit(rows: list[Notification]) -> None:
    """After the commit, enqueue the sends of these stored rows a batch at a time (send_batches: one task
    per SEND_BATCH rows due in the same second, with a countdown to then) over one broker connection:
    a reminders run's 200 rows cost ~10 task messages, not 200. What cannot be enqueued is left to the
    outbox sweep, which enqueues each row's own send task."""
    if not rows:
        return
    batches = send_batches(rows)

    def send() -> None:
        from .tasks import send_notifications  # tasks import this module

        def each(producer=None) -> None:
            for pks, priority, due in batches:
                try:
                    send_notifications.apply_async(args=(pks,), countdown=_countdown(due), retry=False,
                                                   producer=producer, priority=priority)
                except Exception:
                    logger.warning("could not enqueue mails %s; the outbox sweep will", pks, exc_info=True)

        if send_notifications.app.conf.task_always_eager:  # run here, batch by batch (tests, the embedded mode)
            each()
            return
        try:
            with send_notifications.app.producer_or_acquire() as producer:
                each(producer)
        except Exception:
            logger.warning("could not enqueue %d mails; the outbox sweep will", len(rows), exc_info=True)

    transaction.on_commit(send)


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


def reminders_queued_ahead_withdraw(**filters) -> int:
    """Delete the unsent reminders matching ``filters`` that were queued ahead of their time (reminders.py's
    look-ahead: ``not_before`` still to come) because what they were planned from changed (the player's
    preferences or vacations, the seat's holder): the new plan queues them again if still wanted, under
    the same dedupe key. Their countdown tasks then find no row. Returns how many were withdrawn."""
    return Notification.objects.filter(kind=NotificationKind.REMINDER, status=NotificationStatus.PENDING,
                                       not_before__gt=timezone.now(), **filters).delete()[0]


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


OUTBOX_SWEEP_BATCH = 500  # rows re-enqueued per sweep; a send task locks its row, so a duplicate is harmless


def lost_notifications(*, now: datetime):
    """Pending emails due for over the sweep grace, oldest first: the partial index
    mail_notification_pending (``status = 'pending'``) answers it."""
    cutoff = now - sweep_grace()
    return (Notification.objects.filter(status=NotificationStatus.PENDING, created_at__lte=cutoff)
            .filter(Q(not_before__isnull=True) | Q(not_before__lte=cutoff)).order_by("created_at"))


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
