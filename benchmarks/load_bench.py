"""Load benchmark of the whole server: bot clients play many Faltisia games over HTTP.

    python benchmarks/load_bench.py --games 20 --players 4 --seconds 60 --seed 1

One command does everything (see benchmarks/README.md): it (re)creates a PostgreSQL database of its
own and migrates it, seeds ``--idle-games`` active games with bulk_create, starts gunicorn, a Celery
worker and beat (and a private redis-server unless --redis-url is given) as subprocesses, then
  1. floor: a bare DRF endpoint doing one insert, hammered by as many client threads as there are games
     (half before the load, half after, since the machine is shared);
  2. load: one client thread per game plays every seat through the JSON API for ``--seconds``;
  3. deadlines: ``--due`` of the seeded games become due over ``--due-spread`` seconds, and the time
     from each deadline to its resolution (beat sweep + worker) is read from the game row;
and prints the figures as a table and as one JSON line, then tears everything down.

Targets (docs/benchmarks.md): next prompt visible within 1 s (p99) of a step's last pick; a due
deadline resolved within 5 s (p99) with 10,000 active games; submissions/s at least half the floor.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import bot_client  # noqa: E402
from benchmarks import stmt_count  # noqa: E402
from benchmarks.cpu import cpu_by_group, cpu_delta  # noqa: E402
from benchmarks.stats import percentile, rounded, table  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bench_db"


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="concurrent games played over HTTP")
    ap.add_argument("--game", default="faltisia", help="the engine the bots play (faltisia, mage_knight, ...)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=60, help="length of the load phase")
    ap.add_argument("--users", type=int, default=20,
                    help="distinct users sitting at the games (at least --players, at most one per seat); "
                         "each registration hashes a password, so the pool is kept small")
    ap.add_argument("--seed", type=int, default=1, help="seeds the bots' picks and the seeded games")
    ap.add_argument("--idle-games", type=int, default=10_000, help="active games seeded in the database")
    ap.add_argument("--due", type=int, default=100, help="seeded games whose deadline falls due")
    ap.add_argument("--due-spread", type=float, default=20.0, help="seconds over which those deadlines fall")
    ap.add_argument("--floor-seconds", type=float, default=20.0, help="floor run length (half before, half after)")
    ap.add_argument("--web-workers", type=int, default=3)
    ap.add_argument("--web-threads", type=int, default=8,
                    help="gunicorn threads per worker (gthread): a client waiting for a step's resolution holds "
                         "one with its blocking GET, so workers x threads should cover --games (one request in "
                         "flight per game thread); each thread keeps a PostgreSQL connection")
    ap.add_argument("--web-server", choices=("gunicorn", "granian"), default="gunicorn",
                    help="gunicorn as in production (Procfile), or granian's WSGI server for a comparison (not a "
                         "dependency of the project: pip install granian==2.8.9; docs/benchmarks.md)")
    ap.add_argument("--granian-backpressure", type=int, default=None,
                    help="granian's --backpressure: the connections a worker accepts (default: granian's own)")
    ap.add_argument("--client-wait", type=int, default=5,
                    help="seconds a bot's blocking GET (?wait=) may wait for the next step before a 304")
    ap.add_argument("--worker-concurrency", type=int, default=2)
    ap.add_argument("--mail-worker-concurrency", type=int, default=1,
                    help="processes of the worker that serves the mail queue (Procfile: mailworker); 0: no such "
                         "worker, the game worker consumes the mail queue too (a diagnostic)")
    ap.add_argument("--sweep-interval", type=float, default=2.0, help="beat's sweep period (SWEEP_INTERVAL_SECONDS)")
    ap.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
                    help="the benchmark's own database: dropped and recreated")
    ap.add_argument("--redis-url", default=None, help="a broker to use instead of a private redis-server")
    ap.add_argument("--keep-db", action="store_true", help="leave the database in place afterwards")
    ap.add_argument("--workdir", default=None, help="where process logs go (default: a temporary folder)")
    ap.add_argument("--emails", choices=("on", "off"), default="on",
                    help="off: the benchmark's players turn prompt and result emails off in their preferences, "
                         "to measure the turn server without the mail layer's after-commit work (a diagnostic)")
    ap.add_argument("--contract-check", default=None, metavar="PATH",
                    help="also run this contract client (api_client_check.py) against the stack: --seats 4 --seed 1")
    ap.add_argument("--json-out", default=None, help="also write the JSON figures to this file")
    ap.add_argument("--scale-games", type=int, default=0,
                    help="seed this many active games with benchmarks/scale_seed.py (COPY: history, users who "
                         "read mail, the periodic jobs' due work) instead of --idle-games, and report every "
                         "periodic task as the real worker ran it")
    ap.add_argument("--reuse-db", action="store_true",
                    help="the database is already migrated and scale-seeded (scale_bench.py --seed-only): "
                         "neither recreate, seed nor drop it; --scale-games is its size")
    ap.add_argument("--reminder-interval", type=float, default=300.0,
                    help="beat period of mail.send_due_reminders (MAIL_REMINDER_INTERVAL_SECONDS)")
    ap.add_argument("--digest-interval", type=float, default=3600.0,
                    help="beat period of mail.send_digests (MAIL_DIGEST_INTERVAL_SECONDS)")
    return ap.parse_args(argv)


# --- database ---------------------------------------------------------------------------------------

def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def django_setup(db_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "faltisia.settings"
    os.environ["DATABASE_URL"] = db_url
    os.environ["CONN_MAX_AGE"] = "0"
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")  # this process never enqueues
    import django

    django.setup()


# --- phases -----------------------------------------------------------------------------------------

def first_run_at(timing_dir: Path | None, task: str) -> datetime | None:
    """When ``task`` first started in the stack's workers (benchmarks/task_timing.py rows), if it ran."""
    from benchmarks import task_timing

    starts = [r["at"] for r in (task_timing.read(timing_dir) if timing_dir else []) if r["task"] == task]
    return datetime.fromtimestamp(min(starts), tz=dt_timezone.utc) if starts else None


