"""What a server admin (or a tournament director) does to a running game.

Each action is one transaction that locks the game row, changes it through the same steps the
players' writes use (turn.py), and ends by writing an Event visible to everyone that names the admin
and what they did, so the players of a long game can always see why their game changed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from accounts.models import User

from ..errors import ErrorCode, GameError
from ..models import BotReason, Event, Game, GameStatus, Press, Prompt, Seat, Submission, SubmissionSource
from ..presentation.wording import seat_in_words
from ..signals import game_abandoned
from .enqueue import signal_on_commit
from .clock import clock_validate
from .lifecycle import _check_admin, _engine_or_error, _game_start, game_pause, game_resume, press_validate
from .resolution import _seat_defaults
from .seats import seat_back_from_bot, seat_changed_hands_send
from .turn import Turn, prompt_close, prompts_sync, step_check, turn_load, turn_save
from .version import game_touch

# A force-resolve defaults at most this many picks, so an engine that keeps asking cannot loop.
MAX_FORCED_PICKS = 1000


def admin_event_record(*, game: Game, by: User, action: str, text: str, **data: Any) -> Event:
    """Log an admin action in the game, visible to all (players and spectators)."""
    return Event.objects.create(game=game, phase=game.phase, text=f"Admin {by.username} {text}",
                                data={"admin": by.username, "action": action, **data}, visibility=None)


def _turn_or_404(game: Game) -> Turn:
    turn = turn_load(game_id=game.pk)
    if turn is None:
        raise GameError(ErrorCode.UNKNOWN_GAME, "the game no longer exists")
    return turn


def _running(turn: Turn) -> None:
    if turn.game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {turn.game.status}")


def _seat_at(turn: Turn, position: int) -> Seat:
    if position not in turn.seats:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"the game has no seat {position}")
    return turn.seats[position]


@transaction.atomic
def game_create_seated(*, created_by: User, engine: str, users: list[User | None], bot_positions=(),
                       options: dict[str, Any] | None = None, clock: dict[str, Any] | None = None,
                       seed: int, is_public: bool = True, press: str = Press.TABLE) -> Game:
    """Create and start a game whose seats are assigned up front (tournament tables).

    ``users[p]`` sits at position p (None: a bot with no player); positions in ``bot_positions`` keep
    their player but a bot plays for them (a player who dropped out, or a test's bot players).
    """
    options, clock = options or {}, clock or {}
    game_engine = _engine_or_error(engine)
    try:
        options = game_engine.clean_options(len(users), options)
        clock_validate(clock)
    except ValueError as e:
        raise GameError(ErrorCode.INVALID_SETTINGS, str(e))
    press_validate(press)
    ids = [u.pk for u in users if u is not None]
    if len(ids) != len(set(ids)):
        raise GameError(ErrorCode.INVALID_SETTINGS, "a player cannot take two seats at one table")
    game = Game.objects.create(engine=engine, options=options, clock=clock, players=len(users), seed=seed,
                               is_public=is_public, press=press, created_by=created_by)
    Seat.objects.bulk_create([Seat(game=game, position=p, user=u, is_bot=u is None or p in set(bot_positions))
                              for p, u in enumerate(users)])
    _game_start(game_id=game.pk)
    game.refresh_from_db()
    return game


@transaction.atomic
def game_admin_pause(*, game: Game, by: User) -> Game:
    """Pause the game (clocks stop) and say so in its log."""
    game = game_pause(game=game, by=by)
    admin_event_record(game=game, by=by, action="pause", text="paused the game; the clocks are stopped.")
    return game


@transaction.atomic
def game_admin_resume(*, game: Game, by: User) -> Game:
    """Resume the game (deadlines move back by the pause) and say so in its log."""
    game = game_resume(game=game, by=by)
    admin_event_record(game=game, by=by, action="resume", text="resumed the game.")
    return game


@transaction.atomic
def deadline_extend(*, game: Game, by: User, hours: float, position: int | None = None) -> int:
    """Push back the open deadlines (of one seat, or all) by ``hours``; return how many moved."""
    if not 0 < hours <= 24 * 90:
        raise GameError(ErrorCode.INVALID_SETTINGS, "extend by more than 0 and at most 2160 hours")
    turn = _turn_or_404(game)
    _check_admin(turn.game, by)
    _running(turn)
    prompts = Prompt.objects.filter(game=turn.game, closed_at__isnull=True, deadline__isnull=False)
    if position is not None:
        _seat_at(turn, position)
        prompts = prompts.filter(seat__position=position)
    # reminder_planned=False: the reminders task reads only unplanned prompts (not every open one), so it plans
    # the moved deadlines' reminders again.
    moved = prompts.update(deadline=F("deadline") + timedelta(hours=hours), reminder_planned=False)
    game_touch(turn.game)  # the players' prompts show the new deadlines
    whose = "every open deadline" if position is None else f"the deadline of {seat_in_words(turn.seats[position])}"
    admin_event_record(game=turn.game, by=by, action="extend", hours=hours, seat=position,
                       text=f"extended {whose} by {hours:g} hours.")
    return moved


@transaction.atomic
def phase_force_resolve(*, game: Game, by: User) -> int:
    """Resolve the current step now: every seat still deciding gets the engine's default picks.

    No extension is granted and the seats' miss counters are not raised (the admin chose to end the
    wait, not the player); the defaults are stored with source "default" like any missed pick.
    Returns the number of default picks made. The resolution itself runs on commit, as usual.
    """
    turn = _turn_or_404(game)
    _check_admin(turn.game, by)
    if turn.game.status != GameStatus.ACTIVE:
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {turn.game.status}")
    phase = turn.game.phase
    defaults = Submission.objects.filter(game=turn.game, phase=phase, source=SubmissionSource.DEFAULT)
    before = defaults.count()
    for _ in range(MAX_FORCED_PICKS):
        waiting = sorted(p for p, row in turn.open_prompts.items() if row.phase == phase)
        if not waiting or turn.engine.is_step_complete(turn.state) or turn.engine.is_over(turn.state):
            break
        _seat_defaults(turn, waiting[0])
    forced = defaults.count() - before
    admin_event_record(game=turn.game, by=by, action="force_resolve", phase=phase,
                       text=f"ended the wait for step {phase}; missing decisions got the default.")
    step_check(turn)
    turn_save(turn)
    return forced


def _check_not_banned(user: User) -> None:
    """A deactivated account is never given a seat: it could not log in, but its mail would still act."""
    if not user.is_active:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"{user.username}'s account is deactivated")


@transaction.atomic
def seat_replace_player(*, game: Game, by: User, position: int, user: User) -> Seat:
    """Give the seat to another player (who takes over its position, hand and score)."""
    turn = _turn_or_404(game)
    _check_admin(turn.game, by)
    _running(turn)
    seat = _seat_at(turn, position)
    old = seat.user
    if old is not None and old.pk == user.pk:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"{user.username} already sits at seat {position}")
    if any(s.user_id == user.pk for s in turn.seats.values()):
        raise GameError(ErrorCode.GAME_FULL, f"{user.username} already sits at this game")
    _check_not_banned(user)
    seat.user = user
    seat.is_bot = False
    seat.bot_reason = BotReason.NONE
    seat.bot_handed_by = None
    seat.missed_deadlines = 0
    seat.extensions_used = 0
    try:
        with transaction.atomic():
            seat.save()
    except IntegrityError:
        raise GameError(ErrorCode.GAME_FULL, f"{user.username} already sits at this game")
    # The old player's reply address and one-click links must stop working, in this transaction.
    seat_changed_hands_send(seat=seat, previous_user_id=old.pk if old else None, reason="replaced")
    admin_event_record(game=turn.game, by=by, action="replace", seat=position,
                       old=old.username if old else None, new=user.username,
                       text=f"gave seat {position + 1} to {user.username}"
                            + (f" (replacing {old.username})." if old else "."))
    # The newcomer is asked afresh: announce the seat's open prompt to them after commit.
    turn.opened.extend(row for p, row in turn.open_prompts.items() if p == position)
    turn_save(turn)
    return seat


@transaction.atomic
def seat_hand_to_bot(*, game: Game, by: User, position: int) -> Seat:
    """A bot plays the seat from now on (until the player or an admin takes it back).

    The seat's own player may do this too (leaving a tournament); the log then says so.
    """
    turn = _turn_or_404(game)
    _running(turn)
    seat = _seat_at(turn, position)
    own = seat.user_id is not None and seat.user_id == by.pk
    if not own:
        _check_admin(turn.game, by)
    if seat.is_bot:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"a bot already plays seat {position}")
    seat.is_bot = True
    # Who handed it over decides who may give it back (seats.seat_reclaim): the player undoes their own.
    seat.bot_reason = BotReason.PLAYER if own else BotReason.ADMIN
    seat.bot_handed_by_id = by.pk
    turn.dirty_seats.add(position)
    # The player's reply address and links stop working: a bot plays the seat now.
    seat_changed_hands_send(seat=seat, previous_user_id=seat.user_id, reason="to_bot")
    if own:
        Event.objects.create(game=turn.game, phase=turn.game.phase, visibility=None,
                             text=f"{by.username} left seat {position + 1}; a bot plays it from now on.",
                             data={"player": by.username, "action": "to_bot", "seat": position})
    else:
        admin_event_record(game=turn.game, by=by, action="to_bot", seat=position,
                           text=f"handed {seat_in_words(seat)} to a bot.")
    if turn.game.status == GameStatus.ACTIVE:
        prompts_sync(turn)  # the bot answers what the seat is asked now
        step_check(turn)
    turn_save(turn)
    return seat


@transaction.atomic
def seat_take_back_from_bot(*, game: Game, by: User, position: int) -> Seat:
    """The seat's player plays it again (the bot leaves), whoever handed it to the bot."""
    turn = _turn_or_404(game)
    _check_admin(turn.game, by)
    _running(turn)
    seat = _seat_at(turn, position)
    if not seat.is_bot:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"seat {position} is not played by a bot")
    if seat.user_id is None:
        raise GameError(ErrorCode.INVALID_SETTINGS, f"seat {position} has no player to give it back to")
    _check_not_banned(seat.user)
    seat_back_from_bot(turn, position, reason="from_bot")
    admin_event_record(game=turn.game, by=by, action="from_bot", seat=position,
                       text=f"gave seat {position + 1} back to {seat.user.username}.")
    turn_save(turn)
    return seat


@transaction.atomic
def game_abandon(*, game: Game, by: User, reason: str = "") -> Game:
    """End the game without a result: prompts close, nobody is asked anything more."""
    turn = _turn_or_404(game)
    _check_admin(turn.game, by)
    if turn.game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is already {turn.game.status}")
    for position in list(turn.open_prompts):
        prompt_close(turn, position, answered=False)
    turn.game.status = GameStatus.ABANDONED
    turn.game.finished_at = turn.now
    turn.game.resolve_requested_at = None
    why = f" Reason: {reason.strip()}" if reason.strip() else ""
    admin_event_record(game=turn.game, by=by, action="abandon", reason=reason.strip(),
                       text=f"abandoned the game.{why}")
    turn_save(turn)
    signal_on_commit(game_abandoned, game=turn.game)
    return turn.game


__all__ = [
    "admin_event_record", "game_create_seated", "game_admin_pause", "game_admin_resume", "deadline_extend",
    "phase_force_resolve", "seat_replace_player", "seat_hand_to_bot", "seat_take_back_from_bot",
    "game_abandon",
]
