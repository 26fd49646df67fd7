"""Creating, joining, starting, pausing and resuming games."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User

from ..engines.base import Event as EngineEvent
from ..engines.registry import get_engine
from ..errors import ErrorCode, GameError
from ..models import Game, GameStatus, Press, Prompt, Seat
from .clock import clock_validate
from .enqueue import resolve_enqueue_on_commit
from .turn import events_store, prompts_sync, step_check, turn_load, turn_save
from .version import game_touch
from ..version_events import announce_on_commit


def _engine_or_error(slug: str):
    try:
        return get_engine(slug)
    except (KeyError, ImportError, AttributeError):
        raise GameError(ErrorCode.UNKNOWN_GAME, f"no game called {slug!r} is available here")


@transaction.atomic
def game_create(*, created_by: User, engine: str, players: int, options: dict[str, Any] | None = None,
                clock: dict[str, Any] | None = None, is_public: bool = True, seed: int | None = None,
                bots: int = 0, rated: bool = False, press: str = Press.TABLE) -> Game:
    """Create a game; the creator takes seat 0 and ``bots`` seats go to bots. Starts it if full.

    A ``rated`` game moves its players' ratings when it finishes; bots are never rated, so it needs
    at least two seats for people. ``press``: what its players may say to one another.
    """
    options, clock = options or {}, clock or {}
    game_engine = _engine_or_error(engine)
    try:
        options = game_engine.clean_options(players, options)  # only the declared options, each allowed
        clock_validate(clock)
    except ValueError as e:
        raise GameError(ErrorCode.INVALID_SETTINGS, str(e))
    press_validate(press)
    if not 0 <= bots < players:
        raise GameError(ErrorCode.INVALID_SETTINGS, "bots must leave at least the creator's seat")
    if rated and players - bots < 2:
        raise GameError(ErrorCode.INVALID_SETTINGS, "a rated game needs at least two seats for people")
    game = Game.objects.create(engine=engine, options=options, clock=clock, players=players, is_public=is_public,
                               rated=rated, press=press,
                               seed=seed if seed is not None else secrets.randbits(62), created_by=created_by)
    Seat.objects.bulk_create([Seat(game=game, position=0, user=created_by)]
                             + [Seat(game=game, position=p, is_bot=True) for p in range(players - bots, players)]
                             + [Seat(game=game, position=p) for p in range(1, players - bots)])
    if bots == players - 1:
        _game_start(game_id=game.pk)
        game.refresh_from_db()
    return game


@transaction.atomic
def game_join(*, game: Game, user: User) -> Seat:
    """Take the lowest free seat (or return the user's seat); the game starts when every seat is taken."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    mine = Seat.objects.filter(game=game, user=user).first()
    if mine is not None:
        return mine
    if game.status != GameStatus.OPEN:
        raise GameError(ErrorCode.GAME_NOT_OPEN, f"the game is {game.status}")
    free = Seat.objects.filter(game=game, user__isnull=True, is_bot=False).order_by("position").first()
    if free is None:
        raise GameError(ErrorCode.GAME_FULL, "every seat is taken")
    free.user = user
    try:
        with transaction.atomic():
            free.save(update_fields=["user"])
    except IntegrityError:
        raise GameError(ErrorCode.GAME_FULL, "you already sit at this game")
    game_touch(game)  # the seats and the lobby's count of free seats changed
    if not Seat.objects.filter(game=game, user__isnull=True, is_bot=False).exists():
        _game_start(game_id=game.pk)
    return free


def press_validate(press: str) -> None:
    """A 400 ``invalid_settings`` for a press setting that is not one of games.models.Press."""
    if press not in Press.values:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"press must be one of {', '.join(Press.values)}")


def _game_start(*, game_id: int) -> None:
    """Deal the game from its stored seed and open the first prompts."""
    turn = turn_load(game_id=game_id)
    game = turn.game
    game.state = turn.engine.new_game(players=game.players, options=game.options, seed=game.seed)
    game.phase = turn.engine.step(game.state)
    game.status = GameStatus.ACTIVE
    game.started_at = turn.now
    events_store(turn, [EngineEvent("The game begins.")], phase=game.phase)
    prompts_sync(turn)
    step_check(turn)
    turn_save(turn)


def _check_admin(game: Game, user: User) -> None:
    if not (user.is_staff or game.created_by_id == user.pk):
        raise GameError(ErrorCode.NOT_GAME_ADMIN, "only the game's creator or staff may do this")


@transaction.atomic
def game_pause(*, game: Game, by: User) -> Game:
    """Stop the clocks: no picks, no deadlines, until game_resume."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    _check_admin(game, by)
    if game.status != GameStatus.ACTIVE:
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {game.status}")
    game.status = GameStatus.PAUSED
    game.paused_at = timezone.now()
    game.version += 1
    game.save(update_fields=["status", "paused_at", "updated_at", "version"])
    announce_on_commit(game.pk)
    return game


@transaction.atomic
def game_resume(*, game: Game, by: User) -> Game:
    """Restart the clocks, pushing every open deadline back by the time spent paused."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    _check_admin(game, by)
    if game.status != GameStatus.PAUSED:
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, "the game is not paused")
    paused_for = timezone.now() - (game.paused_at or timezone.now())
    Prompt.objects.filter(game=game, closed_at__isnull=True, deadline__isnull=False).update(
        deadline=F("deadline") + paused_for, reminder_planned=False)  # the reminders task plans them again
    game.status = GameStatus.ACTIVE
    game.paused_at = None
    game.version += 1  # the status, and the open prompts' deadlines
    game.save(update_fields=["status", "paused_at", "updated_at", "version"])
    announce_on_commit(game.pk)
    if game.resolve_requested_at is not None:
        resolve_enqueue_on_commit(game_id=game.pk, phase=game.phase)
    return game


@transaction.atomic
def game_abandon(*, game: Game, by: User) -> Game:
    """End a game without a result (creator or staff): its prompts close and no deadline fires."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    _check_admin(game, by)
    if game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is already {game.status}")
    now = timezone.now()
    Prompt.objects.filter(game=game, closed_at__isnull=True).update(closed_at=now)
    game.status = GameStatus.ABANDONED
    game.finished_at = now
    game.resolve_requested_at = None
    game.version += 1
    game.save(update_fields=["status", "finished_at", "resolve_requested_at", "updated_at", "version"])
    announce_on_commit(game.pk)
    return game
