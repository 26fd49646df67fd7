"""The deadline sweep: find steps that are due (a deadline passed) or complete but left unresolved.

Both queries go through partial indexes (open prompts by deadline; games with a resolve request), so
a sweep costs in proportion to the due steps, not to the number of games.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Callable

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from ..models import Game, GameStatus, Prompt

logger = logging.getLogger(__name__)


def due_prompt_games(*, now: datetime, grace: datetime, limit: int = 500):
    """(game id, phase) of the active games with an open prompt whose deadline has passed.

    In deadline order with a limit, so the plan is a walk of the partial index prompt_open_deadline (its
    predicate, ``closed_at IS NULL``, repeated) in index order, each game read by key, stopping at the
    limit, whatever the planner estimates. Without the order, closed prompts (all with past deadlines)
    can fool its estimate of ``deadline <= now`` into a scan of every prompt row.
    """
    # A game whose resolution was asked for less than a grace period ago has its task on the way.
    not_just_requested = Q(game__resolve_requested_at__isnull=True) | Q(game__resolve_requested_at__lte=grace)
    return (Prompt.objects.filter(closed_at__isnull=True, deadline__lte=now, game__status=GameStatus.ACTIVE)
            .filter(not_just_requested).order_by("deadline").values_list("game_id", "game__phase")[:limit])


def due_phases(*, now: datetime | None = None, limit: int = 500) -> list[tuple[int, int]]:
    """(game id, phase) pairs to resolve now."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=settings.RESOLVE_GRACE_SECONDS)
    due = set(due_prompt_games(now=now, grace=grace, limit=limit))
    due |= set(Game.objects.filter(resolve_requested_at__lte=grace, status=GameStatus.ACTIVE)
               .values_list("id", "phase")[:limit])
    return sorted(due)


def due_phases_sweep(*, resolve: Callable[[int, int], object], now: datetime | None = None) -> int:
    """Hand every due (game, phase) to ``resolve`` (enqueue a task, or resolve in-process)."""
    now = now or timezone.now()
    pairs = due_phases(now=now)
    # Stamp the request, so the sweeps of the next grace period leave these games to this task instead
    # of queueing one more duplicate every interval while the worker is busy (each duplicate waits for
    # the game's row lock, then finds nothing to do). The resolution clears the stamp.
    Game.objects.filter(id__in=[game_id for game_id, _ in pairs]).update(resolve_requested_at=now)
    for game_id, phase in pairs:
        try:
            resolve(game_id, phase)
        except Exception:
            # One broken game (a corrupt clock or state) must not hold back every other due game: it is
            # logged and retried after the grace period, the others resolve on time.
            # Where resolve runs in-process (embedded mode) its transaction has rolled back by now.
            logger.exception("sweep: resolving game %s phase %s failed; skipped this round", game_id, phase)
    return len(pairs)
