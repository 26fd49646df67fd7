"""Side effects scheduled for after the commit: the resolve task and the notification signals.

Enqueueing never fails the write that scheduled it: if the broker is down the step stays marked
(Game.resolve_requested_at) and the periodic sweep resolves it once the broker is back.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

# The Celery task that resolves a step (games.tasks.resolve_phase). The tasks sit above the services (they call
# them), so they register it here when imported (GamesConfig.ready imports them in every process) instead of
# this layer importing the one above it.
_resolve_task: list = []


def resolve_task_register(task) -> None:
    _resolve_task[:] = [task]


def resolve_enqueue_on_commit(*, game_id: int, phase: int) -> None:
    def send() -> None:
        try:
            _resolve_task[0].apply_async(args=(game_id, phase), retry=False)
        except Exception:
            logger.warning("could not enqueue resolve(%s, %s); the sweep will resolve it",
                           game_id, phase, exc_info=True)

    transaction.on_commit(send)


def signal_on_commit(signal: Signal, **kwargs) -> None:
    """Send ``signal`` after the commit; a failing receiver is logged, never raised into the write."""

    def send() -> None:
        for receiver, result in signal.send_robust(sender=None, **kwargs):
            if isinstance(result, Exception):
                logger.error("receiver %r of %r failed", receiver, signal, exc_info=result)

    transaction.on_commit(send)