def wait_for_idle_queues(broker_url: str, timeout: float = 60.0) -> float:
    """Wait until the Celery queues are empty (the load's resolutions and emails done), so the second
    floor run measures the floor, not the floor plus the load's backlog; the seconds waited."""
    import redis
    from django.conf import settings
    from kombu.transport.redis import Channel

    client, t0 = redis.Redis.from_url(broker_url), time.monotonic()
    # A queue is a list per priority step (CELERY_BROKER_TRANSPORT_OPTIONS), named as kombu names them.
    steps = settings.CELERY_BROKER_TRANSPORT_OPTIONS["priority_steps"]
    lists = [q if step == 0 else f"{q}{Channel.sep}{step}" for q in ("celery", "mail") for step in steps]
    while time.monotonic() - t0 < timeout and any(client.llen(key) for key in lists):
        time.sleep(0.2)
    time.sleep(1.0)  # the last tasks taken from the queues finish
    return time.monotonic() - t0


def run_floor(base_url: str, token: str, game_id: int, threads: int, seconds: float) -> tuple[int, list[float], float]:
    """``threads`` clients POST to the floor endpoint for ``seconds``: (requests, latencies ms, wall s)."""
    stop = threading.Event()
    lat: list[list[float]] = [[] for _ in range(threads)]

    def hammer(i: int) -> None:
        api = bot_client.Api(base_url)
        try:
            while not stop.is_set():
                t0 = time.perf_counter()
                st, body = api.call("POST", f"/api/bench/floor/{game_id}/", token, {})
                if st != 201:
                    raise bot_client.ApiError("floor", st, body)
                lat[i].append((time.perf_counter() - t0) * 1000)
        finally:
            api.close()

    with ThreadPoolExecutor(threads) as pool:
        t0 = time.perf_counter()
        futures = [pool.submit(hammer, i) for i in range(threads)]
        time.sleep(seconds)
        stop.set()
        for f in futures:
            f.result()
        wall = time.perf_counter() - t0
    flat = [x for xs in lat for x in xs]
    return len(flat), flat, wall


