"""What a request costs before any game work: the layers of the web process, one rung at a time.

    python benchmarks/server_floor.py [--seconds 8] [--clients 1,8] [--database-url postgres://.../server_floor]

Each rung is served by its own gunicorn, shaped as production's (3 workers x 8 threads, gthread), on a
throw-away PostgreSQL database, and hammered by keep-alive client threads for ``--seconds``:

1. ``wsgi``: a WSGI application with nothing in it (gunicorn's HTTP parsing and thread hand-offs);
2. ``django``: a plain Django view through the whole middleware stack (no DRF, no query);
3. ``drf_auth``: a DRF view with the API's token authentication (its one query) and JSON rendering;
4. ``drf_insert``: the load benchmark's floor, stock DRF with its TokenAuthentication and one INSERT;
5. ``view``: the real ``GET /api/games/{id}/`` of a 4-seat Faltisia game, for comparison.

Prints one JSON line per rung and client count: requests/s and CPU ms per request of the web processes
and of PostgreSQL (benchmarks/cpu.py). The CPU-per-pick targets (docs/benchmarks.md) are read against these:
a pick needs ~1.6 requests.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bot_client  # noqa: E402
from benchmarks.cpu import cpu_by_group, cpu_delta  # noqa: E402
from benchmarks.load_bench import django_setup, drop_database, recreate_database  # noqa: E402
from tests.e2e.stack import free_port  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/server_floor"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0, help="length of each rung's run, per client count")
    ap.add_argument("--clients", default="1,8", help="client threads, comma-separated")
    ap.add_argument("--web-workers", type=int, default=3)
    ap.add_argument("--web-threads", type=int, default=8)
    ap.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    return ap.parse_args(argv)


def seed() -> tuple[str, int, int]:
    """A user with a token, a game for the floor's inserts, and a started 4-seat Faltisia game the user sits in:
    (token, floor game id, played game id)."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.services import user_create
    from games.models import Game, GameStatus
    from games.services.lifecycle import game_create, game_join

    users = [user_create(username=f"floor{i}", email=f"floor{i}@example.org", password="Bench-pass-123",
                         email_verified=True) for i in range(4)]
    floor_game = Game.objects.create(engine="faltisia", seed=0, players=1, status=GameStatus.ABANDONED,
                                     is_public=False)
    game = game_create(created_by=users[0], engine="faltisia", players=4, seed=1)
    for user in users[1:]:
        game_join(game=game, user=user)
    return users[0].auth_token.key, floor_game.pk, game.pk


def serve(app: str, env: dict, workdir: Path, workers: int, threads: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(workdir / f"gunicorn-{port}.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", app, "--bind", f"127.0.0.1:{port}", "--workers",
                             str(workers), "--threads", str(threads), "--worker-class", "gthread"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            api = bot_client.Api(base, timeout=2)
            api.call("GET", "/")
            api.close()
            return proc, base
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"gunicorn {app} did not start (log in {log.name})")


def hammer(base: str, method: str, path: str, token: str, clients: int, seconds: float) -> tuple[int, float]:
    stop, counts, errors = threading.Event(), [0] * clients, []

    def run(i: int) -> None:
        api = bot_client.Api(base)
        try:
            while not stop.is_set():
                status, body = api.call(method, path, token, {} if method == "POST" else None)
                if status not in (200, 201):
                    raise bot_client.ApiError(path, status, body)
                counts[i] += 1
        except Exception as e:  # noqa: BLE001 - reported below, the run is void
            errors.append(e)
        finally:
            api.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return sum(counts), time.perf_counter() - t0


def main(argv=None) -> int:
    a = parse_args(argv)
    recreate_database(a.database_url)
    django_setup(a.database_url)
    token, floor_game, game = seed()
    from django.db import connection

    connection.close()
    workdir = Path(tempfile.mkdtemp(prefix="server-floor-"))
    env = dict(os.environ, DATABASE_URL=a.database_url, CONN_MAX_AGE="60", DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
               SITE_URL="http://127.0.0.1", BENCHMARK_FLOOR_ENDPOINT="true", CELERY_BROKER_URL="memory://",
               CACHE_URL=f"filecache://{workdir}/cache",
               LOG_LEVEL="WARNING", VERSION_EVENTS_REDIS_URL="",
               SECRET_KEY="server-floor-bench-" + "x7Kp2mQv9Lw4Rt8Yb3Nc6Hd1Fg5Js0Za" * 2)
    rungs = [("wsgi", "benchmarks.hello_wsgi:application", "GET", "/"),
             ("django", "faltisia.wsgi", "GET", "/api/bench/plain/"),
             ("drf_auth", "faltisia.wsgi", "GET", "/api/bench/authenticated/"),
             ("drf_insert", "faltisia.wsgi", "POST", f"/api/bench/floor/{floor_game}/"),
             ("view", "faltisia.wsgi", "GET", f"/api/games/{game}/")]
    try:
        for name, app, method, path in rungs:
            proc, base = serve(app, env, workdir, a.web_workers, a.web_threads)
            try:
                hammer(base, method, path, token, 1, 1.0)  # warm: every worker loaded, connections open
                for clients in (int(c) for c in a.clients.split(",")):
                    before = cpu_by_group(sessions={"web": proc.pid})
                    n, wall = hammer(base, method, path, token, clients, a.seconds)
                    spent = cpu_delta(before, cpu_by_group(sessions={"web": proc.pid}))
                    print(json.dumps({"rung": name, "clients": clients, "requests": n,
                                      "per_s": round(n / wall, 1),
                                      "web_cpu_ms_per_request": round(spent.get("web", 0) * 1000 / n, 3),
                                      "db_cpu_ms_per_request": round(spent.get("db", 0) * 1000 / n, 3)}), flush=True)
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
    finally:
        drop_database(a.database_url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
