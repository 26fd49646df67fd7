"""CPU per GET /api/games/{id}/: a full view against a 304 (If-None-Match) and the wait loop's check.

    python benchmarks/conditional_get_cost.py [--games 300]    (--games: requests per figure;
                                                               SQLite by default, DATABASE_URL for PostgreSQL)

In-process (Django test client, DEBUG off) on a throw-away database, one started 4-player Faltisia game:
prints one JSON line with the mean CPU (time.process_time, this process only: the database server's
work is not in it) and wall time per request, and per version check of a blocking GET, sent as plain
SQL (what the server does) and as the equivalent ORM query (what it would cost compiled every time).
"""

import json
import statistics
import time

from _django import run_on_test_db


def _measure(fn, n: int) -> dict:
    cpu, wall = [], []
    for _ in range(n):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return {"cpu_ms": round(statistics.mean(cpu), 3), "wall_ms": round(statistics.median(wall), 3)}


def run(n: int) -> None:
    from django.conf import settings
    from django.db import connection
    from django.db.models import Exists, OuterRef
    from rest_framework.test import APIClient

    from accounts.services import user_create
    from games.models import Game, Seat
    from games.selectors import game_version_for_user
    from games.services import game_create, game_join

    settings.DEBUG = False  # no query log: measure what production runs
    users = [user_create(username=f"cost{i}", email=f"c{i}@example.org", password="Bench-pass-123",
                         email_verified=True) for i in range(4)]
    game = game_create(created_by=users[0], engine="faltisia", players=4, seed=1)
    for u in users[1:]:
        game_join(game=game, user=u)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {users[1].auth_token.key}")
    path = f"/api/games/{game.pk}/"
    full = client.get(path)
    assert full.status_code == 200 and full.json()["status"] == "active"
    etag = full["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304

    def orm_check():
        seated = Exists(Seat.objects.filter(game_id=OuterRef("pk"), user_id=users[1].pk))
        return Game.objects.filter(pk=game.pk).values_list("version", "is_public", seated).first()

    for _ in range(50):  # warm up: caches, connections, the first compilations
        client.get(path)
        client.get(path, HTTP_IF_NONE_MATCH=etag)
    out = {"db": connection.vendor, "requests": n, "body_bytes": len(full.content)}
    out["full_get"] = _measure(lambda: client.get(path), n)
    out["not_modified"] = _measure(lambda: client.get(path, HTTP_IF_NONE_MATCH=etag), n)
    out["check_raw_sql"] = _measure(lambda: game_version_for_user(game_id=game.pk, user=users[1]), n * 10)
    out["check_orm"] = _measure(orm_check, n * 10)
    out["cpu_ratio_full_to_304"] = round(out["full_get"]["cpu_ms"] / out["not_modified"]["cpu_ms"], 1)
    print(json.dumps(out))


if __name__ == "__main__":
    run_on_test_db(run, default_games=300)
