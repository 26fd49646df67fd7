"""Take-backs: a seat undoes its own picks of the step back to its last checkpoint.

The rule is the engine's: a pick is a checkpoint when it changes ``engine.checkpoint_key(state, seat)`` (something
new was drawn, revealed or rolled, another seat asked or affected; games/engines/base.py), and the step's end (the
turn passing, a simultaneous step complete) is a boundary too. The server never guesses.

How: before each player's pick the write keeps the state the game row held (its JSON text, read anyway); if the
pick and the automatic picks it set off (a forced single option, ...) are no checkpoint, that text is stored as a
TakeBack row with the events the pick stored. A checkpoint deletes the seat's rows, a boundary the game's. An undo
restores the state of the row it goes back to, exactly (the seeded generator with it: nobody fishes for a better
draw), re-applies the other seats' later picks of the step (a simultaneous step: they touched only their own part
of the state), deletes the taken-back picks and their events (from every view, the replay and the mails not yet
written: a checkpoint comes before any result mail of the step) and reopens the prompt, with its old deadline.
So the stored picks, replayed, give the stored state (games/web/replay.py, tests/undo/).

Every write holds the game row lock (turn_load), as a pick does: an undo and a deadline default, another seat's pick
or a second undo are applied one after the other, each once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from accounts.models import User

from ..engines.base import Event as EngineEvent
from ..engines.base import IllegalPick
from ..errors import ErrorCode, GameError, StalePrompt
from ..models import (HUMAN_SOURCES, Event, Game, GameStatus, Prompt, Submission, SubmissionSource, TakeBack, Undo,
                      UndoTo)
from ..presentation.wording import seat_in_words
from .turn import Turn, events_store, prompts_sync, step_check, turn_load_for_player, turn_save
from .undo_points import take_back_state, take_backs_for_seat

UNDO_TARGETS = tuple(UndoTo.values)  # "last", "turn"
# Picks a seat did not make itself: one of them since a take-back point ends the seat's take-backs.
NOT_THE_PLAYERS = (SubmissionSource.DEFAULT, SubmissionSource.BOT)


# ------------------------------------------------------------------------------------------------------ undo

@dataclass(frozen=True)
class UndoOutcome:
    game: Game
    undo: Undo
    replayed: bool  # a resend (same Idempotency-Key): nothing changed


def _cannot(detail: str) -> GameError:
    return GameError(ErrorCode.CANNOT_UNDO, detail)


@transaction.atomic
def undo_for_player(*, game_id: int, user: User, prompt_id: str, to: str = UndoTo.LAST,
                    idempotency_key: str | None = None, source: str) -> UndoOutcome:
    """Take back the last pick (``to="last"``) or every pick back to the first of the step (``"turn"``) of the
    seat ``user`` holds. ``prompt_id``: the seat's open prompt, or a prompt it answered in this step (that
    prompt is reopened, the seat's later picks withdrawn). Game.DoesNotExist, or GameError: not_your_seat,
    stale_prompt, cannot_undo, game_not_active, idempotency_key_reused."""
    if to not in UNDO_TARGETS:
        raise GameError(ErrorCode.NOT_AN_OPTION, f"to: one of {', '.join(UNDO_TARGETS)}")
    turn, position = turn_load_for_player(game_id=game_id, user_id=user.pk)
    turn.seats[position].user = user  # its name is in the undo's event: no query for it
    return _undo(turn, position, prompt_id=prompt_id, to=to, idempotency_key=idempotency_key, source=source)


def _undo(turn: Turn, position: int, *, prompt_id: str, to: str, idempotency_key: str | None,
          source: str) -> UndoOutcome:
    game, seat, engine = turn.game, turn.seats[position], turn.engine
    if idempotency_key:
        earlier = Undo.objects.filter(seat=seat, idempotency_key=idempotency_key).first()
        if earlier is not None:
            if earlier.prompt_id == prompt_id and earlier.to == to:
                return UndoOutcome(game=game, undo=earlier, replayed=True)
            raise GameError(ErrorCode.IDEMPOTENCY_KEY_REUSED, "this idempotency key was used for another undo")
    if game.status != GameStatus.ACTIVE:
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {game.status}")
    if source in HUMAN_SOURCES and seat.player_active is False:
        raise GameError(ErrorCode.ACCOUNT_DEACTIVATED, "this account is deactivated; it cannot play")
    points = take_backs_for_seat(game=game, seat_id=seat.pk)
    open_row = turn.open_prompts.get(position)
    named = None
    if open_row is None or open_row.prompt_id != prompt_id:
        named = next((i for i in range(len(points) - 1, -1, -1) if points[i].submission.prompt_id == prompt_id), None)
        if named is None and not _answered_this_step(game, seat.pk, prompt_id):
            raise StalePrompt("this prompt is not your open one, nor one you answered in this step")
        if named is None:
            raise _cannot("that pick can no longer be taken back (a checkpoint, a default or a bot came after it)")
    if seat.is_bot:
        raise _cannot("a bot plays this seat now")
    if not points:
        raise _cannot("nothing to take back: your last pick made something new known (a checkpoint), or you have "
                      "made no pick this turn" if _picked_this_step(game, seat.pk) else
                      "nothing to take back: you have made no pick this turn")
    if engine.is_step_complete(turn.state):
        raise _cannot("the step is complete and resolving")
    start = 0 if to == UndoTo.TURN else (named if named is not None else len(points) - 1)
    target = points[start]
    later = _submissions_since(game, target.submission_id)
    position_of = {s.pk: p for p, s in turn.seats.items()}
    mine = [s for s in later if s.seat_id == seat.pk]
    if any(s.source in NOT_THE_PLAYERS for s in mine):
        raise _cannot("the deadline's default or a bot has picked for you since")
    reopened_clock = _clock_of_the_reopened_prompt(target, open_row)

    state = json.loads(take_back_state(target))
    # The other seats' take-back points after the target hold states with this seat's taken-back picks in them:
    # each gets the state before its pick as it is now (else a later undo of theirs would bring those picks back).
    others_later = [s.pk for s in later if s.seat_id != seat.pk]
    others_points = {p.submission_id: p for p in TakeBack.objects.filter(submission_id__in=others_later)
                     } if others_later else {}
    try:
        for s in later:  # the other seats' later picks of a simultaneous step, in their order
            if s.seat_id != seat.pk:
                if s.pk in others_points:
                    others_points[s.pk].state = json.dumps(state)
                engine.apply(state, position_of[s.seat_id], s.option_id)
    except IllegalPick as e:  # the engine's picks would not commute: refuse rather than guess
        raise _cannot(f"another seat's later pick depends on yours ({e})") from e
    game.state = state
    if others_points:
        TakeBack.objects.bulk_update(list(others_points.values()), ["state"])

    taken = points[start:]
    public = _picks_take_back(event_ids=[i for p in taken for i in p.event_ids],
                              prompt_row_ids=[s.prompt_row_id for s in mine], submission_ids=[s.pk for s in mine])

    undo = Undo(game=game, seat=seat, phase=game.phase, prompt_id=prompt_id, to=to, moves=len(taken),
                idempotency_key=idempotency_key or None, source=source)
    undo.save(force_insert=True)
    events_store(turn, [_undo_event(seat, len(taken), public=public)], phase=game.phase)
    turn.kept_clocks[position] = reopened_clock
    if target.bank_seconds is not None:  # a time bank: as it was before the first pick taken back
        seat.bank_seconds = target.bank_seconds
        turn.dirty_seats.add(position)
    prompts_sync(turn)
    step_check(turn)
    turn_save(turn)
    return UndoOutcome(game=game, undo=undo, replayed=False)


def _submissions_since(game: Game, submission_id: int) -> list[Submission]:
    """The step's submissions from ``submission_id`` on (every seat's), in their order."""
    return list(Submission.objects.filter(game=game, phase=game.phase, id__gte=submission_id).order_by("id"))


def _picks_take_back(*, event_ids: list[int], prompt_row_ids: list[int], submission_ids: list[int]) -> bool:
    """Delete the taken-back picks (their submissions and take-back points) and their events, and mark the prompts
    they answered unanswered (the rows stay closed: history). Whether any of those events was public."""
    public = Event.objects.filter(pk__in=event_ids, visibility__isnull=True).exists()
    Event.objects.filter(pk__in=event_ids).delete()
    Prompt.objects.filter(pk__in=prompt_row_ids).update(answered=False)
    Submission.objects.filter(pk__in=submission_ids).delete()  # and their take-back points (the ORM's cascade)
    return public


def _clock_of_the_reopened_prompt(target: TakeBack, open_row: Prompt | None) -> tuple[datetime | None, datetime]:
    """The deadline and opening time of the prompt an undo reopens: those it had when first asked. A take-back
    buys no time: the prompts a seat's later picks opened came with a fresh allowance, which goes with them, and
    the deadline is never later than the one the seat has now (staff may have shortened it meanwhile)."""
    answered = target.submission.prompt_row
    deadline = answered.deadline
    if deadline is not None and open_row is not None and open_row.deadline is not None:
        deadline = min(deadline, open_row.deadline)
    return deadline, answered.opened_at


def _answered_this_step(game: Game, seat_id: int, prompt_id: str) -> bool:
    return Submission.objects.filter(game=game, seat_id=seat_id, phase=game.phase, prompt_id=prompt_id).exists()


def _picked_this_step(game: Game, seat_id: int) -> bool:
    return Submission.objects.filter(game=game, seat_id=seat_id, phase=game.phase).exists()


def _undo_event(seat, moves: int, *, public: bool):
    """What everyone reads: how many picks were taken back when they were public moves; only that the seat changed
    its decision when they were secret (a simultaneous step: not even how many)."""
    who = seat_in_words(seat, capital=True)
    if public:
        n = moves_in_words(moves)
        return EngineEvent(f"{who} took back {n}.", data={"action": "undo", "seat": seat.position, "moves": moves,
                                                          "wording": f"{{seat}} took back {n}."})
    return EngineEvent(f"{who} changed their decision.",
                       data={"action": "undo", "seat": seat.position, "wording": "{seat} changed their decision."})


def moves_in_words(moves: int) -> str:
    """"1 move", "3 moves": how many picks an undo took back, as every surface says it."""
    return f"{moves} move{'' if moves == 1 else 's'}"
