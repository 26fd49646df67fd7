"""The game's version (``Game.version``): what any caller of GET /api/games/{id}/ sees changes only with it.

It is the API's ETag, what a blocking GET waits on and what the web game page polls (games/web/selectors.py
``page_version``), so every write that can change a game, its seats, its open prompts or its event log (the
page shows the history) bumps it in its own transaction. ``turn_save`` does so for every write that goes
through a Turn (picks, resolutions, deadlines, standing orders, reclaims, most admin actions); the few
writes that save no Turn bump it themselves: with ``game.version += 1`` and "version" among the fields
they save, or with ``game_touch`` when they save no game field at all. turn_save and game_touch also announce
the change after the commit (games/version_events.py), which wakes the requests waiting for it at once; a
write that announces nothing is seen by them within a quarter of a second.
"""

from __future__ import annotations

from ..models import Game
from ..version_events import announce_on_commit


def game_touch(game: Game) -> None:
    """Bump and save the version of ``game``, whose row the caller holds locked (a write that changed only
    its seats or prompts: a join, an admin's deadline extension)."""
    game.version += 1
    game.save(update_fields=["version", "updated_at"])
    announce_on_commit(game.pk)
