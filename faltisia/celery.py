"""The Celery app: configured from Django settings (CELERY_* names), tasks found in each app's tasks.py."""

import os

from celery import Celery
from celery.signals import task_prerun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.settings")

app = Celery("faltisia")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
def _database_connection_checked(sender=None, task=None, **kwargs) -> None:
    """Before a task, what Django does before a request: drop a connection that is broken or older than
    CONN_MAX_AGE (Celery's own fixup reuses it for CELERY_DB_REUSE_MAX tasks without looking). Not for an
    eager task: it runs inside its caller's transaction."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect
def _loaded_objects_frozen(**kwargs) -> None:
    """A pool process starts with the app and every task module loaded: the collector need not walk them
    (faltisia/memory.py)."""
    from faltisia.memory import loaded_objects_freeze

    loaded_objects_freeze(urls=True)
