"""Resolve due steps in-process: once, or forever with --loop (the embedded mode's stand-in for beat)."""

import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.template.defaultfilters import pluralize

from games.services import due_phases_sweep, phase_resolve


class Command(BaseCommand):
    help = "Resolve every step whose deadline passed or that is complete but unresolved."

    def add_arguments(self, parser):
        parser.add_argument("--loop", type=float, default=0, help="repeat every N seconds (0: run once)")

    def handle(self, *args, loop: float, **options):
        while True:
            close_old_connections()
            try:
                n = due_phases_sweep(resolve=lambda game_id, phase: phase_resolve(game_id=game_id, phase=phase))
            except Exception as e:  # keep sweeping: one broken game must not stop the others' deadlines
                self.stderr.write(f"sweep failed: {e!r}")
                n = 0
            if n:
                self.stdout.write(f"swept {n} due step{pluralize(n)}")
            if not loop:
                return
            time.sleep(loop)
