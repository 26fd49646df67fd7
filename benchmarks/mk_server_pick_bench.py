"""Mage Knight pick time on the server: what the API's move endpoint spends on one pick, without HTTP.

    .venv/bin/python benchmarks/mk_server_pick_bench.py [--games 4] [--emails on|off]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/faltisia_x .venv/bin/python benchmarks/mk_server_pick_bench.py

The target (docs/benchmarks.md): every Mage Knight pick applies in under 5 ms p99 on the server. Plays whole
2-player games, the greedy bot choosing for both seats (two human seats: the picks are the players', source
"api"), on a throw-away database (SQLite by default, PostgreSQL with DATABASE_URL), with the production settings
(DEBUG off; tasks published to an in-memory broker as a web process publishes them to Redis). Each pick is timed around
``submission_create_for_player``, the call the move endpoint makes: lock the game row, validate against the
prompt, engine apply, the server's own picks of single-option prompts, prompt rows, events, the submission, the
mail outbox rows, state save, commit and its on-commit callbacks. A pick that completes a step (a Mage Knight
step is a tactic choice or a whole turn) is resolved afterwards as a worker would (``phase_resolve``), timed on
its own line. "engine" is the time spent inside the engine's methods during the timed call (apply, prompt,
step checks, result): the rest is the server's (SQL, rows, serialising the state).

Prints figures per kind (CPU ms of this thread and wall ms: p50, p99, max; the engine's CPU share) and one JSON
line last. Wall time is what a player waits for, but on a shared machine it also counts other processes' time
slices; CPU time is the pick's own cost. On SQLite the database's work is in the CPU figure (it runs in this
process); on PostgreSQL the database server's own work is only in the wall figure.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _django import production_settings, run_on_test_db  # noqa: E402

production_settings("mk-server-pick-bench")

TARGET_P99_MS = 5.0
ENGINE_METHODS = ("apply", "prompt", "is_over", "is_step_complete", "step", "resolve", "result", "pending",
                  "default_option")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0


class EngineClock:
    """Wall time spent inside the engine's protocol methods while on (wraps the registry's instance; a method
    the engine calls on itself, as resolve calls is_step_complete, is counted once, in its caller)."""

    def __init__(self, engine) -> None:
        self.on, self.spent, self.spent_cpu, self.depth = False, 0.0, 0.0, 0
        for name in ENGINE_METHODS:
            setattr(engine, name, self._timed(getattr(engine, name)))

    def _timed(self, method):
        def timed(*args, **kwargs):
            if not self.on or self.depth:
                return method(*args, **kwargs)
            self.depth += 1
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - t0
                self.spent_cpu += time.thread_time() - c0
                self.depth -= 1
        return timed

    def measure(self, fn):
        """(result, (wall ms, CPU ms of this thread, engine wall ms, engine CPU ms, SQL statements)) of ``fn()``."""
        from django.db import connection

        statements = [0]

        def count(execute, sql, params, many, context):  # lighter than a debug cursor
            statements[0] += 1
            return execute(sql, params, many, context)

        self.on, self.spent, self.spent_cpu = True, 0.0, 0.0
        with connection.execute_wrapper(count):
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                result = fn()
            finally:
                wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
                self.on = False
        return result, (wall * 1000, cpu * 1000, self.spent * 1000, self.spent_cpu * 1000, statements[0])


def run(n_games: int) -> None:
    from django.db import connection

    from accounts.models import NotificationPreferences
    from accounts.services import user_create
    from games.engines.mage_knight.bots import GreedyBot
    from games.engines.registry import get_engine
    from games.models import Game, Prompt, SubmissionSource
    from games.services import game_create, game_join
    from games.services.resolution import phase_resolve
    from games.services.submissions import submission_create_for_player

    emails = os.environ.get("MK_BENCH_EMAILS", "on") != "off"
    engine = get_engine("mage_knight")
    clock = EngineClock(engine)
    users = []
    for i in range(2):
        u = user_create(username=f"mkbench{i}", email=f"mkbench{i}@example.org", password="Bench-pass-123",
                        email_verified=True)
        NotificationPreferences.objects.update_or_create(user=u, defaults={"email_prompts": emails,
                                                                          "email_results": emails})
        users.append(u)
    rows: dict[str, list[tuple[float, float, float]]] = defaultdict(list)  # kind -> (wall, cpu, engine) in ms
    picks_per_game = []
    for g in range(n_games):
        game = game_create(created_by=users[0], engine="mage_knight", players=2, options={}, clock={},
                           seed=9100 + g)
        game_join(game=game, user=users[1])
        bots = [GreedyBot(), GreedyBot()]
        picks = 0
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != "active":
                break
            if game.resolve_requested_at is not None:  # the worker's part: timed on its own line
                _, times = clock.measure(lambda: phase_resolve(game_id=game.pk, phase=game.phase))
                rows["resolve"].append(times)
                continue
            prompt = Prompt.objects.select_related("seat").get(game=game, closed_at__isnull=True)
            seat = prompt.seat.position
            option = bots[seat].choose(engine, game.state, seat)
            outcome, times = clock.measure(lambda: submission_create_for_player(
                game_id=game.pk, user=users[seat], prompt_id=prompt.prompt_id, option_id=option,
                source=SubmissionSource.API))
            assert outcome.submission.is_new
            kind = "pick (completes the step)" if outcome.step_completed or outcome.step_resolved else "pick"
            rows[kind].append(times)
            rows["every pick"].append(times)
            picks += 1
        assert game.status == "finished", game.status
        picks_per_game.append(picks)

    print(f"mage_knight server pick path, {connection.vendor}, {n_games} whole 2-player greedy games "
          f"({sum(picks_per_game)} picks, {sum(picks_per_game) / n_games:.0f} a game), emails "
          f"{'on' if emails else 'off'}:")
    out = {"db": connection.vendor, "games": n_games, "picks": sum(picks_per_game), "emails": emails}
    for kind in ("every pick", "pick", "pick (completes the step)", "resolve"):
        r = rows[kind]
        if not r:
            continue
        wall, cpu, eng, eng_cpu, sql = ([x[i] for x in r] for i in range(5))
        share = sum(eng_cpu) / sum(cpu)
        print(f"  {kind:26s} n={len(r):5d}  CPU ms p50 {pct(cpu, .5):5.2f} p99 {pct(cpu, .99):5.2f} "
              f"max {max(cpu):5.1f} | wall ms p50 {pct(wall, .5):6.2f} p99 {pct(wall, .99):6.2f} | engine CPU ms "
              f"p50 {pct(eng_cpu, .5):4.2f} p99 {pct(eng_cpu, .99):4.2f}, {100 * share:4.1f}% of the CPU | "
              f"{sum(sql) / len(sql):4.1f} SQL statements")
        out[kind] = {"n": len(r), "cpu_p50": round(pct(cpu, .5), 3), "cpu_p99": round(pct(cpu, .99), 3),
                     "cpu_max": round(max(cpu), 3), "wall_p50": round(pct(wall, .5), 3),
                     "wall_p99": round(pct(wall, .99), 3), "engine_cpu_p50": round(pct(eng_cpu, .5), 3),
                     "engine_cpu_p99": round(pct(eng_cpu, .99), 3), "engine_wall_p99": round(pct(eng, .99), 3),
                     "engine_cpu_share": round(share, 3), "statements_mean": round(sum(sql) / len(sql), 1)}
    every = out["every pick"]
    for what, key in (("CPU", "cpu_p99"), ("wall", "wall_p99")):
        print(f"target (every pick p99 < {TARGET_P99_MS:g} ms, {what}): "
              f"{'met' if every[key] < TARGET_P99_MS else 'NOT met'} ({every[key]:.2f} ms)")
    print(json.dumps(out))


if __name__ == "__main__":
    if "--emails" in sys.argv:  # run_on_test_db parses --games only
        i = sys.argv.index("--emails")
        os.environ["MK_BENCH_EMAILS"] = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    run_on_test_db(run, default_games=4)
