"""Hooks on the games' signals: count a finished tournament game, seat the next round.

Rating is not done here: a table's game carries the tournament's rated setting (Game.rated) and
games.ratings.receivers rates every finished rated game, tournament or not. INSTALLED_APPS lists
ratings before tournaments, so a game is rated before its round's next tables are seated.
"""

from __future__ import annotations

import logging

from django.dispatch import receiver

from ..signals import game_abandoned, game_finished

logger = logging.getLogger(__name__)


@receiver(game_finished, dispatch_uid="tournaments.game_finished")
def on_game_finished(sender, game, **kwargs) -> None:
    from .services import tournament_game_over

    tournament_game_over(game=game)


@receiver(game_abandoned, dispatch_uid="tournaments.game_abandoned")
def on_game_abandoned(sender, game, **kwargs) -> None:
    from .services import tournament_game_over

    tournament_game_over(game=game)
