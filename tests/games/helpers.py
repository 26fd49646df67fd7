"""Small helpers for driving games through the services in tests."""

from __future__ import annotations

from django.test import TestCase

from games.models import Game, Prompt, Seat, SubmissionSource
from games.services import submission_create


def open_prompt(game: Game, position: int) -> Prompt | None:
    return Prompt.objects.filter(game=game, seat__position=position, closed_at__isnull=True).first()


def seat(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def pick(game: Game, position: int, option_id: str | None = None, *, commit: bool = True, **kwargs):
    """Submit ``option_id`` (default: the first option) for the seat's open prompt.

    With ``commit`` the on-commit callbacks (the eager resolve task, signals) run as after a real commit.
    """
    prompt = open_prompt(game, position)
    assert prompt is not None, f"seat {position} has no open prompt"
    with TestCase.captureOnCommitCallbacks(execute=commit):
        return submission_create(seat=seat(game, position), prompt_id=prompt.prompt_id,
                                 option_id=option_id or prompt.options[0]["id"],
                                 source=kwargs.pop("source", SubmissionSource.API), **kwargs)


def play_step(game: Game, *, commit: bool = True) -> None:
    """Seats with an open prompt of the current phase pick their first option until none is left."""
    game.refresh_from_db()
    phase = game.phase
    for _ in range(100):
        prompts = list(Prompt.objects.filter(game=game, closed_at__isnull=True, phase=phase)
                       .order_by("seat__position"))
        if not prompts:
            return
        pick(game, prompts[0].seat.position, commit=commit)
