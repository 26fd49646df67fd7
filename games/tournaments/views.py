"""Public pages: a tournament's standings and rounds, and the leaderboard."""

from django.shortcuts import get_object_or_404, render

from ..ratings.selectors import leaderboard
from .models import Tournament
from .selectors import tournament_rounds, tournament_standings


def tournament_page(request, tournament_id: int):
    t = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/tournament.html", {
        "tournament": t, "standings": tournament_standings(tournament=t), "rounds": tournament_rounds(tournament=t)})


def leaderboard_page(request):
    game = request.GET.get("game") or "faltisia"
    return render(request, "ratings/leaderboard.html", {"game": game, "rows": leaderboard(engine=game)})
