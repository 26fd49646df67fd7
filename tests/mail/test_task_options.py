"""Every mail task's effective Celery options (games/mail/task_options.py, mail_task): the queue it is
routed to, its priority, its delivery guarantees, its retries and its time limits. A new mail task fails
here until it is added to the table."""

from __future__ import annotations

import inspect

from celery import current_app

import faltisia.celery  # noqa: F401  (registers the app and autodiscovers every app's tasks)
from games.mail.priorities import NEWS, TIME_BOUND
from games.mail.send_tasks import RETRY_BACKOFF

# name -> (priority, time_limit, soft_time_limit, bound, max_retries)
EXPECTED = {
    "mail.queue_prompt_notifications": (TIME_BOUND, 120, 100, False, 3),
    "mail.queue_prompt_notification": (TIME_BOUND, 60, 50, False, 3),
    "mail.queue_result_notifications": (NEWS, 120, 100, False, 3),
    "mail.queue_finished_notifications": (NEWS, 120, 100, False, 3),
    "mail.sweep_mail_jobs": (NEWS, 300, 270, False, 3),
    "mail.sweep_prompt_notifications": (TIME_BOUND, 120, 100, False, 3),
    "mail.send_due_reminders": (TIME_BOUND, 120, 100, False, 3),
    "mail.send_digests": (NEWS, 600, 550, False, 3),
    "mail.send_chat_batches": (NEWS, 120, 100, False, 3),
    "mail.prune_mail_records": (NEWS, 360, 300, False, 3),
    # The send tasks take their row's kind's priority when enqueued; send_notification retries itself.
    "mail.send_notification": (None, 60, 50, True, len(RETRY_BACKOFF)),
    "mail.send_notifications": (None, 60, 50, False, 3),
}


def _options(task) -> dict:
    route = current_app.amqp.router.route({}, task.name)
    return {
        "queue": route["queue"].name,
        "priority": task.priority,
        "acks_late": task.acks_late,
        "reject_on_worker_lost": task.reject_on_worker_lost,
        "ignore_result": task.ignore_result,
        "time_limit": task.time_limit,
        "soft_time_limit": task.soft_time_limit,
        "bound": not isinstance(inspect.getattr_static(type(task), "run"), staticmethod),
        "max_retries": task.max_retries,
        "autoretry_for": tuple(getattr(task, "autoretry_for", ())),
        "default_retry_delay": task.default_retry_delay,
        "rate_limit": task.rate_limit,
        "expires": task.expires,
        "serializer": task.serializer,
        "track_started": task.track_started,
    }


def _expected(priority, time_limit, soft_time_limit, bound, max_retries) -> dict:
    return {"queue": "mail", "priority": priority, "acks_late": True, "reject_on_worker_lost": True,
            "ignore_result": True, "time_limit": time_limit, "soft_time_limit": soft_time_limit, "bound": bound,
            "max_retries": max_retries, "autoretry_for": (), "default_retry_delay": 180, "rate_limit": None,
            "expires": None, "serializer": "json", "track_started": False}


def test_every_mail_task_has_its_options():
    current_app.loader.import_default_modules()
    actual = {name: _options(task) for name, task in current_app.tasks.items() if name.startswith("mail.")}
    assert actual == {name: _expected(*row) for name, row in EXPECTED.items()}
