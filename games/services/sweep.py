"""The deadline sweep: find steps that are due (a deadline passed) or complete but left unresolved.

Both queries go through partial indexes (open prompts by deadline; games with a resolve request), so
a sweep costs in proportion to the due steps, not to the number of games.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Callable

from django.conf import settings
from django.utils import timezone

from ..models import Game, GameStatus, Prompt


def due_phases(*, now: datetime | None = None, limit: int = 500) -> list[tuple[int, int]]:
    """(game id, phase) pairs to resolve now."""
    now = now or timezone.now()
    due = set(Prompt.objects.filter(closed_at__isnull=True, deadline__lte=now, game__status=GameStatus.ACTIVE)
              .values_list("game_id", "game__phase")[:limit])
    grace = now - timedelta(seconds=settings.RESOLVE_GRACE_SECONDS)
    due |= set(Game.objects.filter(resolve_requested_at__lte=grace, status=GameStatus.ACTIVE)
               .values_list("id", "phase")[:limit])
    return sorted(due)


def due_phases_sweep(*, resolve: Callable[[int, int], object], now: datetime | None = None) -> int:
    """Hand every due (game, phase) to ``resolve`` (enqueue a task, or resolve in-process)."""
    pairs = due_phases(now=now)
    for game_id, phase in pairs:
        resolve(game_id, phase)
    return len(pairs)
