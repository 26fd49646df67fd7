"""Queue routing (faltisia/settings.py CELERY_TASK_ROUTES): every email task goes to the "mail" queue,
served by a worker of its own (Procfile `mailworker`), so a step's resolution never waits behind mail;
the game tasks stay on the default queue that the main worker consumes."""

import faltisia.celery  # noqa: F401  (registers the app and autodiscovers every app's tasks)
from celery import current_app


def queue_of(task_name: str) -> str:
    return current_app.amqp.router.route({}, task_name)["queue"].name


def test_every_mail_task_is_routed_to_the_mail_queue():
    current_app.loader.import_default_modules()
    mail_tasks = sorted(name for name in current_app.tasks if name.startswith("mail."))
    assert {"mail.send_notification", "mail.queue_prompt_notifications", "mail.sweep_prompt_notifications"} <= set(mail_tasks)
    assert {name: queue_of(name) for name in mail_tasks} == {name: "mail" for name in mail_tasks}


def test_game_tasks_stay_on_the_default_queue():
    default = current_app.conf.task_default_queue
    for name in ("games.resolve_phase", "games.sweep_due_phases", "tournaments.close_registrations"):
        assert queue_of(name) == default == "celery"
