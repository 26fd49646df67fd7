"""Driving take-backs in tests: find picks that are (or are not) checkpoints, without guessing (the engine says)."""

from __future__ import annotations

import copy
import json

from django.test import TestCase

from games.engines.registry import get_engine
from games.models import Game, Prompt, Seat, SubmissionSource
from games.services import phase_resolve, submission_create
from games.services.undo import undo_for_player


def open_prompt(game: Game, position: int) -> Prompt | None:
    return Prompt.objects.filter(game=game, seat__position=position, closed_at__isnull=True).first()


def is_checkpoint(slug: str, state: dict, seat: int, option_id: str) -> bool:
    """Whether the pick, applied to a copy, would be a checkpoint or end the step (the server's rule)."""
    engine = get_engine(slug)
    trial = copy.deepcopy(state)
    key = engine.checkpoint_key(trial, seat)
    engine.apply(trial, seat, option_id)
    return (engine.is_over(trial) or engine.is_step_complete(trial) or engine.checkpoint_key(trial, seat) != key
            or len((engine.prompt(trial, seat) or _NONE).options) == 1)


class _None:
    options = ()


_NONE = _None()


def free_option(game: Game, position: int) -> str | None:
    """An option of the seat's open prompt that can be taken back (not a checkpoint), or None."""
    game.refresh_from_db()
    row = open_prompt(game, position)
    if row is None:
        return None
    for o in row.options:
        if not is_checkpoint(game.engine, game.state, position, o["id"]):
            return o["id"]
    return None


def pick(game: Game, position: int, option_id: str, *, source=SubmissionSource.API, **kw):
    row = open_prompt(game, position)
    assert row is not None, f"seat {position} has nothing to decide"
    with TestCase.captureOnCommitCallbacks(execute=True):
        return submission_create(seat=Seat.objects.get(game=game, position=position), prompt_id=row.prompt_id,
                                 option_id=option_id, source=source, **kw)


def undo(game: Game, position: int, *, to: str = "last", prompt_id: str | None = None, **kw):
    seat = Seat.objects.select_related("user").get(game=game, position=position)
    if prompt_id is None:
        prompt_id = open_prompt(game, position).prompt_id
    with TestCase.captureOnCommitCallbacks(execute=True):
        return undo_for_player(game_id=game.pk, user=seat.user, prompt_id=prompt_id, to=to,
                               source=kw.pop("source", SubmissionSource.API), **kw)


def resolve_all(game: Game) -> None:
    for _ in range(50):
        game.refresh_from_db()
        if game.resolve_requested_at is None:
            return
        with TestCase.captureOnCommitCallbacks(execute=True):
            phase_resolve(game_id=game.pk, phase=game.phase)


def advance_to_free_pick(game: Game, position: int, *, max_picks: int = 400) -> str:
    """Play the game (first options, any seat) until ``position`` has a prompt with a pick it could take back."""
    for _ in range(max_picks):
        resolve_all(game)
        game.refresh_from_db()
        row = open_prompt(game, position)
        if row is not None:
            free = free_option(game, position)
            if free is not None:
                return free
        for p in range(game.players):
            r = open_prompt(game, p)
            if r is not None:
                pick(game, p, r.options[0]["id"])
                break
    raise AssertionError("no pick that can be taken back came up")


def frozen(state) -> str:
    return json.dumps(state, sort_keys=True)
