"""Hooks on the games' signals: rate a finished tournament game, count it, seat the next round."""

from __future__ import annotations

import logging

from django.dispatch import receiver

from ..signals import game_abandoned, game_finished

logger = logging.getLogger(__name__)


@receiver(game_finished, dispatch_uid="tournaments.game_finished")
def on_game_finished(sender, game, **kwargs) -> None:
    from ..ratings.services import ratings_update_for_game
    from .models import Table
    from .services import tournament_game_over

    table = Table.objects.filter(game_id=game.pk).select_related("round__tournament").first()
    if table is None:
        return
    if table.round.tournament.rated:
        ratings_update_for_game(game=game)  # once per game: RatedGame's one-to-one guarantees it
    tournament_game_over(game=game)


@receiver(game_abandoned, dispatch_uid="tournaments.game_abandoned")
def on_game_abandoned(sender, game, **kwargs) -> None:
    from .services import tournament_game_over

    tournament_game_over(game=game)
