"""Thin Celery entry points of the email layer: take ids, call a service, return quietly.

The queue_* tasks are what the games signals turn into (receivers.py): they render and store the
emails in a worker, so a pick's HTTP request never pays for it. Each is idempotent through the
outbox's dedupe keys, so running one twice (acks_late redelivery, the sweep) sends nothing twice.
"""

from __future__ import annotations

import logging

from celery import shared_task

from . import notify, outbox

logger = logging.getLogger(__name__)

RETRY_BACKOFF = (30, 120, 600, 1800)  # seconds before attempts 2..5


@shared_task(name="mail.send_notification", bind=True, max_retries=len(RETRY_BACKOFF), acks_late=True,
             reject_on_worker_lost=True, time_limit=60, soft_time_limit=50, ignore_result=True)
def send_notification(self, notification_id: int) -> str:
    """Send one outbox row once; retried with back-off when the mail backend fails."""
    try:
        return outbox.notification_send(notification_id=notification_id)
    except Exception as exc:  # the backend's errors vary by provider; all are worth a retry
        final = self.request.retries >= self.max_retries
        outbox.notification_failed(notification_id=notification_id, error=repr(exc), final=final)
        if final:
            return "failed"
        raise self.retry(exc=exc, countdown=RETRY_BACKOFF[self.request.retries])


@shared_task(name="mail.queue_prompt_notification", acks_late=True, reject_on_worker_lost=True,
             time_limit=60, soft_time_limit=50, ignore_result=True)
def queue_prompt_notification(prompt_id: int) -> bool:
    """Render and store the email of a newly opened prompt (none if closed, a bot's, or opted out)."""
    return notify.prompt_notification_queue(prompt_id=prompt_id) is not None


@shared_task(name="mail.queue_result_notifications", acks_late=True, reject_on_worker_lost=True,
             time_limit=120, soft_time_limit=100, ignore_result=True)
def queue_result_notifications(game_id: int, phase: int, event_ids: list[int]) -> int:
    """Render and store each result reader's email about a resolved step."""
    return notify.result_notifications_queue(game_id=game_id, phase=phase, event_ids=event_ids)


@shared_task(name="mail.queue_finished_notifications", acks_late=True, reject_on_worker_lost=True,
             time_limit=120, soft_time_limit=100, ignore_result=True)
def queue_finished_notifications(game_id: int) -> int:
    """Render and store each player's game-over email."""
    return notify.finished_notifications_queue(game_id=game_id)


def _enqueue_prompt(prompt_id: int) -> None:
    queue_prompt_notification.apply_async(args=(prompt_id,), retry=False)


@shared_task(name="mail.send_due_reminders", time_limit=120, soft_time_limit=100, ignore_result=True)
def send_due_reminders() -> int:
    """Beat: queue due deadline reminders, the prompt emails whose task was lost, and re-enqueue
    outbox rows whose send task was lost (delayed rows only once due)."""
    queued = notify.reminders_due_queue()
    notify.missing_prompt_notifications_queue(enqueue=_enqueue_prompt)
    outbox.outbox_sweep(enqueue=lambda pk: send_notification.apply_async(args=(pk,), retry=False))
    return queued


@shared_task(name="mail.send_digests", time_limit=600, soft_time_limit=550, ignore_result=True)
def send_digests() -> int:
    """Beat (hourly): each digest reader gets at most one digest a day."""
    return notify.digests_queue()
