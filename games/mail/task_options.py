"""The options every mail task shares, in one decorator (the tasks are in tasks.py and send_tasks.py).

- The name starts with ``mail.``: CELERY_TASK_ROUTES sends ``mail.*`` to the mail queue, so a resolution
  never waits behind rendering or sending mail.
- Acknowledged only after it ran, and re-queued if its worker dies: every mail task is idempotent
  through the outbox's dedupe keys and row locks, so running one twice sends nothing twice, while losing
  one leaves a mail to the next sweep.
- No result is stored: nothing reads one.
- A time limit, so a hung provider or render frees its worker; the hard limit kills what the soft limit
  (SoftTimeLimitExceeded) did not stop.
- ``priority`` (priorities.py): TIME_BOUND or NEWS; None for the send tasks, which take their row's kind's
  priority when enqueued.
"""

from __future__ import annotations

from celery import shared_task


def mail_task(name: str, *, priority: int | None = None, time_limit: int = 120, soft_time_limit: int = 100,
              **options):
    """``shared_task`` with the mail tasks' shared options; ``options`` are passed on (bind, max_retries)."""
    if not name.startswith("mail."):
        raise ValueError(f"{name!r}: a mail task's name starts with 'mail.' (its route to the mail queue)")
    return shared_task(name=name, priority=priority, acks_late=True, reject_on_worker_lost=True,
                       time_limit=time_limit, soft_time_limit=soft_time_limit, ignore_result=True, **options)
