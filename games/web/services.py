"""Writes behind the lobby pages that combine services of other layers in one transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from games.models import Game
from games.ratings.services import game_rated_set
from games.services import game_create


@transaction.atomic
def lobby_game_create(*, created_by: User, engine: str, players: int, options: dict[str, Any],
                      clock: dict[str, Any], is_public: bool, bots: int, rated: bool) -> Game:
    """Create a game from the lobby's form; a rated one is marked in the same transaction.

    One transaction, so a game is never left half made (created but not marked rated) and a game
    that bots start at once is rated from its first step.
    """
    game = game_create(created_by=created_by, engine=engine, players=players, options=options, clock=clock,
                       is_public=is_public, bots=bots)
    if rated:
        game = game_rated_set(game=game, rated=True)
    return game
