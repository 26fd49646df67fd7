"""Public pages: the tournaments index, a tournament's standings and rounds, the leaderboards; and the
players' buttons on them (register, withdraw, propose) and staff's one-click approval.

Every write goes through the same services as the JSON API, so the rules are enforced in one place.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from ..engines.registry import game_name, slugs
from ..errors import GameError
from ..ratings.selectors import leaderboard
from .forms import TournamentProposalForm
from .models import Entry, Tournament, TournamentStatus
from .selectors import (proposals_for, tournament_rounds, tournament_shown_to, tournament_standings,
                        tournaments_visible)
from .services import tournament_approve, tournament_propose, tournament_register, tournament_withdraw


def _tournament_for(request, tournament_id: int) -> Tournament:
    t = get_object_or_404(Tournament.objects.select_related("proposed_by"), pk=tournament_id)
    if not tournament_shown_to(tournament=t, user=request.user):
        raise Http404("No such tournament.")  # an unapproved proposal is nobody else's business
    return t


@require_GET
def tournaments_index(request):
    listed = list(tournaments_visible()[:300])
    mine = (set(Entry.objects.filter(user=request.user, tournament__in=listed).values_list("tournament_id", flat=True))
            if request.user.is_authenticated else set())
    for t in listed:
        t.game_name, t.is_mine = game_name(t.engine), t.pk in mine
    proposals = list(proposals_for(user=request.user))
    for t in proposals:
        t.game_name = game_name(t.engine)
    return render(request, "tournaments/index.html", {
        "open": [t for t in listed if t.status == TournamentStatus.REGISTRATION],
        "running": [t for t in listed if t.status == TournamentStatus.RUNNING],
        "finished": [t for t in listed if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)],
        "proposals": proposals})


@require_GET
def tournament_page(request, tournament_id: int):
    t = _tournament_for(request, tournament_id)
    entry = (Entry.objects.filter(tournament=t, user=request.user).first()
             if request.user.is_authenticated else None)
    return render(request, "tournaments/tournament.html", {
        "tournament": t, "game_name": game_name(t.engine), "entry": entry,
        "standings": tournament_standings(tournament=t), "rounds": tournament_rounds(tournament=t)})


def _act(request, t: Tournament, action, done: str):
    try:
        action()
    except GameError as e:
        messages.error(request, f"Not done: {e.detail}.")
    else:
        messages.success(request, done)
    return redirect("tournament-page", tournament_id=t.pk)


@login_required
@require_POST
def tournament_register_view(request, tournament_id: int):
    t = _tournament_for(request, tournament_id)
    return _act(request, t, lambda: tournament_register(tournament=t, user=request.user),
                f"You are registered for {t.name}. You will get a mail when your first game starts.")


@login_required
@require_POST
def tournament_withdraw_view(request, tournament_id: int):
    t = _tournament_for(request, tournament_id)
    done = ("You have withdrawn." if t.status == TournamentStatus.REGISTRATION
            else "You have left the tournament; your points so far stay in the standings.")
    return _act(request, t, lambda: tournament_withdraw(tournament=t, user=request.user), done)


@login_required
@require_POST
def tournament_approve_view(request, tournament_id: int):
    if not request.user.is_staff:
        raise Http404("No such page.")
    t = _tournament_for(request, tournament_id)
    return _act(request, t, lambda: tournament_approve(tournament=t, by=request.user),
                f"{t.name} is approved and open for registration; you are its director.")


@login_required
def tournament_propose_view(request):
    form = TournamentProposalForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = tournament_propose(proposed_by=request.user, **form.proposal())
        except GameError as e:
            form.add_error(None, e.detail)
        else:
            messages.success(request, "Thank you: your proposal is waiting for a staff member's approval. "
                                      "Once approved it opens for registration.")
            return redirect("tournament-page", tournament_id=t.pk)
    return render(request, "tournaments/propose.html", {"form": form})


@require_GET
def leaderboard_page(request):
    games = [(slug, game_name(slug)) for slug in slugs()]
    game = request.GET.get("game") or "faltisia"
    if game not in dict(games):
        raise Http404("No such game.")
    return render(request, "ratings/leaderboard.html", {
        "game": game, "game_name": game_name(game), "games": games, "rows": leaderboard(engine=game)})
