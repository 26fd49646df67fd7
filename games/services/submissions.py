"""A player's pick: validated against the seat's current prompt and applied in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from accounts.models import User

from ..errors import ErrorCode, GameError, NotAnOption, StalePrompt
from ..models import HUMAN_SOURCES, BotReason, GameStatus, Prompt, Seat, Submission
from .resolution import resolved_announce, step_resolve_in_write
from .turn import Turn, pick_apply, prompts_sync, step_check, turn_load, turn_load_for_player, turn_save
from .undo_points import pick_record, pick_watch


@dataclass(frozen=True)
class PickOutcome:
    submission: Submission  # the stored pick (``is_new`` False: a resend of an earlier one)
    seat: Seat
    next_prompt: Prompt | None  # the seat's open prompt when the write committed (None: nothing to decide)
    # A step this write completed awaits the worker's resolution (enqueued on commit): the seat's next prompt may
    # come with it. False when the pick resolved the step it completed itself (settings.RESOLVE_IN_PICK).
    step_completed: bool
    step_resolved: bool = False  # this pick completed its step and resolved it (the next step's prompt is known)


def _replayed(submission: Submission) -> Submission:
    submission.is_new = False
    return submission


@transaction.atomic
def submission_create(*, seat: Seat, prompt_id: str, option_id: str, idempotency_key: str | None = None,
                      source: str) -> Submission:
    """Apply ``seat``'s pick of ``option_id`` at prompt ``prompt_id``.

    A resend (same idempotency key, or the same pick at a prompt this seat already answered) returns the
    stored submission with ``is_new = False`` instead of applying it twice.
    """
    turn = turn_load(game_id=seat.game_id)
    return _submit(turn, seat.position, prompt_id=prompt_id, option_id=option_id,
                   idempotency_key=idempotency_key, source=source).submission


@transaction.atomic
def submission_create_for_player(*, game_id: int, user: User, prompt_id: str, option_id: str,
                                 idempotency_key: str | None = None, source: str) -> PickOutcome:
    """``submission_create`` for the seat ``user`` holds in game ``game_id`` (the API's entry point).

    The seat is found among the seats the locked write loads anyway, so a pick costs no lookup before
    its transaction. Raises Game.DoesNotExist for an unknown game, NOT_YOUR_SEAT without a seat.
    """
    turn, position = turn_load_for_player(game_id=game_id, user_id=user.pk)
    return _submit(turn, position, prompt_id=prompt_id, option_id=option_id, idempotency_key=idempotency_key,
                   source=source)


def _submit(turn: Turn, position: int, *, prompt_id: str, option_id: str, idempotency_key: str | None,
            source: str) -> PickOutcome:
    game = turn.game
    seat = turn.seats[position]  # the copy loaded under the lock

    def outcome(submission: Submission, *, step_resolved: bool = False) -> PickOutcome:
        return PickOutcome(submission=submission, seat=seat, next_prompt=turn.open_prompts.get(position),
                           step_completed=turn.resolution_requested, step_resolved=step_resolved)

    if idempotency_key:
        earlier = Submission.objects.filter(seat=seat, idempotency_key=idempotency_key).first()
        if earlier is not None:
            if earlier.prompt_id == prompt_id and earlier.option_id == option_id:
                return outcome(_replayed(earlier))
            raise GameError(ErrorCode.IDEMPOTENCY_KEY_REUSED, "this idempotency key was used for another pick")
    row = turn.open_prompts.get(position)
    if row is None or row.prompt_id != prompt_id:
        earlier = (Submission.objects.filter(seat=seat, prompt_id=prompt_id, option_id=option_id)
                   .order_by("-id").first())
        if earlier is not None:
            return outcome(_replayed(earlier))
        if game.status != GameStatus.ACTIVE:
            raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {game.status}")
        raise StalePrompt()
    if game.status != GameStatus.ACTIVE:
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {game.status}")
    if source in HUMAN_SOURCES and seat.player_active is False:
        # One rule for every way a person acts (API, web, email reply, one-click link): a deactivated account
        # acts nowhere; its seat falls to the game's missing-move policy at the deadline.
        raise GameError(ErrorCode.ACCOUNT_DEACTIVATED, "this account is deactivated; it cannot play")
    if seat.is_bot and seat.bot_reason == BotReason.ADMIN and source in HUMAN_SOURCES:
        # A pick would take the seat back from the bot (pick_apply), which only an admin may do here.
        raise GameError(ErrorCode.RECLAIM_NEEDS_ADMIN, "an admin handed this seat to a bot; ask an admin to "
                                                       "give it back to you")
    if option_id not in row.option_ids():
        raise NotAnOption(f"{option_id!r} is not one of the options of prompt {prompt_id}")
    turn.held_writes = []  # the prompt's close and the take-back point go with the game's UPDATE (Turn.held_writes)
    watch = pick_watch(turn, position, row, option_id)  # take-backs: the state before the pick
    submission = pick_apply(turn, position=position, option_id=option_id, source=source,
                            idempotency_key=idempotency_key or None)
    prompts_sync(turn)
    resolve_here = settings.RESOLVE_IN_PICK
    step_check(turn, resolve_later=not resolve_here)
    pick_record(turn, position, submission, watch, source=source)
    phase = game.phase
    resolved = step_resolve_in_write(turn) if resolve_here and turn.resolution_requested else None
    turn_save(turn)
    if resolved is not None:
        resolved_announce(turn, phase=phase, events=resolved)
    submission.is_new = True
    return outcome(submission, step_resolved=resolved is not None)
