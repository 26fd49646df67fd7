"""The mail beat in-process: once, or forever with --loop (the embedded mode has no Celery beat).

Each round queues due reminders, the prompt emails whose task was lost, held-back follow-up prompts
once due (and lost sends), and the daily digests; the same tasks beat runs in production.
"""

import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from games.mail.tasks import send_digests, send_due_reminders


class Command(BaseCommand):
    help = "Send due reminders, missing and held-back prompt emails, lost sends and digests."

    def add_arguments(self, parser):
        parser.add_argument("--loop", type=float, default=0, help="repeat every N seconds (0: run once)")

    def handle(self, *args, loop: float, **options):
        while True:
            try:
                reminders = send_due_reminders()
                digests = send_digests()
            except Exception as e:  # keep sweeping: a broken row must not stop everyone's mail
                self.stderr.write(f"mail sweep failed: {e!r}")
                reminders = digests = 0
            if reminders or digests:
                self.stdout.write(f"queued {reminders} reminder(s), {digests} digest(s)")
            if not loop:
                return
            time.sleep(loop)
            close_old_connections()  # a long-lived process: drop connections the database closed meanwhile
