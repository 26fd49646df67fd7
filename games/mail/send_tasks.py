"""The Celery tasks that deliver outbox rows, and the helpers that enqueue them (after the commit).

    outbox.py stores a row -> on commit: mail.send_notification(id)
        (a reminders run's rows: mail.send_notifications(ids), a batch of those due in one second)
      -> delivery.py sends it once (row lock) or marks it skipped.

The outbox enqueues these for every row it stores, so they sit below it, just above the delivery they
call; the other mail tasks (tasks.py) are entry points at the top of games.mail and nothing imports them
but the signal receivers. Each send task takes its row's kind's priority (priorities.py) when enqueued.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from . import delivery
from .models import Notification
from .priorities import send_priority
from .task_options import mail_task

logger = logging.getLogger(__name__)

RETRY_BACKOFF = (30, 120, 600, 1800)  # seconds before attempts 2..5


@mail_task("mail.send_notification", time_limit=60, soft_time_limit=50, bind=True, max_retries=len(RETRY_BACKOFF))
def send_notification(self, notification_id: int) -> str:
    """Send one outbox row once; retried with back-off when the mail backend fails."""
    try:
        status = delivery.notification_send(notification_id=notification_id)
        if status == delivery.POSTPONED:
            postponed_enqueue(notification_id)
        return status
    except Exception as exc:  # the backend's errors vary by provider; all are worth a retry
        final = self.request.retries >= self.max_retries
        delivery.notification_failed(notification_id=notification_id, error=repr(exc), final=final)
        if final:
            return "failed"
        raise self.retry(exc=exc, countdown=RETRY_BACKOFF[self.request.retries])


@mail_task("mail.send_notifications", time_limit=60, soft_time_limit=50)
def send_notifications(notification_ids: list[int]) -> int:
    """Send a batch of outbox rows due at the same time (sends_enqueue_on_commit: a reminders run's rows,
    SEND_BATCH a task); one whose send fails is retried alone by send_notification, with its back-off.
    Redelivered after a crash, it sends only the rows still pending (each row is locked and marked)."""
    def retry_alone(pk: int) -> None:
        kind = Notification.objects.filter(pk=pk).values_list("kind", flat=True).first()
        if kind is not None:
            send_task_enqueue(pk, kind, countdown=RETRY_BACKOFF[0], retries=1)

    return delivery.notifications_send(notification_ids, retry_alone=retry_alone, later=postponed_enqueue)


def postponed_enqueue(notification_id: int) -> None:
    """A row that now waits (the player on the game's page, or in their quiet hours: delivery.py) gets its
    send task again for its new ``not_before``; if this is lost the outbox sweep sends it once due."""
    row = Notification.objects.filter(pk=notification_id).values_list("kind", "not_before").first()
    if row is None or send_notification.app.conf.task_always_eager:
        return  # eager: no countdown can be held; the outbox sweep (beat_embedded) sends it when due
    try:
        send_task_enqueue(notification_id, row[0], countdown=_countdown(row[1]))
    except Exception:
        logger.warning("could not enqueue mail %s; the outbox sweep will", notification_id, exc_info=True)


def send_task_enqueue(notification_id: int, kind: str, *, countdown: float | None = None, producer=None,
                      retries: int = 0) -> None:
    """Enqueue the send task of one outbox row at its kind's priority (priorities.py); ``retries``: the
    attempts made already (a row retried after its batch task failed to send it)."""
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