def run_load(base_url: str, seat_tokens: list[list[str]], seconds: float, seed: int, wait_seconds: int = 5,
             game: str = "faltisia"):
    """One thread per game slot plays its game (and a new one if it ends) until ``seconds`` pass."""
    stop = threading.Event()
    results: list[list[bot_client.GameStats]] = [[] for _ in seat_tokens]
    errors: list[str] = []

    def play(slot: int) -> None:
        api = bot_client.Api(base_url)
        n = 0
        try:
            while not stop.is_set():
                gid = bot_client.create_and_join(api, seat_tokens[slot], game=game)
                driver = bot_client.GameDriver(base_url=base_url, game_id=gid, tokens=seat_tokens[slot],
                                               seed=seed * 100_003 + slot * 101 + n, stop=stop,
                                               wait_seconds=wait_seconds)
                results[slot].append(driver.run())
                n += 1
        except Exception as e:  # reported with the figures: a refused pick or a server error is a finding
            errors.append(f"slot {slot}: {e!r}"[:300])
        finally:
            api.close()

    with ThreadPoolExecutor(len(seat_tokens)) as pool:
        t0 = time.perf_counter()
        futures = [pool.submit(play, i) for i in range(len(seat_tokens))]
        while time.perf_counter() - t0 < seconds and not all(f.done() for f in futures):
            time.sleep(0.1)
        stop.set()
        wall = time.perf_counter() - t0
        for f in futures:
            f.result()
    played = [s for per in results for s in per]
    return played, wall, errors


def server_side_step_ms(game_ids: list[int]) -> list[float]:
    """Per resolved step, from the database: last pick stored -> the resolution started (got the lock).

    The client-side figure adds the resolution itself and the client's next GET; this one isolates the
    enqueue and the wait for a free worker.
    """
    from django.db import connection
    from django.db.models import Max, Min

    from games.models import Prompt, Submission

    last_pick = {(r["game_id"], r["phase"]): r["at"] for r in Submission.objects.filter(game_id__in=game_ids)
                 .values("game_id", "phase").annotate(at=Max("created_at"))}
    opened = {}
    for r in Prompt.objects.filter(game_id__in=game_ids).values("game_id", "phase").annotate(at=Min("opened_at")):
        opened.setdefault(r["game_id"], []).append((r["phase"], r["at"]))
    out = []
    for (gid, phase), at in last_pick.items():
        later = [t for p, t in opened.get(gid, []) if p > phase]
        if later:
            out.append((min(later) - at).total_seconds() * 1000)
    connection.close()
    return out


def run_deadlines(game_ids: list[int], spread: float, lead: float = 3.0, timeout: float = 90.0) -> dict:
    """Make ``game_ids`` due over ``spread`` seconds; time each deadline to its resolution's commit."""
    from django.db import connection
    from django.utils import timezone

    from benchmarks.seed import make_due
    from games.models import Game

    before = dict(Game.objects.filter(id__in=game_ids).values_list("id", "phase"))
    deadlines = make_due(game_ids=game_ids, first=timezone.now() + timedelta(seconds=lead), spread_seconds=spread)
    last = max(deadlines.values())
    seen_at: dict[int, object] = {}
    while timezone.now() < last + timedelta(seconds=timeout):
        now = timezone.now()
        for gid, phase in Game.objects.filter(id__in=game_ids).exclude(id__in=seen_at).values_list("id", "phase"):
            if phase != before[gid]:
                seen_at[gid] = now  # observed by this poll (an upper bound; updated_at is the commit)
        if len(seen_at) == len(game_ids):
            break
        time.sleep(0.1)
    rows = dict(Game.objects.filter(id__in=seen_at).values_list("id", "updated_at"))
    connection.close()
    resolved_ms = [(rows[g] - deadlines[g]).total_seconds() * 1000 for g in seen_at]
    observed_ms = [(seen_at[g] - deadlines[g]).total_seconds() * 1000 for g in seen_at]
    return {"due": len(game_ids), "resolved": len(seen_at), "resolved_ms": resolved_ms, "observed_ms": observed_ms}


