"""Clocks, missed deadlines, extensions, bots taking over, vacations, pause and the sweep."""

from datetime import timedelta

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from accounts.services import vacation_create
from games.models import Game, Prompt, Submission, SubmissionSource
from games.services import due_phases, due_phases_sweep, game_pause, game_resume, phase_resolve, seat_reclaim
from games.tasks import resolve_phase
from tests.factories import make_started_game
from tests.games.helpers import open_prompt, pick, play_step, seat

NO_EXTENSIONS = {"type": "fixed", "step_seconds": 3600, "extensions": 0, "bot_after_misses": 2}


def expire(game, position=None):
    qs = Prompt.objects.filter(game=game, closed_at__isnull=True)
    if position is not None:
        qs = qs.filter(seat__position=position)
    qs.update(deadline=timezone.now() - timedelta(seconds=1))


def sweep():
    return due_phases_sweep(resolve=lambda g, p: phase_resolve(game_id=g, phase=p))


def test_a_missed_deadline_gets_the_default_picks_and_the_step_resolves(db):
    game, _ = make_started_game(players=2, clock=NO_EXTENSIONS)
    pick(game, 0, open_prompt(game, 0).options[1]["id"])
    pick(game, 0)  # seat 0 complete; seat 1 silent
    expire(game, 1)
    assert due_phases() == [(game.pk, 0)]
    assert sweep() == 1
    game.refresh_from_db()
    assert game.phase == 1
    defaults = Submission.objects.filter(game=game, seat__position=1)
    assert [s.source for s in defaults] == [SubmissionSource.DEFAULT] * 2  # both picks of the compound step
    assert seat(game, 1).missed_deadlines == 1
    assert due_phases() == []


def test_an_extension_comes_before_the_default(db):
    game, _ = make_started_game(players=2, clock={"step_seconds": 3600, "extensions": 1})
    expire(game, 1)
    sweep()
    s1 = seat(game, 1)
    assert s1.extensions_used == 1 and not Submission.objects.filter(seat=s1).exists()
    assert open_prompt(game, 1).deadline > timezone.now() + timedelta(minutes=50)
    expire(game, 1)
    sweep()
    assert Submission.objects.filter(seat=s1, source=SubmissionSource.DEFAULT).exists()


def test_repeated_misses_hand_the_seat_to_a_bot_until_the_player_returns(db):
    game, _ = make_started_game(players=2, options={"rounds": 3}, clock=NO_EXTENSIONS)
    for _ in range(2):  # two steps missed by seat 1
        game.refresh_from_db()
        while open_prompt(game, 0) is not None and open_prompt(game, 0).phase == game.phase:
            pick(game, 0)
        expire(game, 1)
        sweep()
    s1 = seat(game, 1)
    assert s1.is_bot and s1.missed_deadlines == 2
    # The server's own event names the seat 1-based with its player, never "Seat 1" for
    # position 1.
    assert game.events.filter(text=f"Seat 2 ({s1.user.username}) missed 2 deadlines in a row; a bot plays it "
                                   "until its player returns.").exists()
    game.refresh_from_db()
    play_step(game)  # seat 0 plays; the bot answers seat 1 at once
    assert Submission.objects.filter(seat=s1, source=SubmissionSource.BOT).exists()
    seat_reclaim(seat=s1, by=s1.user)
    assert not seat(game, 1).is_bot


def test_a_pick_by_the_player_takes_the_seat_back_from_the_bot(db):
    game, _ = make_started_game(players=2)
    s1 = seat(game, 1)
    s1.is_bot, s1.missed_deadlines = True, 3
    s1.save()
    pick(game, 1)
    s1.refresh_from_db()
    assert not s1.is_bot and s1.missed_deadlines == 0


def test_vacations_stretch_deadlines(db):
    game, users = make_started_game(players=2, clock={"step_seconds": 24 * 3600})
    now = timezone.now()
    vacation_create(user=users[1], starts=now + timedelta(hours=1), ends=now + timedelta(days=3, hours=1))
    pick(game, 1)  # seat 1's next prompt opens with the vacation known
    bet = open_prompt(game, 1)
    assert bet.deadline - bet.opened_at == pytest.approx(timedelta(days=4), abs=timedelta(seconds=5))
    # A vacation starting after a prompt opened: the deadline waits at the sweep.
    vacation_create(user=users[0], starts=now - timedelta(hours=1), ends=now + timedelta(days=2))
    expire(game, 0)
    sweep()
    assert not Submission.objects.filter(seat__position=0).exists()
    assert open_prompt(game, 0).deadline > now + timedelta(days=2)


