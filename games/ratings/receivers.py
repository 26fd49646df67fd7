"""Hook on the games' signals: a finished rated game moves its players' ratings (once)."""

from __future__ import annotations

from django.dispatch import receiver

from ..signals import game_finished


@receiver(game_finished, dispatch_uid="ratings.game_finished")
def on_game_finished(sender, game, **kwargs) -> None:
    from .services import ratings_update_for_game

    # Reads Game.rated from the locked row, so the instance in the signal may be stale; the
    # RatedGame one-to-one makes a repeated signal harmless.
    ratings_update_for_game(game=game)
