"""A player's pick: validated against the seat's current prompt and applied in one transaction."""

from __future__ import annotations

from django.db import transaction

from ..errors import ErrorCode, GameError, NotAnOption, StalePrompt
from ..models import GameStatus, Seat, Submission
from .turn import pick_apply, prompts_sync, step_check, turn_load, turn_save


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
    game = turn.game
    position = seat.position
    seat = turn.seats[position]  # the copy loaded under the lock
    if idempotency_key:
        earlier = Submission.objects.filter(seat=seat, idempotency_key=idempotency_key).first()
        if earlier is not None:
            if earlier.prompt_id == prompt_id and earlier.option_id == option_id:
                return _replayed(earlier)
            raise GameError(ErrorCode.IDEMPOTENCY_KEY_REUSED, "this idempotency key was used for another pick")
    row = turn.open_prompts.get(position)
    if row is None or row.prompt_id != prompt_id:
        earlier = (Submission.objects.filter(seat=seat, prompt_id=prompt_id, option_id=option_id)
                   .order_by("-id").first())
        if earlier is not None:
            return _replayed(earlier)
        if game.status != GameStatus.ACTIVE:
            raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {game.status}")
        raise StalePrompt()
    if game.status != GameStatus.ACTIVE:
        raise GameError(ErrorCode.GAME_NOT_ACTIVE, f"the game is {game.status}")
    if option_id not in row.option_ids():
        raise NotAnOption(f"{option_id!r} is not one of the options of prompt {prompt_id}")
    submission = pick_apply(turn, position=position, option_id=option_id, source=source,
                            idempotency_key=idempotency_key or None)
    prompts_sync(turn)
    step_check(turn)
    turn_save(turn)
    submission.is_new = True
    return submission
