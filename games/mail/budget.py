"""A periodic run's time budget: the run checks it after each batch and leaves the rest to the next run
(or its continuation), so one run never holds the mail worker for long."""

from __future__ import annotations

import time


class TimeBudget:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = time.monotonic()

    def spent(self) -> bool:
        """True once ``seconds`` have passed since the run started; never with 0 (no budget)."""
        return bool(self.seconds) and time.monotonic() - self.started >= self.seconds
