"""Writes: mark a game rated when it is created; move the ratings of a finished rated game, once."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from ..errors import ErrorCode, GameError
from ..models import Game, GameStatus, Seat
from .models import RatedGame, Rating

MODEL = PlackettLuce()


def _rating_row(user_id: int, engine: str) -> Rating:
    row = Rating.objects.select_for_update().filter(user_id=user_id, engine=engine).first()
    if row is None:
        fresh = MODEL.rating()
        row = Rating(user_id=user_id, engine=engine, mu=fresh.mu, sigma=fresh.sigma, ordinal=fresh.ordinal())
    return row


@transaction.atomic
def game_rated_set(*, game: Game, rated: bool) -> Game:
    """Say whether the game's result will move ratings; decided where the game is created.

    Callers: the lobby's create form and tournament tables, in the transaction that creates the game
    (a tournament table of bots may already be over by then; its game_finished signal is sent on
    commit and reads the flag from the row). A game whose ratings already moved cannot change.
    """
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if game.rated == rated:
        return game
    if RatedGame.objects.filter(game=game).exists():
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, "this game has already been rated")
    game.rated = rated
    game.save(update_fields=["rated", "updated_at"])
    return game


@transaction.atomic
def ratings_update_for_game(*, game: Game) -> RatedGame | None:
    """Rate a finished rated game's seated players by their final ranks; a second call changes nothing.

    Unrated games (``Game.rated`` false: casual games, unrated tournaments) are left alone. Seats without a player (pure bots) are left out; a player's seat a bot finished for them still
    counts (they chose to leave it, or a tournament director handed it over). Fewer than two rated
    players: nothing to rate.
    """
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if not game.rated or game.status != GameStatus.FINISHED or not game.result or not game.result.get("ranks"):
        return None
    if RatedGame.objects.filter(game=game).exists():
        return None
    ranks = game.result["ranks"]
    seats = [s for s in Seat.objects.filter(game=game).order_by("position") if s.user_id is not None]
    if len(seats) < 2:
        return None
    # Lock rating rows in user-id order so two games finishing at once cannot deadlock.
    rows = {s.user_id: _rating_row(s.user_id, game.engine) for s in sorted(seats, key=lambda s: s.user_id)}
    teams = [[MODEL.rating(mu=rows[s.user_id].mu, sigma=rows[s.user_id].sigma)] for s in seats]
    new = MODEL.rate(teams, ranks=[ranks[s.position] for s in seats])
    changes = {}
    for seat, team in zip(seats, new):
        row, after = rows[seat.user_id], team[0]
        changes[str(seat.user_id)] = {"before": [row.mu, row.sigma], "after": [after.mu, after.sigma],
                                      "rank": ranks[seat.position]}
        row.mu, row.sigma, row.ordinal = after.mu, after.sigma, after.ordinal()
        row.games += 1
    try:
        with transaction.atomic():
            record = RatedGame.objects.create(game=game, changes=changes)
    except IntegrityError:  # rated concurrently: the constraint, not the check above, is the guarantee
        return None
    for row in rows.values():
        row.save()
    return record
