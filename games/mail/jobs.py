"""Mail jobs: the emails a write owes, recorded in its transaction and run exactly once.

    resolution / finish --in the write's transaction--> MailJob row (pending)
      --on commit--> its queue task (tasks.queue_result_notifications / queue_finished_notifications)
      --> claim the row (SELECT ... FOR UPDATE SKIP LOCKED), queue its emails (Notification rows),
          mark it done: all in one transaction.

A lost task (broker flushed, worker killed, database restarted) leaves the row pending; the job sweep
(beat, every MAIL_JOB_SWEEP_SECONDS) runs the rows due for over the sweep grace, through the partial
index on pending rows, so its cost grows with the work left to do, not with the games played. A job that
raises is retried with back-off and given up (logged, status failed) after MAX_JOB_ATTEMPTS. Several
workers may run jobs at once: the row lock lets one run a job, the others skip it, and the
Notification dedupe keys would stop a second run from sending anything twice anyway.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.models import Game

from . import finished_mails, result_mails
from .budget import TimeBudget
from .models import MailJob, MailJobKind, MailJobStatus
from .outbox import sweep_grace

logger = logging.getLogger(__name__)

MAX_JOB_ATTEMPTS = 8
MAX_BACKOFF = timedelta(hours=6)
SWEEP_BATCH = 200  # jobs run by one sweep; the next sweep takes the rest


def job_record(*, kind: str, game: Game, phase: int | None = None, event_ids: Sequence[int] = ()) -> MailJob:
    """Record, in the caller's (the write's) transaction, that it owes the emails of ``kind``."""
    return MailJob.objects.create(kind=kind, game=game, phase=phase, event_ids=list(event_ids),
                                  due_at=timezone.now() + sweep_grace())


def _emails_queue(job: MailJob) -> int:
    if job.kind == MailJobKind.RESULT:
        return result_mails.result_notifications_queue(game_id=job.game_id, phase=job.phase, event_ids=job.event_ids)
    return finished_mails.finished_notifications_queue(game_id=job.game_id)


def _failure_record(job_id: int, exc: Exception) -> None:
    """Count a failed run: due again after a back-off, or failed for good after MAX_JOB_ATTEMPTS."""
    with transaction.atomic():
        job = MailJob.objects.select_for_update().filter(pk=job_id, status=MailJobStatus.PENDING).first()
        if job is None:
            return
        job.attempts += 1
        job.last_error = repr(exc)[:2000]
        if job.attempts >= MAX_JOB_ATTEMPTS:
            job.status = MailJobStatus.FAILED
            logger.error("mail job %s (%s) failed %s times; given up", job.pk, job, job.attempts)
        else:
            job.due_at = timezone.now() + min(sweep_grace() * 2 ** job.attempts, MAX_BACKOFF)
        job.save(update_fields=["attempts", "last_error", "status", "due_at"])


def _run(jobs: QuerySet) -> int | None:
    """Claim the first pending job of ``jobs``, queue its emails and mark it done, in one transaction.

    Returns how many emails were queued, or None if no job was claimed (none pending, or another worker
    holds it: SKIP LOCKED; SQLite has no row locks and serialises writers anyway). A job that raises is
    rolled back with everything it queued, counted as a failed attempt and left to the sweep.
    """
    job_id = None
    try:
        with transaction.atomic():
            job = jobs.filter(status=MailJobStatus.PENDING).select_for_update(skip_locked=True).order_by("pk").first()
            if job is None:
                return None
            job_id = job.pk
            queued = _emails_queue(job)
            job.status, job.done_at, job.attempts = MailJobStatus.DONE, timezone.now(), job.attempts + 1
            job.save(update_fields=["status", "done_at", "attempts"])
            return queued
    except Exception as exc:
        if job_id is None:
            raise  # the claim itself failed (the database is away): nothing to record
        logger.error("mail job %s failed; the job sweep retries it", job_id, exc_info=exc)
        _failure_record(job_id, exc)
        return None


def write_job_run(*, kind: str, game_id: int, phase: int | None = None) -> int | None:
    """The enqueued task's side: run the job its write recorded (found by what the task's message
    carries); None if it is done, failed or being run by another worker."""
    return _run(MailJob.objects.filter(game_id=game_id, kind=kind, phase=phase))


def job_recorded(*, kind: str, game_id: int, phase: int | None = None) -> bool:
    return MailJob.objects.filter(game_id=game_id, kind=kind, phase=phase).exists()


def due_jobs(*, now: datetime):
    """Pending jobs whose task had the grace to run (or whose back-off passed), oldest first; the
    partial index mail_job_pending answers this."""
    return MailJob.objects.filter(status=MailJobStatus.PENDING, due_at__lte=now).order_by("due_at")


def sweep_budget_seconds() -> float:
    """How long one job sweep works: a twentieth of its period, so that with the job that crosses it a
    run stays under a tenth. Under a burst of mail the jobs it finds due are mostly not lost but waiting
    in the mail queue behind time-bound mail (priorities.py): their own tasks or the next sweep take the
    rest, and the sweep never holds the mail worker for long."""
    return float(settings.MAIL_JOB_SWEEP_SECONDS) / 20


def jobs_sweep(*, now: datetime | None = None, budget_seconds: float | None = None) -> int:
    """The job sweep (beat): run the due pending jobs, at most SWEEP_BATCH, oldest first, until
    ``budget_seconds`` (None: sweep_budget_seconds(); 0: no budget) have passed after a job; returns how
    many ran."""
    budget = TimeBudget(sweep_budget_seconds() if budget_seconds is None else budget_seconds)
    ids = list(due_jobs(now=now or timezone.now()).values_list("pk", flat=True)[:SWEEP_BATCH])
    ran = 0
    for pk in ids:
        ran += _run(MailJob.objects.filter(pk=pk)) is not None
        if budget.spent():
            break
    if ran:
        logger.warning("mail job sweep: ran %s job(s) whose task was lost or failed", ran)
    return ran
