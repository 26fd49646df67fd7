"""A player's public profile: ratings per game and recent finished games."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.models import User
from games.ratings.selectors import ratings_for_user
from games.engines.registry import game_name

from .selectors import player_recent_games


@require_GET
def player_profile(request, username: str):
    """Public, like the leaderboard that links here; private games show only to those who sat at them."""
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        raise Http404("No such player.")
    # Each game by its real name, as the leaderboard names it, not its slug.
    ratings = [{**r, "game_name": game_name(r["game"])} for r in ratings_for_user(user=player)]
    return render(request, "web/player.html", {
        "player": player, "ratings": ratings,
        "games": player_recent_games(player=player, viewer=request.user),
    })
