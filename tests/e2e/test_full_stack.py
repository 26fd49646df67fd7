"""The real thing: gunicorn, a Celery worker and beat (subprocesses) on Redis, PostgreSQL underneath.

Bot clients play through the HTTP API only; the database is then checked against a replay of the
stored picks in the engine.
"""

from __future__ import annotations

import random
import signal
import time
from collections import Counter

import pytest
from django.db import connection

from games.engines.registry import get_engine
from games.models import Event, Game, Submission
from tests.e2e import client
from tests.e2e.stack import Stack, database_url, wait_for
from tests.fake_engine import replay

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True)]


@pytest.fixture
def make_stack(transactional_db, tmp_path):
    stacks: list[Stack] = []

    def make(**kwargs) -> Stack:
        stack = Stack(db_url=database_url(connection.settings_dict), workdir=tmp_path, **kwargs)
        stacks.append(stack)
        try:
            return stack.start()
        except Exception:
            stack.stop_all()
            raise

    yield make
    for stack in stacks:
        stack.stop_all()
    for name in ("web", "worker", "beat"):
        text = (tmp_path / f"{name}.log").read_text(errors="replace") if (tmp_path / f"{name}.log").exists() else ""
        if "Traceback" in text:
            print(f"--- {name}.log (tail) ---\n{text[-3000:]}")


def assert_game_matches_its_replay(gid: int) -> Game:
    game = Game.objects.get(pk=gid)
    assert game.status == "finished"
    picks = [(s.seat.position, s.option_id)
             for s in Submission.objects.filter(game=game).select_related("seat").order_by("id")]
    state = replay(players=game.players, options=game.options, seed=game.seed, picks=picks)
    assert game.result == get_engine("tinygame").result(state).as_dict()
    assert game.result["scores"] == list(state["scores"])
    return game


def assert_each_phase_resolved_once(game: Game) -> None:
    """Draft steps log one reveal per seat, take steps one summary: more would mean a double resolution."""
    reveals = Counter(e.phase for e in Event.objects.filter(game=game, text__startswith="Seat ", data__has_key="card"))
    takes = Counter(e.phase for e in Event.objects.filter(game=game, text__startswith="Takes resolved"))
    rounds = game.options.get("rounds", 2)
    assert reveals == {2 * r: game.players for r in range(rounds)}
    assert takes == {2 * r + 1: 1 for r in range(rounds)}


def test_a_whole_game_through_the_http_api_with_real_worker_and_beat(make_stack):
    stack = make_stack()
    tokens = client.register(stack.base_url, 3)
    gid = client.new_game(stack.base_url, tokens, options={"rounds": 3})
    finished, picks = client.play_to_end(stack.base_url, gid, tokens, seed=3, timeout=180)
    # Every pick but the last round's single cards, which the server picks itself.
    assert finished["result"]["ranks"] and picks == Submission.objects.filter(game_id=gid).exclude(
        source="forced").count()
    assert Submission.objects.filter(game_id=gid, source="forced").count() == 3
    game = assert_game_matches_its_replay(gid)
    assert_each_phase_resolved_once(game)
    # Each step's last pick resolved it in the web process (RESOLVE_IN_PICK): none was left to the worker.
    assert stack.log("web").count(f"game {gid}: resolved phase") == 2 * 3
    assert "Task games.resolve_phase[" not in stack.log("worker")
    st, log = client.call(stack.base_url, "GET", f"/api/games/{gid}/log/", tokens[0])
    assert st == 200 and log["events"][-1]["text"] == "The game is over."


def test_a_worker_killed_mid_resolution_loses_nothing(make_stack):
    # A solo pool: SIGKILL to the worker kills the very process running the resolution.
    # Every step goes to the worker (by default a pick resolves the step it completes).
    stack = make_stack(worker_pool="solo", concurrency=1, env={"RESOLVE_IN_PICK": "false"})
    tokens = client.register(stack.base_url, 2)
    gid = client.new_game(stack.base_url, tokens, options={"rounds": 1, "slow": 2})
    rng = random.Random(5)
    while Game.objects.get(pk=gid).resolve_requested_at is None:
        client.play_round(stack.base_url, gid, tokens, rng)
    wait_for(lambda: "Task games.resolve_phase[" in stack.log("worker"), what="the resolve task to start")
    time.sleep(0.7)  # inside engine.resolve (it sleeps 2 s) with the game row locked
    stack.stop("worker", signal.SIGKILL)
    assert "succeeded" not in stack.log("worker").split("Task games.resolve_phase[", 1)[1]
    game = Game.objects.get(pk=gid)
    assert game.phase == 0 and game.resolve_requested_at is not None  # the transaction rolled back
    stack.start_worker()  # the sweep re-enqueues the complete, unresolved step
    finished, _ = client.play_to_end(stack.base_url, gid, tokens, seed=6, timeout=120)
    assert_each_phase_resolved_once(assert_game_matches_its_replay(gid))


def test_redis_down_while_players_submit_then_the_sweep_catches_up(make_stack):
    stack = make_stack(env={"RESOLVE_IN_PICK": "false"})  # the steps wait for the worker, through the broker
    tokens = client.register(stack.base_url, 3)
    gid = client.new_game(stack.base_url, tokens, options={"rounds": 1})
    stack.stop("redis")
    rng = random.Random(7)
    t0 = time.time()
    slowest = 0.0
    while Game.objects.get(pk=gid).resolve_requested_at is None:
        r0 = time.perf_counter()
        picks, _ = client.play_round(stack.base_url, gid, tokens, rng)  # raises on any refused submission
        slowest = max(slowest, time.perf_counter() - r0)
        assert time.time() - t0 < 60
    assert slowest < 10, "a submission waited on the dead broker"
    assert Game.objects.get(pk=gid).phase == 0  # complete, but nobody could be told
    assert Submission.objects.filter(game_id=gid).count() == 6  # 3 seats x (card + bet)
    stack.start_redis()
    wait_for(lambda: Game.objects.get(pk=gid).phase == 1, what="the sweep to resolve the step", timeout=90)
    client.play_to_end(stack.base_url, gid, tokens, seed=8, timeout=120)
    assert_each_phase_resolved_once(assert_game_matches_its_replay(gid))
    print(f"redis outage: slowest round of submissions {slowest:.2f}s; process restarts {stack.restarts}")
