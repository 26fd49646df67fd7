"""What the game state's read and write cost a pick, in-process on PostgreSQL, and what one state write a
step instead of one a pick would save.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python benchmarks/state_write_cost.py [--games 2]

Every pick loads the game row (its whole state, a JSON snapshot), applies the pick through the
engine, and writes the whole state back: ``json.loads`` of the row, ``json.dumps`` for the UPDATE, and
PostgreSQL's rewrite of the row (TOAST-compressed) and its WAL. A pick of a simultaneous step could
instead only record its submission and leave the state until the step resolves (one state write per
step). This prints what that would save per pick: the states of seeded 4-player Faltisia games taken at
every pick (random bots, the engine alone), and per state the CPU of this process for loads/dumps (json
and orjson) and the database backend's CPU and wall time of the row's UPDATE (read from /proc for the
backend's pid), against an UPDATE of the same row that leaves the state alone.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ["DJANGO_SETTINGS_MODULE"] = "faltisia.settings"
os.environ.setdefault("CELERY_BROKER_URL", "memory://")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _django import run_on_test_db  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run(n_games: int) -> None:
    import orjson
    from django.db import connection

    from games.engines.registry import get_engine
    from games.models import Game, GameStatus

    engine = get_engine("faltisia")
    states = []
    for g in range(n_games):
        state = engine.new_game(players=4, options={}, seed=500 + g)
        rng = random.Random(g)
        while not engine.is_over(state):
            if engine.is_step_complete(state):
                engine.resolve(state)
                continue
            asked = [(p, engine.prompt(state, p)) for p in range(4)]
            asked = [(p, q) for p, q in asked if q is not None]
            if not asked:
                raise RuntimeError("no seat is asked anything in a step that is not complete")
            p, q = rng.choice(asked)
            engine.apply(state, p, rng.choice(q.options).id)
            states.append(json.loads(json.dumps(state)))
    sizes = [len(json.dumps(s)) for s in states]

    def cpu_us(fn, items):
        t0 = time.process_time()
        for x in items:
            fn(x)
        return (time.process_time() - t0) / len(items) * 1e6

    texts = [json.dumps(s) for s in states]
    figures = {
        "picks": len(states), "state_bytes_mean": round(statistics.mean(sizes)),
        "json_dumps_us": round(cpu_us(json.dumps, states), 1), "json_loads_us": round(cpu_us(json.loads, texts), 1),
        "orjson_dumps_us": round(cpu_us(orjson.dumps, states), 1),
        "orjson_loads_us": round(cpu_us(orjson.loads, texts), 1),
    }
    game = Game.objects.create(engine="faltisia", seed=1, players=4, status=GameStatus.ACTIVE, state=states[0])
    table = connection.ops.quote_name(Game._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]

        def updates(with_state: bool) -> tuple[float, float]:
            c0, w0 = _backend_cpu(pid), time.perf_counter()
            for i, text in enumerate(texts):
                if with_state:
                    cursor.execute(f"UPDATE {table} SET state = %s::jsonb, version = version + 1 WHERE id = %s",
                                   [text, game.pk])
                else:
                    cursor.execute(f"UPDATE {table} SET version = version + 1 WHERE id = %s", [game.pk])
            return ((_backend_cpu(pid) - c0) / len(texts) * 1e6, (time.perf_counter() - w0) / len(texts) * 1e6)

        for with_state in (True, False, True, False):  # interleaved, the machine is shared
            cpu, wall = updates(with_state)
            key = "update_with_state" if with_state else "update_without_state"
            figures.setdefault(f"{key}_db_cpu_us", []).append(round(cpu, 1))
            figures.setdefault(f"{key}_wall_us", []).append(round(wall, 1))
    print(json.dumps(figures))


if __name__ == "__main__":
    run_on_test_db(run, default_games=2)
