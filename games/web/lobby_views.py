"""Lobby pages: home (my games, open games, games to watch), create, join, invite."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.errors import GameError
from games.models import Game, GameStatus
from games.services import game_create, game_join

from .forms import GameCreateForm, InviteEmailForm
from games.invites import InviteError, game_title, invite_email_send, invite_game, invite_url
from .selectors import my_games, open_games, viewer_for, watchable_games


def lobby(request):
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html", {"watchable": watchable_games(user=None)})
    mine = my_games(user=request.user)
    return render(request, "web/lobby.html", {
        "waiting": [e for e in mine if e.waiting_for_me],
        "mine": [e for e in mine if not e.waiting_for_me],
        "open_games": open_games(user=request.user),
        "watchable": watchable_games(user=request.user),
    })


@login_required
def game_new(request):
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            game = game_create(created_by=request.user, engine=d["game"], players=d["seats"],
                               options=form.game_options(), clock=form.clock_settings(),
                               is_public=d["is_public"], bots=d["bots"] or 0, rated=d["rated"],
                               press=d["press"])
        except GameError as e:
            form.add_error(None, e.detail)
        else:
            if game.status == GameStatus.OPEN:
                messages.success(request, "Game created. Share the invite link below so others can join.")
            return redirect("web:game", game_id=game.pk)
    return render(request, "web/game_new.html", {"form": form})


def _join(request, game: Game):
    try:
        seat = game_join(game=game, user=request.user)
    except GameError as e:
        messages.error(request, f"You could not join: {e.detail}.")
        return redirect("web:lobby")
    game.refresh_from_db()
    if game.status == GameStatus.ACTIVE:
        messages.success(request, f"You took seat {seat.position + 1}. Every seat is taken: the game has begun!")
    else:
        messages.success(request, f"You took seat {seat.position + 1}. The game starts when every seat is taken.")
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def game_join_view(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    viewer_for(game=game, user=request.user)  # a private game is joined only through its invite link
    return _join(request, game)


@login_required
def invite_accept(request, token: str):
    try:
        game = invite_game(token=token)
    except InviteError as e:
        return render(request, "web/invite_invalid.html", {"error": str(e)}, status=400)
    if request.method == "POST":
        return _join(request, game)
    seated = game.seats.filter(user=request.user).exists()
    return render(request, "web/invite.html", {
        "game": game, "title": game_title(game), "seated": seated,
        "free": game.seats.filter(user__isnull=True, is_bot=False).count(),
        "players": [s.user.username for s in game.seats.select_related("user") if s.user]})


@login_required
def game_invite(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    viewer = viewer_for(game=game, user=request.user)
    if not viewer.is_player:
        messages.error(request, "Only players of this game can invite others.")
        return redirect("web:game", game_id=game.pk)
    form = InviteEmailForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invite_email_send(game=game, by=request.user, to=form.cleaned_data["email"],
                          note=form.cleaned_data["note"], base_url=request.build_absolute_uri("/"))
        messages.success(request, f"Invitation sent to {form.cleaned_data['email']}.")
        return redirect("web:game-invite", game_id=game.pk)
    return render(request, "web/game_invite.html", {
        "game": game, "title": game_title(game), "form": form,
        "link": invite_url(game=game, base_url=request.build_absolute_uri("/"))})
