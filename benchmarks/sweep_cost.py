"""How the deadline sweep's cost grows: with due steps, not with the number of games.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench python benchmarks/sweep_cost.py [--games 20000]

Creates N active games with an open prompt each (deadlines in the future), then K due ones, and
times `due_phases()`; on PostgreSQL it also prints the query plan. Prints one JSON line per size.
"""

import json
import time
from datetime import timedelta

from _django import run_on_test_db


def run(n_games: int) -> None:
    from django.db import connection
    from django.utils import timezone

    from games.models import Game, Prompt, Seat
    from games.services import due_phases

    now = timezone.now()
    opts = [{"id": "a", "label": "A"}]

    def add(n: int, deadline) -> None:
        games = Game.objects.bulk_create([Game(engine="tinygame", seed=1, players=1, status="active", state={})
                                          for _ in range(n)], batch_size=2000)
        seats = Seat.objects.bulk_create([Seat(game=g, position=0) for g in games], batch_size=2000)
        Prompt.objects.bulk_create([Prompt(game=g, seat=s, prompt_id="p", phase=0, text="t", options=opts,
                                           deadline=deadline, opened_at=now) for g, s in zip(games, seats)],
                                   batch_size=2000)

    add(n_games, now + timedelta(days=2))
    with connection.cursor() as c:
        if connection.vendor == "postgresql":
            c.execute("ANALYZE")
    for due in (0, 10, 100, 1000):
        if due:
            add(due, now - timedelta(seconds=1))
        t0 = time.perf_counter()
        for _ in range(20):
            pairs = due_phases(now=now, limit=5000)
        ms = (time.perf_counter() - t0) / 20 * 1000
        print(json.dumps({"games": Game.objects.count(), "due": len(pairs), "sweep_ms": round(ms, 2),
                          "db": connection.vendor}))
        Prompt.objects.filter(deadline__lte=now).update(closed_at=now)  # next size starts from zero due
    if connection.vendor == "postgresql":
        sql, params = Prompt.objects.filter(closed_at__isnull=True, deadline__lte=now,
                                            game__status="active").values_list("game_id").query.sql_with_params()
        with connection.cursor() as c:
            c.execute("EXPLAIN " + sql, params)
            print("\n".join(r[0] for r in c.fetchall()))


if __name__ == "__main__":
    run_on_test_db(run, default_games=20000)
