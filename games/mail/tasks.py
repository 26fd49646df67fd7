"""Thin Celery entry points of the email layer: take ids, call a service, return quietly."""

from __future__ import annotations

from celery import shared_task

from . import notify, outbox

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


@shared_task(name="mail.send_due_reminders", time_limit=120, soft_time_limit=100, ignore_result=True)
def send_due_reminders() -> int:
    """Beat: queue due deadline reminders, and re-enqueue outbox rows whose task was lost."""
    queued = notify.reminders_due_queue()
    outbox.outbox_sweep(enqueue=lambda pk: send_notification.apply_async(args=(pk,), retry=False))
    return queued


@shared_task(name="mail.send_digests", time_limit=600, soft_time_limit=550, ignore_result=True)
def send_digests() -> int:
    """Beat (hourly): each digest reader gets at most one digest a day."""
    return notify.digests_queue()