def run_contract_check(path: str, base_url: str, workdir: Path) -> str:
    proc = subprocess.run([sys.executable, path, base_url, "--seats", "4", "--seed", "1"], cwd=workdir,
                          capture_output=True, text=True, timeout=900)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    return (lines[-1] if lines else proc.stderr[-500:]) + f"  (exit {proc.returncode})"


# --- main -------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    a = parse_args(argv)
    if a.web_server == "granian" and importlib.util.find_spec("granian") is None:
        sys.exit("--web-server granian: granian is not installed (pip install granian==2.8.9; not a dependency)")
    workdir = Path(a.workdir or tempfile.mkdtemp(prefix="load-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    say = lambda msg: print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)  # noqa: E731
    load_before = os.getloadavg()

    if a.reuse_db:
        say(f"database {urlsplit(a.database_url).path.lstrip('/')}: reused as seeded ({a.scale_games} games)")
    else:
        say(f"database {urlsplit(a.database_url).path.lstrip('/')}: recreate and migrate")
        recreate_database(a.database_url)
    django_setup(a.database_url)
    from django.core.management import call_command
    from django.db import connection

    from django.utils import timezone

    from benchmarks import scale_seed, task_timing
    from benchmarks.seed import seed_active_games
    from benchmarks.stack import BenchStack
    from games.models import Game, GameStatus

    t0 = time.perf_counter()
    if not a.reuse_db:
        call_command("migrate", verbosity=0)
        t0 = time.perf_counter()
        if a.scale_games:
            scale_seed.seed(games=a.scale_games)
        else:
            idle_ids = seed_active_games(count=a.idle_games, players=4, seed=a.seed)
    if a.scale_games:  # the deadlines measured fall on games past the seeded due work (games 1-80)
        idle_ids = range(101, a.scale_games + 1)
    seed_seconds = time.perf_counter() - t0
    floor_game = Game.objects.create(engine="faltisia", seed=0, players=1, status=GameStatus.ABANDONED,
                                     is_public=False)
    if not a.reuse_db:  # a reused database was analyzed by its seeding
        with connection.cursor() as cur:
            cur.execute("ANALYZE")  # as autovacuum would have by now on a server that grew to this size
    connection.close()
    say(f"seeded {len(idle_ids)} active games in {seed_seconds:.1f}s; starting the stack (logs in {workdir})")

    shifted = None
    if a.scale_games:  # the seeded times move to now: the due work is the designed one, however old the seed
        shift_started = timezone.now()
        shifted = scale_seed.shift_to(start=shift_started, games=a.scale_games)
        shifted["crossed_meanwhile_moved"] = scale_seed.reminders_crossed_meanwhile_move(
            since=shift_started, until=timezone.now())
        connection.close()
        say(f"seeded times moved by {shifted['shifted_s']:.0f}s to now in {shifted['seconds']:.1f}s; "
            f"{shifted['crossed_meanwhile_moved']} prompts whose reminder fell due meanwhile moved on as long")
    shifted_at = timezone.now()
    timing_dir = workdir / "task-timing" if a.scale_games else None
    if timing_dir:
        timing_dir.mkdir(exist_ok=True)
    stmt_dir = workdir / "statements"  # each process's SQL statements (benchmarks/stmt_count.py)
    stmt_dir.mkdir(exist_ok=True)
    periods = {"MAIL_REMINDER_INTERVAL_SECONDS": str(a.reminder_interval),
               "MAIL_DIGEST_INTERVAL_SECONDS": str(a.digest_interval),
               # every bot signs up from 127.0.0.1: the per-address sign-up throttle (10 an hour per web
               # process, in its local-memory cache) refused some when one process took most of them
               "SIGNUPS_PER_IP": str(max(1000, a.users * 2))}
    stack = BenchStack(db_url=a.database_url, workdir=workdir, web_workers=a.web_workers, web_threads=a.web_threads,
                       worker_concurrency=a.worker_concurrency, sweep_interval=a.sweep_interval,
                       redis_url=a.redis_url, mail_worker_concurrency=a.mail_worker_concurrency,
                       task_timing_dir=timing_dir, stmt_count_dir=stmt_dir, extra_env=periods,
                       web_server=a.web_server, granian_backpressure=a.granian_backpressure)
    figures: dict = {}
    try:
        stack.start()
        base = stack.base_url
        n_users = max(min(a.users, a.games * a.players), a.players)
        say(f"registering {n_users} users for {a.games} games through the API")
        tag = bot_client.unique_name("lb")

        def reg(i: int) -> str:
            api = bot_client.Api(base)
            try:
                return bot_client.register(api, f"{tag}u{i}")
            finally:
                api.close()

        with ThreadPoolExecutor(4) as pool:
            tokens = list(pool.map(reg, range(n_users)))
        if a.emails == "off":
            from accounts.models import NotificationPreferences

            NotificationPreferences.objects.filter(user__username__startswith=tag).update(
                email_prompts=False, email_results=False)
            connection.close()
        # consecutive users per game: distinct within a game as long as there are at least ``players``
        seat_tokens = [[tokens[(g * a.players + s) % n_users] for s in range(a.players)] for g in range(a.games)]

        cpu_now = lambda: cpu_by_group(sessions={n: p.pid for n, p in stack.procs.items()})  # noqa: E731
        say(f"floor run 1/2 ({a.floor_seconds / 2:.0f}s, {a.games} clients)")
        c0 = cpu_now()
        f1 = run_floor(base, tokens[0], floor_game.pk, a.games, a.floor_seconds / 2)
        c1 = cpu_now()
        reminder_due = {}
        if a.scale_games:  # the reminders fall due during the load, each with a whole period left in it
            reminder_due = scale_seed.rearm_due_work(start=timezone.now() + timedelta(seconds=5),
                                                     span_seconds=max(0.0, a.seconds - a.reminder_interval - 10))
            connection.close()
        say(f"load run ({a.seconds:.0f}s, {a.games} games x {a.players} seats)")
        cpu0 = time.process_time()
        load_start = time.time()
        s1 = stmt_count.totals(stmt_dir)
        games, load_wall, load_errors = run_load(base, seat_tokens, a.seconds, a.seed, a.client_wait, a.game)
        load_end = time.time()
        client_cpu = time.process_time() - cpu0
        # The load's CPU and statements include the tasks it queued that ran after its end: a pick's share of
        # its step's resolution and mail is the pick's cost, however far behind the workers were.
        drained = wait_for_idle_queues(stack.env["CELERY_BROKER_URL"])
        c2 = cpu_now()
        time.sleep(2 * stmt_count.STATEMENT_FLUSH_SECONDS)  # the processes' last counts of the load are written
        s2 = stmt_count.totals(stmt_dir)
        games_started = len(games)
        server_steps = server_side_step_ms([g.game_id for g in games])
        say(f"floor run 2/2 (after the load's queued tasks drained: {drained:.1f}s)")
        c3 = cpu_now()
        f2 = run_floor(base, tokens[0], floor_game.pk, a.games, a.floor_seconds / 2)
        c4 = cpu_now()
        d1, d2 = cpu_delta(c0, c1), cpu_delta(c3, c4)
        cpu_floor = {k: d1.get(k, 0.0) + d2.get(k, 0.0) for k in d1.keys() | d2.keys()}
        cpu_load = cpu_delta(c1, c2)
        due_ids = idle_ids[:a.due]
        say(f"deadlines: {len(due_ids)} of {len(idle_ids)} seeded games fall due over {a.due_spread:.0f}s")
        dl = run_deadlines(due_ids, a.due_spread)
        active_now = Game.objects.filter(status=GameStatus.ACTIVE).count()
        on_time = scale_seed.reminders_on_time(reminder_due, a.reminder_interval) if a.scale_games else None
        all_on_time = before_first = None
        if a.scale_games:
            # Beat runs an interval task one period after it starts: the reminders that fell due before
            # the task's first run (after the seed times were moved) are a backlog of a task not yet
            # running, counted apart from the steady state.
            first_run = first_run_at(timing_dir, "mail.send_due_reminders") or shifted_at
            all_on_time = scale_seed.all_reminders_on_time(
                since=first_run, until=timezone.now() - timedelta(seconds=a.reminder_interval),
                period_seconds=a.reminder_interval)
            before_first = scale_seed.all_reminders_on_time(since=shifted_at, until=first_run,
                                                            period_seconds=a.reminder_interval)
            before_first["first_run_after_s"] = round((first_run - shifted_at).total_seconds(), 1)
        connection.close()
        contract = None
        if a.contract_check:
            say("contract check against the stack")
            contract = run_contract_check(a.contract_check, base, workdir)
        load_after = os.getloadavg()
    finally:
        stack.stop_all()
        task_rows = task_timing.read(timing_dir) if timing_dir else []
        connection.close()
        if not (a.keep_db or a.reuse_db):
            drop_database(a.database_url)

    moves = [x for g in games for x in g.move_ms]
    steps = [x for g in games for x in g.step_ms]
    views = [x for g in games for x in g.view_ms]
    refused: dict[int, int] = {}
    waits: dict[int, int] = {}  # blocking GETs by status
    for g in games:
        for k, v in g.refused.items():
            refused[k] = refused.get(k, 0) + v
        for k, v in g.waits.items():
            waits[k] = waits.get(k, 0) + v
    floor_n, floor_lat, floor_wall = f1[0] + f2[0], f1[1] + f2[1], f1[2] + f2[2]
    sub_rate = len(moves) / load_wall
    floor_rate = floor_n / floor_wall
    step_p99 = percentile(steps, 99)
    dl_p99 = percentile(dl["resolved_ms"], 99)
    figures = {
        "game": a.game, "games": a.games, "players": a.players, "seconds": round(load_wall, 1), "seed": a.seed,
        "emails": a.emails, "web_server": a.web_server, "web_workers": a.web_workers, "web_threads": a.web_threads, "worker_concurrency": a.worker_concurrency,
        "mail_worker_concurrency": a.mail_worker_concurrency,
        "sweep_interval_s": a.sweep_interval, "cores": os.cpu_count(),
        "loadavg_before": [round(x, 2) for x in load_before], "loadavg_after": [round(x, 2) for x in load_after],
        "games_played": games_started, "games_finished": sum(g.finished for g in games),
        "submissions": len(moves), "submissions_per_s": round(sub_rate, 1),
        "move_p50_ms": rounded(percentile(moves, 50)), "move_p99_ms": rounded(percentile(moves, 99)),
        "view_p50_ms": rounded(percentile(views, 50)), "view_p99_ms": rounded(percentile(views, 99)),
        "views": len(views), "refused_moves": {str(k): v for k, v in sorted(refused.items())},
        "blocking_gets": {str(k): v for k, v in sorted(waits.items())}, "client_wait_s": a.client_wait,
        "load_errors": load_errors,
        "server_step_p50_ms": rounded(percentile(server_steps, 50)),
        "server_step_p99_ms": rounded(percentile(server_steps, 99)),
        "steps_timed": len(steps), "step_to_prompt_p50_ms": rounded(percentile(steps, 50)),
        "step_to_prompt_p99_ms": rounded(step_p99), "step_to_prompt_max_ms": rounded(max(steps, default=None)),
        "floor_requests": floor_n, "floor_per_s": round(floor_rate, 1),
        "floor_per_s_runs": [round(f1[0] / f1[2], 1), round(f2[0] / f2[2], 1)],
        "floor_p50_ms": rounded(percentile(floor_lat, 50)), "floor_p99_ms": rounded(percentile(floor_lat, 99)),
        "throughput_vs_floor": round(sub_rate / floor_rate, 3) if floor_rate else None,
        "active_games_in_db": active_now, "seed_seconds": round(seed_seconds, 1),
        "deadlines_due": dl["due"], "deadlines_resolved": dl["resolved"],
        "deadline_p50_ms": rounded(percentile(dl["resolved_ms"], 50)), "deadline_p99_ms": rounded(dl_p99),
        "deadline_max_ms": rounded(max(dl["resolved_ms"], default=None)),
        "deadline_observed_p99_ms": rounded(percentile(dl["observed_ms"], 99)),
        "client_cpu_s": round(client_cpu, 1),
        "contract_check": contract,
    }
    if a.scale_games:
        from django.conf import settings

        beat = sorted({e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()})
        load_rows = [r for r in task_rows if load_start <= r["at"] <= load_end]
        figures["periodic_tasks_under_load"] = task_timing.summary(load_rows, beat)
        figures["periodic_tasks_whole_run"] = task_timing.summary(task_rows, beat)
        # every other task too (resolutions, mail): their CPU next to their wall time shows how much of
        # a duration was waiting for a core on the shared machine
        figures["other_tasks_whole_run"] = task_timing.summary(
            task_rows, sorted({r["task"] for r in task_rows} - set(beat)))
        figures["beat_periods_s"] = {"games.sweep_due_phases": a.sweep_interval,
                                     "mail.send_due_reminders": a.reminder_interval,
                                     "mail.send_digests": a.digest_interval}
        figures["reminders_on_time"] = on_time
        figures["all_reminders_on_time"] = all_on_time
        figures["reminders_due_before_first_run"] = before_first
        figures["seed_time_shift"] = shifted
        figures["scale_games"] = a.scale_games
    # CPU the stack spent per request (web, worker, PostgreSQL backends): steadier than rates on a shared
    # machine. A submission's share includes its reads, its step's resolution and the notifications.
    per = lambda cpu, n: {k: round(v * 1000 / n, 2) for k, v in cpu.items()} if n else {}  # noqa: E731
    sub_cpu, floor_cpu = per(cpu_load, len(moves)), per(cpu_floor, floor_n)
    sub_cpu["total"] = round(sum(sub_cpu.values()), 2) if sub_cpu else None
    floor_cpu["total"] = round(sum(floor_cpu.values()), 2) if floor_cpu else None
    figures["cpu_ms_per_submission"] = sub_cpu
    # SQL statements per accepted pick during the load, per process kind (the whole stack's: the pick, its
    # reads, its share of the resolution and of the mail); the load phase's CPU window, read the same way
    stmts = {k: s2.get(k, 0) - s1.get(k, 0) for k in s2.keys() | s1.keys()}
    figures["statements_per_submission"] = ({k: round(v / len(moves), 2) for k, v in sorted(stmts.items())}
                                            | {"total": round(sum(stmts.values()) / len(moves), 2)}) if moves else {}
    figures["cpu_ms_per_floor_request"] = floor_cpu
    figures["cpu_ratio_vs_floor"] = (round(floor_cpu["total"] / sub_cpu["total"], 3)
                                     if sub_cpu.get("total") and floor_cpu.get("total") else None)
    figures["targets_met"] = {
        "step_to_prompt_p99_le_1000ms": step_p99 is not None and step_p99 <= 1000,
        "deadline_p99_le_5000ms": dl_p99 is not None and dl_p99 <= 5000 and dl["resolved"] == dl["due"],
        "throughput_ge_half_floor": floor_rate > 0 and sub_rate >= floor_rate / 2,
    }
    rows = [
        ("load", f"{a.games}x{a.players}p {load_wall:.0f}s", f"{games_started} games, {figures['games_finished']} finished; "
                                                             f"{os.cpu_count()} cores shared"),
        ("submissions/s", figures["submissions_per_s"], f">= {floor_rate / 2:.1f} (half the floor)"),
        ("submissions", len(moves), f"refused: {figures['refused_moves'] or 'none'}"),
        ("POST /moves/ p50 ms", figures["move_p50_ms"], ""),
        ("POST /moves/ p99 ms", figures["move_p99_ms"], ""),
        ("GET /games/{id}/ p50/p99 ms", f"{figures['view_p50_ms']}/{figures['view_p99_ms']}", f"{len(views)} views"),
        ("blocking GETs (?wait=)", sum(waits.values()), f"by status {figures['blocking_gets'] or '-'}; "
                                                        f"{len(steps)} steps waited for"),
        ("step -> next prompt p50 ms", figures["step_to_prompt_p50_ms"], f"{len(steps)} steps"),
        ("step -> next prompt p99 ms", figures["step_to_prompt_p99_ms"], "<= 1000"),
        ("  server: last pick -> resolving p50/p99 ms",
         f"{figures['server_step_p50_ms']}/{figures['server_step_p99_ms']}", "enqueue + wait for a worker"),
        ("floor inserts/s", figures["floor_per_s"], f"runs {figures['floor_per_s_runs']}"),
        ("floor p50/p99 ms", f"{figures['floor_p50_ms']}/{figures['floor_p99_ms']}", ""),
        ("throughput / floor", figures["throughput_vs_floor"], ">= 0.5"),
        ("CPU ms per submission", sub_cpu.get("total"), f"web {sub_cpu.get('web')}, worker {sub_cpu.get('worker')}, "
                                                       f"mail worker {sub_cpu.get('mailworker')}, "
                                                       f"db {sub_cpu.get('db')}"),
        ("SQL statements per submission", figures["statements_per_submission"].get("total"),
         ", ".join(f"{k} {v}" for k, v in figures["statements_per_submission"].items() if k != "total")),
        ("CPU ms per floor request", floor_cpu.get("total"), f"ratio {figures['cpu_ratio_vs_floor']}: the throughput "
                                                             "ratio if the machine were the stack's alone"),
        ("active games in DB", active_now, f"seeded in {seed_seconds:.1f}s"),
        ("deadline -> resolved p50 ms", figures["deadline_p50_ms"], f"{dl['resolved']}/{dl['due']} resolved"),
        ("deadline -> resolved p99 ms", figures["deadline_p99_ms"], f"<= 5000 (sweep every {a.sweep_interval}s)"),
        ("loadavg before/after", f"{load_before[0]:.2f}/{load_after[0]:.2f}", "1-minute"),
    ]
    if a.scale_games:
        rows.append(("reminders sent on time", f"{on_time['on_time']}/{on_time['due']}",
                     f"within one period ({a.reminder_interval:.0f}s); latest {on_time['lateness_max_s']}s"))
        rows.append(("every reminder due once the task ran", f"{all_on_time['on_time']}/{all_on_time['due']}",
                     f"within one period; p99 {all_on_time['lateness_p99_s']}s, max {all_on_time['lateness_max_s']}s, "
                     f"{all_on_time['still_due_at_end']} still due"))
        rows.append(("  due before the task's first run", before_first["due"],
                     f"its first run {before_first['first_run_after_s']}s after the seed times moved; "
                     f"sent {before_first['sent']}, max lateness {before_first['lateness_max_s']}s"))
        for name, t in figures["periodic_tasks_under_load"].items():
            if t["runs"]:
                rows.append((f"  {name}", f"{t['wall_p50_s']}/{t['wall_max_s']}",
                             f"wall p50/max s over {t['runs']} runs; CPU {t['cpu_p50_s']}/{t['cpu_max_s']} s; "
                             f"peak RSS {t['peak_rss_mb']} MB (+{t['rss_growth_max_mb']})"))
    print()
    print(table(rows))
    if contract:
        print(f"contract check: {contract}")
    line = json.dumps(figures, default=str)
    print(line)
    if a.json_out:
        Path(a.json_out).write_text(line + "\n")
    if load_errors:
        print("errors during the load: " + "; ".join(load_errors), file=sys.stderr)
    return 0 if all(figures["targets_met"].values()) and not load_errors else 1


if __name__ == "__main__":
    sys.exit(main())
