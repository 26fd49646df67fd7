"""Resolving a step: missed deadlines first, then the engine's resolve, then the next step's prompts.

Safe to call any number of times, concurrently or late: under the game row lock it re-checks that
``phase`` is still the open step and that it is complete (or due), and otherwise changes nothing.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from django.db import transaction

from accounts.models import Vacation

from ..engines.base import Event as EngineEvent
from ..engines import json_text
from ..models import BotReason, Event, GameStatus, SubmissionSource
from ..presentation.wording import seat_in_words
from ..signals import phase_resolved, phase_resolved_in_write
from . import clock
from .enqueue import resolve_enqueue_on_commit, signal_on_commit
from .turn import Turn, events_store, game_finish, pick_apply, prompts_sync, step_check, turn_load, turn_save

logger = logging.getLogger(__name__)


def _on_vacation_until(turn: Turn, position: int):
    user_id = turn.seats[position].user_id
    if not turn.may_be_away(user_id):
        return None
    v = (Vacation.objects.filter(user_id=user_id, starts__lte=turn.now, ends__gt=turn.now)
         .order_by("-ends").first())
    if v is None:
        return None
    # The game's vacation allowance caps the wait too (VACATION_MAX_DAYS_PER_GAME): stacked vacations cannot
    # hold a deadline without end.
    left = clock.vacation_stretch_left(game=turn.game, user_id=user_id, now=turn.now)
    return min(v.ends, turn.now + left) if left > timedelta(0) else None


def _seat_defaults(turn: Turn, position: int) -> None:
    """The seat missed its deadline: make the engine's default picks for the rest of its step."""
    phase = turn.game.phase
    for _ in range(1000):
        row = turn.open_prompts.get(position)
        if row is None or row.phase != phase or turn.engine.is_over(turn.state):
            break
        option_id = turn.engine.default_option(turn.state, position)
        pick_apply(turn, position=position, option_id=option_id, source=SubmissionSource.DEFAULT)
        prompts_sync(turn)


def due_prompts_handle(turn: Turn) -> bool:
    """Extend or default every open prompt whose deadline has passed; True if anything changed."""
    settings = clock.clock_settings(turn.game)
    changed = False
    for position in sorted(turn.open_prompts):
        row = turn.open_prompts.get(position)
        if row is None or row.deadline is None or row.deadline > turn.now:
            continue
        seat = turn.seats[position]
        changed = True
        back = _on_vacation_until(turn, position)
        if back is not None:
            # The player is away: their deadline waits for them (with some time to answer on return).
            row.deadline = back + timedelta(seconds=float(settings.get("vacation_grace_seconds", 12 * 3600)))
            row.reminder_planned = False  # the reminders task plans the new deadline's reminders
            row.save(update_fields=["deadline", "reminder_planned"])
            continue
        if not seat.is_bot and seat.extensions_used < int(settings.get("extensions", 0)):
            seat.extensions_used += 1
            turn.dirty_seats.add(position)
            row.deadline = turn.now + timedelta(seconds=clock.extension_seconds(turn.game))
            row.reminder_planned = False  # the reminders task plans the new deadline's reminders
            row.save(update_fields=["deadline", "reminder_planned"])
            missed = f"{seat_in_words(seat, capital=True)} missed a deadline and got an extension."
            events_store(turn, [EngineEvent(missed)],
                         phase=turn.game.phase)
            continue
        _seat_defaults(turn, position)
        seat.missed_deadlines += 1
        turn.dirty_seats.add(position)
        misses = int(settings.get("bot_after_misses", 0))
        if misses and seat.missed_deadlines >= misses and not seat.is_bot:
            seat.is_bot, seat.bot_reason = True, BotReason.MISSES  # the player may reclaim it
            events_store(turn, [EngineEvent(f"{seat_in_words(seat, capital=True)} missed {seat.missed_deadlines} "
                                            "deadlines in a row; a bot plays it until its player returns.")],
                         phase=turn.game.phase)
            prompts_sync(turn)  # the bot answers whatever the seat is asked now
    return changed


@transaction.atomic
def phase_resolve(*, game_id: int, phase: int) -> bool:
    """Resolve step ``phase`` of the game if it is still open and complete or due; True if resolved."""
    turn = turn_load(game_id=game_id)
    if turn is None:
        return False
    game = turn.game
    if game.status != GameStatus.ACTIVE or game.phase != phase:
        return False
    changed = due_prompts_handle(turn)
    if not turn.engine.is_step_complete(turn.state) or turn.engine.is_over(turn.state):
        game.resolve_requested_at = None
        if changed:
            step_check(turn)  # defaults may have ended the game
        turn_save(turn)
        return False
    stored = _resolve(turn, turn.engine.resolve(turn.state), phase=phase)
    turn_save(turn)
    resolved_announce(turn, phase=phase, events=stored)
    return True


def step_resolve_in_write(turn: Turn) -> list[Event] | None:
    """Resolve, within the write that completed it (a player's pick), the step ``step_check`` found complete: its
    events, or None if the engine's resolve failed and the step is left to the worker (the pick stands).

    A player's pick resolves the step it completes itself (settings.RESOLVE_IN_PICK): the game is
    loaded and locked already, so this costs the events and prompts it inserts, where a worker's task costs a
    broker round trip, a second load and a second commit. Only that one step: one the resolution's bots complete
    in turn is left to the worker (step_check), so a write never runs a whole game of bots. The caller saves
    the turn, then calls ``resolved_announce``.
    """
    phase = turn.game.phase
    before = json_text.dumps(turn.state)  # engine.resolve changes the state in place
    try:
        events = turn.engine.resolve(turn.state)
    except Exception:
        # A bug in a step's resolution never costs the player their pick: it is stored, and the worker's
        # task meets the same error where it is watched (and retried by the sweep once fixed).
        logger.exception("game %s: resolving phase %s in the pick failed; left to the worker", turn.game.pk, phase)
        turn.game.state = json.loads(before)
        resolve_enqueue_on_commit(game_id=turn.game.pk, phase=phase)
        return None
    turn.resolution_requested = False  # resolved here; _resolve's step_check may request the next one
    return _resolve(turn, events, phase=phase)


def _resolve(turn: Turn, events, *, phase: int) -> list[Event]:
    """Store the events of step ``phase``'s resolution and open the next step's prompts (or finish the game)."""
    game = turn.game
    stored = events_store(turn, events, phase=phase)
    game.phase = turn.engine.step(turn.state)
    game.resolve_requested_at = None
    if turn.engine.is_over(turn.state):
        game_finish(turn)
    else:
        prompts_sync(turn)
        step_check(turn)  # bots and standing orders may have completed the next step already
    return stored


def resolved_announce(turn: Turn, *, phase: int, events: list[Event]) -> None:
    """After the resolving write's save: tell the receivers in the transaction, and after the commit."""
    game = turn.game
    phase_resolved_in_write.send(sender=None, game=game, phase=phase, events=events)
    signal_on_commit(phase_resolved, game=game, phase=phase, events=events)
    logger.info("game %s: resolved phase %s -> %s", game.pk, phase, game.phase)
