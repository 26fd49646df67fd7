"""Which games an API caller may reach: the one rule every /api/games/{id}/... route applies.

A game the caller may not see (a private game without a seat of theirs, for anyone but staff) answers
404 with exactly the body of an unknown id, so no outsider learns that a private game exists.
Ids beyond the 64-bit range are unknown ids too: the hand-written SQL of the read and write paths must never
receive them (SQLite raises OverflowError on them: a 500).
"""

from __future__ import annotations

from django.http import Http404

from accounts.models import User
from games.errors import ErrorCode, GameError
from games.models import Game
from games.selectors import game_visible_to, seat_for_user
from games.invites import InviteError, invite_game

# The largest primary key a 64-bit signed integer column (PostgreSQL bigint, SQLite INTEGER) can hold.
GAME_ID_MAX = 2 ** 63 - 1


def game_id_or_404(game_id: int) -> int:
    """``game_id`` if a game could have it; Http404 (an unknown game) otherwise."""
    if not 0 < game_id <= GAME_ID_MAX:
        raise Http404
    return game_id


def visible_game_or_404(*, game_id: int, user: User) -> Game:
    """The game, if ``user`` may see it; Http404, as for an unknown id, if not."""
    game = Game.objects.filter(pk=game_id_or_404(game_id)).first()
    if game is None or not game_visible_to(game=game, user=user):
        raise Http404  # a private game's existence is not disclosed
    return game


def refuse_unless_visible(*, game_id: int, user: User, error: GameError) -> None:
    """Re-raise ``error`` to a caller who may see the game; Http404 to anyone else.

    For routes that skip the visibility read on their fast path (a pick finds the seat inside its own
    locked read) and learn only on failure that the caller has no seat.
    """
    visible_game_or_404(game_id=game_id, user=user)
    raise error


def joinable_game_or_404(*, game_id: int, user: User, invite: str | None) -> Game:
    """The game ``user`` may take a seat in: a public one, one they already sit at, or a private one
    named by ``invite`` (the token of the invite link, games.invites). Anyone else gets the
    404 of an unknown game, staff included unless they hold the invite (the web's rule too)."""
    game = Game.objects.filter(pk=game_id_or_404(game_id)).first()
    if game is None:
        raise Http404
    if game.is_public or seat_for_user(game=game, user=user) is not None or _invites_to(invite, game):
        return game
    if user.is_staff:  # staff may see the game, so a 404 would contradict GET /api/games/{id}/
        raise GameError(ErrorCode.INVITE_REQUIRED, "a private game is joined with its invite")
    raise Http404  # a private game's existence is not disclosed


def _invites_to(invite: str | None, game: Game) -> bool:
    if not invite:
        return False
    try:
        return invite_game(token=invite).pk == game.pk
    except InviteError:
        return False
