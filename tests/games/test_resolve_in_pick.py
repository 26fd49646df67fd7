"""A player's pick that completes a step resolves it in its own write (settings.RESOLVE_IN_PICK).

The step's resolution is the same whichever write runs it (games/services/resolution.py); these tests check
what changes with the pick running it: nothing is left for a worker, the pick's answer already shows the next
step, a failing resolution never costs the player the pick, and a step the resolution's bots complete in turn
still goes to the worker (one write never plays a whole game of bots).
"""

from __future__ import annotations

import pytest
from django.test import TestCase

from games.engines.registry import get_engine
from games.models import BotReason, Event, Game, Prompt, Seat, Submission
from games.services import phase_resolve, submission_create
from games.services.submissions import submission_create_for_player
from games.tasks import resolve_phase
from tests.factories import make_started_game
from tests.fake_engine import TinyEngine
from tests.games.helpers import open_prompt, pick, play_step, seat


def _replayed(game: Game) -> dict:
    """The state the game's stored picks lead to, each step resolved once complete and the game moved past it
    (a step still complete at the end is resolved only if the game's phase says it was)."""
    engine = TinyEngine()
    state = engine.new_game(players=game.players, options=game.options, seed=game.seed)
    for s in Submission.objects.filter(game=game).select_related("seat").order_by("id"):
        if engine.is_step_complete(state):
            engine.resolve(state)
        engine.apply(state, s.seat.position, s.option_id)
    if engine.is_step_complete(state) and engine.step(state) < game.phase:
        engine.resolve(state)
    return state


@pytest.fixture
def enqueued(monkeypatch) -> list[tuple]:
    """The resolve tasks sent to the broker (not run)."""
    sent: list[tuple] = []
    monkeypatch.setattr(resolve_phase, "apply_async", lambda args, **kwargs: sent.append(tuple(args)))
    return sent


def _pick_first_option(game: Game, position: int):
    """The seat's pick, its on-commit callbacks captured and not run (no worker, no signal receivers)."""
    prompt = open_prompt(game, position)
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        submission = submission_create(seat=seat(game, position), prompt_id=prompt.prompt_id,
                                       option_id=prompt.options[0]["id"], source="api")
    return submission, callbacks


def test_the_last_pick_of_a_step_resolves_it_in_the_same_write(game2, enqueued):
    game, _ = game2
    pick(game, 0)
    pick(game, 0)
    pick(game, 1)
    version = Game.objects.get(pk=game.pk).version
    _, callbacks = _pick_first_option(game, 1)  # seat 1's bet completes the draft
    game.refresh_from_db()
    # Resolved before the commit's callbacks ran: the next (sequential) step is open, nothing is left to request.
    assert game.phase == 1 and game.resolve_requested_at is None
    assert game.version == version + 1  # one write: one new version for the waiting clients
    assert [p.seat.position for p in Prompt.objects.filter(game=game, closed_at__isnull=True)] == [0]
    assert Event.objects.filter(game=game, phase=0, text__startswith="Seat").count() == 2
    for callback in callbacks:
        callback()
    assert enqueued == []  # no task for the worker
    assert _replayed(game) == game.state  # the stored picks replay to the stored state


def test_a_pick_answers_with_the_next_steps_prompt(game2):
    game, _ = game2
    pick(game, 1)
    pick(game, 1)
    pick(game, 0)
    prompt = open_prompt(game, 0)
    outcome = submission_create_for_player(game_id=game.pk, user=seat(game, 0).user, prompt_id=prompt.prompt_id,
                                           option_id="low", source="api")
    # Seat 0 completed the draft: its next prompt is the take of step 1, with no worker to wait for.
    assert not outcome.step_completed
    assert outcome.next_prompt is not None and outcome.next_prompt.prompt_id == "s1-0-take"
    assert outcome.seat.game.phase == 1


def test_a_failing_resolution_leaves_the_pick_stored_and_the_step_to_the_worker(game2, enqueued, monkeypatch, caplog):
    game, _ = game2
    for position in (0, 0, 1):  # every pick of the draft but seat 1's bet
        pick(game, position)
    engine = get_engine("tinygame")

    def broken(state):
        state["scores"] = [999, 999]  # a half-done change, then the bug
        raise KeyError("a bug in the rules")

    monkeypatch.setattr(type(engine), "resolve", lambda self, state: broken(state))
    submission, callbacks = _pick_first_option(game, 1)
    game.refresh_from_db()
    assert Submission.objects.filter(pk=submission.pk).exists()  # the pick stands
    assert game.phase == 0 and game.resolve_requested_at is not None
    assert game.state["scores"] == [0, 0]  # the state as the pick left it, not the failed resolution's
    assert _replayed(game) == game.state
    assert "resolving phase 0 in the pick failed" in caplog.text
    for callback in callbacks:
        callback()
    assert enqueued == [(game.pk, 0)]  # the worker's task takes it over
    monkeypatch.undo()
    assert phase_resolve(game_id=game.pk, phase=0)
    game.refresh_from_db()
    assert game.phase == 1


def test_a_step_the_resolutions_bots_complete_goes_to_the_worker(db, enqueued):
    game, _ = make_started_game(players=2, options={"rounds": 2})
    Seat.objects.filter(game=game, position=1).update(is_bot=True, bot_reason=BotReason.MISSES)
    Seat.objects.filter(game=game, position=0).update(standing_orders=["take-one"])
    pick(game, 0)  # the card; the bot plays its whole draft in this write
    assert open_prompt(game, 1) is None
    _, callbacks = _pick_first_option(game, 0)  # the bet completes the draft, resolved here
    game.refresh_from_db()
    # The take step opened; the standing order and the bot answered it at once: complete, for the worker.
    assert game.phase == 1 and game.resolve_requested_at is not None
    assert set(Submission.objects.filter(game=game, phase=1).values_list("source", flat=True)) == {"standing", "bot"}
    for callback in callbacks:
        callback()
    assert enqueued == [(game.pk, 1)]
    assert phase_resolve(game_id=game.pk, phase=1)
    game.refresh_from_db()
    assert game.phase == 2


def test_without_resolve_in_pick_the_step_waits_for_the_worker(game2, enqueued, settings):
    settings.RESOLVE_IN_PICK = False
    game, _ = game2
    play_step(game)
    game.refresh_from_db()
    assert game.phase == 0 and game.resolve_requested_at is not None
    assert enqueued == [(game.pk, 0)]
