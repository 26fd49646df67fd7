"""Races against real PostgreSQL row locks: threads, each on its own connection."""

import threading

import pytest
from django.db import connection

from games.errors import GameError
from games.models import Event, Submission, SubmissionSource
from games.services import phase_resolve, submission_create
from games.tasks import resolve_phase
from tests.factories import make_started_game
from tests.games.helpers import open_prompt, play_step, seat

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_threads(n, target):
    barrier = threading.Barrier(n)
    results, errors = [], []

    def worker():
        try:
            barrier.wait()
            results.append(target())
        except GameError as e:
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, errors


@pytest.mark.parametrize("key", [None, "same-key"])
def test_twenty_identical_concurrent_submissions_store_exactly_one(key):
    game, _ = make_started_game(players=2)
    p = open_prompt(game, 0)
    s = seat(game, 0)
    results, errors = run_threads(20, lambda: submission_create(
        seat=s, prompt_id=p.prompt_id, option_id=p.options[0]["id"], idempotency_key=key,
        source=SubmissionSource.API))
    assert not errors
    assert Submission.objects.filter(game=game).count() == 1
    assert len({r.pk for r in results}) == 1
    assert sum(r.is_new for r in results) == 1


def test_concurrent_resolutions_resolve_the_phase_once(monkeypatch, settings):
    settings.RESOLVE_IN_PICK = False  # the step's last pick leaves it to the (lost) task
    game, _ = make_started_game(players=3)
    monkeypatch.setattr(resolve_phase, "apply_async", lambda *a, **k: None)  # as if the task were lost
    play_step(game)
    results, errors = run_threads(8, lambda: phase_resolve(game_id=game.pk, phase=0))
    assert not errors and sorted(results) == [False] * 7 + [True]
    assert Event.objects.filter(game=game, phase=0, text__startswith="Seat").count() == 3


def test_the_last_picks_of_a_step_racing_resolve_it_once_in_the_one_that_completes_it(monkeypatch):
    """A pick resolves the step it completes (RESOLVE_IN_PICK). Three seats' last picks race: the
    game row's lock orders them, so exactly one finds the step complete and resolves it, once."""
    game, _ = make_started_game(players=3)
    sent = []
    monkeypatch.setattr(resolve_phase, "apply_async", lambda *a, **k: sent.append(a))
    for position in range(3):
        p = open_prompt(game, position)
        submission_create(seat=seat(game, position), prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                          source=SubmissionSource.API)  # the card; the bet is left
    bets = [(seat(game, position), open_prompt(game, position)) for position in range(3)]
    turn = iter(range(3))
    lock = threading.Lock()

    def last_pick():
        with lock:
            s, p = bets[next(turn)]
        return submission_create(seat=s, prompt_id=p.prompt_id, option_id="low", source=SubmissionSource.API)

    results, errors = run_threads(3, last_pick)
    game.refresh_from_db()
    assert not errors and len(results) == 3 and all(r.is_new for r in results)
    assert game.phase == 1 and game.resolve_requested_at is None and sent == []
    assert Event.objects.filter(game=game, phase=0, text__startswith="Seat").count() == 3  # one reveal per seat


def test_the_sweep_reads_the_open_deadline_index():
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game, Prompt, Seat

    now = timezone.now()
    games = Game.objects.bulk_create([Game(engine="tinygame", seed=1, players=1, status="active") for _ in range(3000)])
    seats = Seat.objects.bulk_create([Seat(game=g, position=0) for g in games])
    Prompt.objects.bulk_create([Prompt(game=g, seat=s, prompt_id="p", phase=0, text="t", options=[], opened_at=now,
                                       deadline=now + timedelta(days=1 if i % 100 else -1))
                                for i, (g, s) in enumerate(zip(games, seats))])
    qs = Prompt.objects.filter(closed_at__isnull=True, deadline__lte=now)
    with connection.cursor() as c:
        c.execute("ANALYZE games_prompt")
        sql, params = qs.query.sql_with_params()
        c.execute("EXPLAIN " + sql, params)
        plan = "\n".join(r[0] for r in c.fetchall())
    assert "prompt_open_deadline" in plan, plan


def test_seats_deciding_at_the_same_moment_resolve_the_step_once():
    from games.models import Game, Prompt

    game, _ = make_started_game(players=4)

    def decide(position):
        def run():
            s = seat(game, position)
            while True:
                p = Prompt.objects.filter(seat=s, closed_at__isnull=True, phase=0).first()
                if p is None:
                    return True
                submission_create(seat=s, prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                                  source=SubmissionSource.API)
        return run

    threads = [threading.Thread(target=lambda f=decide(i): (f(), connection.close())) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game = Game.objects.get(pk=game.pk)
    assert game.phase == 1  # the eager on-commit task of whichever pick completed the step resolved it
    assert Event.objects.filter(game=game, phase=0, text__startswith="Seat").count() == 4
    assert Submission.objects.filter(game=game).count() == 8
