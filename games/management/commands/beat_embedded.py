"""Run every periodic task of CELERY_BEAT_SCHEDULE in this process: the embedded mode's stand-in for beat.

Without a broker the tasks run in-process anyway (CELERY_TASK_ALWAYS_EAGER), so one loop that calls each
scheduled task at its interval gives the embedded server the same deadlines, reminders, digests and
tournament sweeps as production's `celery beat`, and a task added to the schedule needs nothing here.
"""

import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from faltisia.celery import app


class Command(BaseCommand):
    help = "Run the periodic tasks of CELERY_BEAT_SCHEDULE in-process, once or forever."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="run every scheduled task once, then exit")

    def handle(self, *args, once: bool, **options):
        app.loader.import_default_modules()  # every app's tasks module, as a worker imports them at start
        schedule = settings.CELERY_BEAT_SCHEDULE
        due_at = {name: 0.0 for name in schedule}
        while True:
            for name, entry in schedule.items():
                if time.monotonic() < due_at[name]:
                    continue
                try:
                    app.tasks[entry["task"]].apply(throw=True)  # runs the task here, now
                except Exception as e:  # keep going: one broken task must not stop the others
                    self.stderr.write(f"{name} failed: {e!r}")
                due_at[name] = time.monotonic() + float(entry["schedule"])
            if once:
                return
            time.sleep(max(0.2, min(due_at.values()) - time.monotonic()))
            # A long-lived process: drop connections the database closed meanwhile (between rounds only,
            # never inside a caller's transaction, as in --once from a test or a script).
            close_old_connections()
