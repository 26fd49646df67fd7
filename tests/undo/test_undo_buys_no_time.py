"""Take-backs buy no time: a prompt an undo reopens keeps the deadline (and, on a time bank, the clock) it had.

An attack this pins: a seat picks (its next prompt of the step opens with a fresh allowance), undoes the pick,
picks again, undoes...: each undo reopened the first prompt with the fresh prompt's deadline, so the step never
reached its deadline and its default never fired. On a time bank each pick also added the increment.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Prompt, Seat
from games.services import phase_resolve
from games.services.sweep import due_phases
from tests.factories import make_started_game

from .helpers import free_option, open_prompt, pick, resolve_all, undo

pytestmark = pytest.mark.django_db


def _to_a_compound_decision(game: Game) -> Prompt:
    """Play to a prompt of seat 0 with a pick it may take back that leaves it another prompt in the same step."""
    for _ in range(60):
        resolve_all(game)
        row = open_prompt(game, 0)
        free = free_option(game, 0) if row is not None else None
        if free is not None and _leaves_a_prompt_in_the_step(game, row, free):
            return row
        for p in range(game.players):
            r = open_prompt(game, p)
            if r is not None:
                pick(game, p, r.options[0]["id"])
                break
    pytest.fail("no compound decision came up")


def _leaves_a_prompt_in_the_step(game: Game, row: Prompt, option_id: str) -> bool:
    import copy

    from games.engines.registry import get_engine
    engine = get_engine(game.engine)
    trial = copy.deepcopy(game.state)
    engine.apply(trial, 0, option_id)
    return engine.step(trial) == row.phase and engine.prompt(trial, 0) is not None


def _age(row: Prompt, *, opened_seconds_ago: float, due_in_seconds: float) -> Prompt:
    """As if the prompt had been open a while: it opened earlier and its deadline is near."""
    now = timezone.now()
    Prompt.objects.filter(pk=row.pk).update(opened_at=now - timedelta(seconds=opened_seconds_ago),
                                            deadline=now + timedelta(seconds=due_in_seconds))
    row.refresh_from_db()
    return row


def test_pick_and_undo_again_and_again_never_moves_the_deadline():
    game, _ = make_started_game(players=2, engine="faltisia", seed=3,
                                clock={"step_seconds": 60, "extensions": 0})
    first = _age(_to_a_compound_decision(game), opened_seconds_ago=55, due_in_seconds=5)
    for _ in range(5):
        pick(game, 0, free_option(game, 0))
        later = open_prompt(game, 0)
        assert later.deadline > first.deadline  # the next prompt of the step opened with a fresh allowance...
        undo(game, 0)
        reopened = open_prompt(game, 0)
        assert reopened.prompt_id == first.prompt_id
        assert reopened.deadline == first.deadline  # ...which the undo does not keep
        assert reopened.opened_at == first.opened_at


def test_the_deadline_default_fires_on_time_whatever_the_undos():
    game, _ = make_started_game(players=2, engine="faltisia", seed=3,
                                clock={"step_seconds": 60, "extensions": 0})
    first = _age(_to_a_compound_decision(game), opened_seconds_ago=61, due_in_seconds=-1)  # already due
    pick(game, 0, free_option(game, 0))
    undo(game, 0)
    assert open_prompt(game, 0).deadline < timezone.now()
    game.refresh_from_db()
    assert (game.pk, game.phase) in due_phases(now=timezone.now())  # the sweep finds the step due
    phase_resolve(game_id=game.pk, phase=game.phase)
    assert game.submissions.filter(seat__position=0, prompt_id=first.prompt_id, source="default").exists()


def test_a_time_bank_gets_back_neither_the_increment_nor_the_time_spent():
    game, _ = make_started_game(players=2, engine="faltisia", seed=3,
                                clock={"type": "bank", "initial_seconds": 3600, "increment_seconds": 600,
                                       "extensions": 0})
    first = _age(_to_a_compound_decision(game), opened_seconds_ago=100, due_in_seconds=600)
    bank_before = Seat.objects.get(game=game, position=0).bank_seconds
    for _ in range(3):
        pick(game, 0, free_option(game, 0))
        assert Seat.objects.get(game=game, position=0).bank_seconds > bank_before  # the increment, at each pick
        undo(game, 0)
        assert Seat.objects.get(game=game, position=0).bank_seconds == bank_before
        reopened = open_prompt(game, 0)
        assert (reopened.deadline, reopened.opened_at) == (first.deadline, first.opened_at)