def test_pause_and_resume_shift_open_deadlines(db):
    game, users = make_started_game(players=2)
    before = open_prompt(game, 0).deadline
    game_pause(game=game, by=users[0])
    expire(game)
    assert due_phases() == []  # a paused game's deadlines do not fire
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now() - timedelta(hours=5))
    Prompt.objects.filter(game=game).update(deadline=before)
    game_resume(game=game, by=users[0])
    assert open_prompt(game, 0).deadline - before == pytest.approx(timedelta(hours=5), abs=timedelta(seconds=5))


def test_a_time_bank_is_charged_and_incremented(db):
    game, _ = make_started_game(players=2, clock={"type": "bank", "initial_seconds": 1000, "increment_seconds": 50})
    assert open_prompt(game, 0).deadline - open_prompt(game, 0).opened_at == timedelta(seconds=1000)
    Prompt.objects.filter(seat__position=0).update(opened_at=timezone.now() - timedelta(seconds=300))
    pick(game, 0)
    assert seat(game, 0).bank_seconds == pytest.approx(750, abs=2)


def test_a_submission_is_stored_even_if_the_broker_is_down(db, monkeypatch, settings):
    settings.RESOLVE_IN_PICK = False  # the worker's resolve task, as for a step no pick completes
    game, _ = make_started_game(players=2)

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis")

    monkeypatch.setattr(resolve_phase, "apply_async", broker_down)
    play_step(game)  # every submission succeeds
    game.refresh_from_db()
    assert game.phase == 0 and game.resolve_requested_at is not None
    Game.objects.filter(pk=game.pk).update(resolve_requested_at=timezone.now() - timedelta(minutes=1))
    assert due_phases() == [(game.pk, 0)]
    sweep()  # the broker is back: the sweep resolves the complete step
    game.refresh_from_db()
    assert game.phase == 1 and game.resolve_requested_at is None


def test_standing_orders_answer_when_a_prompt_opens(db):
    from games.services import seat_standing_orders_set

    game, _ = make_started_game(players=2)
    seat_standing_orders_set(seat=seat(game, 0), order_ids=["bet-low"])
    pick(game, 0)  # the card; the bet is made by the standing order
    assert open_prompt(game, 0) is None
    assert Submission.objects.get(seat__position=0, source=SubmissionSource.STANDING).option_id == "low"


def test_a_due_step_is_enqueued_once_per_grace_period_not_once_per_sweep(db, settings):
    # DESIGN.md: the sweep's cost grows with due phases. A busy worker must not be handed one more
    # duplicate of every unresolved due step at each beat tick (the load benchmark saw 3.5x the tasks).
    settings.RESOLVE_GRACE_SECONDS = 3
    game, _ = make_started_game(players=2, clock=NO_EXTENSIONS)
    expire(game, 1)
    queued = []
    now = timezone.now()
    assert due_phases_sweep(resolve=lambda g, p: queued.append((g, p)), now=now) == 1
    assert due_phases_sweep(resolve=lambda g, p: queued.append((g, p)), now=now + timedelta(seconds=1)) == 0
    assert queued == [(game.pk, 0)]
    # the task was lost: after the grace period the sweep asks again
    assert due_phases_sweep(resolve=lambda g, p: queued.append((g, p)), now=now + timedelta(seconds=4)) == 1
    assert queued == [(game.pk, 0), (game.pk, 0)]


def test_the_embedded_beat_fires_a_missed_deadline_without_celery_beat(db):
    """README: the embedded default (no broker) still fires deadlines; `manage.py beat_embedded`, which
    run.sh starts, runs beat's schedule in-process, the deadline sweep included."""
    import io

    from django.core.management import call_command
    from django.test import TestCase

    game, _ = make_started_game(players=2, clock=NO_EXTENSIONS)
    expire(game)
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("beat_embedded", "--once", stdout=io.StringIO(), stderr=io.StringIO())
    game.refresh_from_db()
    assert game.phase == 1
    assert set(Submission.objects.filter(game=game).values_list("source", flat=True)) == {SubmissionSource.DEFAULT}
