"""Scale benchmark of the periodic jobs: every beat task at 1k, 100k (and more) active games.

    .venv/bin/python benchmarks/scale_bench.py --sizes 1000,100000 [--runs 5] [--keep]
    .venv/bin/python benchmarks/scale_bench.py --sizes 1000,100000,1000000 --under-load [--load-args "..."]

For each size it creates a PostgreSQL database of its own (``faltisia_scale_bench_<size>`` on
``--server``), migrates it, seeds it with COPY (benchmarks/scale_seed.py: games with history, players
who read mail, the same due work at every size), then runs each task of ``CELERY_BEAT_SCHEDULE`` in a
process of its own: once with the due work (``due``), then ``--runs`` more times with nothing left
due (``idle``), timing each run and reading the process's peak RSS growth (``ru_maxrss`` after the
runs minus before them). A task runs as its worker runs it: what it enqueues (a step's resolution, an
email's send) goes to an in-memory broker and is not run, so the figures are the periodic job's own
cost (rendering and storing the emails it queues included). Prints one JSON line per task and a table,
and drops the databases unless ``--keep``.

``--under-load``: instead, seed each size (as ``--seed-only``) and run load_bench.py on it
(``--reuse-db --scale-games <size>``): the real gunicorn, workers and beat with the whole beat schedule
while the HTTP load plays, each task timed inside its worker (benchmarks/task_timing.py); prints a
table of the periodic tasks and load_bench's own figures per size. Tournaments are not seeded (their
sweep finds nothing due).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVER = "postgres://postgres@127.0.0.1:5432"
PREFIX = "faltisia_scale_bench_"


def _env(db_url: str) -> dict:
    env = dict(os.environ)
    env.update({"DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE": "faltisia.test_settings",
                "CELERY_BROKER_URL": "memory://", "LOG_LEVEL": "ERROR", "MAIL_INBOUND_ESPS": "",
                "BENCH_TASKS_EAGER": "0", "PYTHONPATH": str(ROOT)})
    return env


def _django(db_url: str) -> None:
    os.environ.update(_env(db_url))
    import django

    django.setup()


def _admin(server: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def _child(args: list[str], db_url: str) -> dict:
    """Run this script in a child process; its last stdout line is a JSON result."""
    out = subprocess.run([sys.executable, __file__, *args, "--db-url", db_url], env=_env(db_url),
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{args} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- children -----------------------------------------------------------------------------------

def child_seed(games: int, db_url: str, defer_indexes: bool = True) -> dict:
    _django(db_url)
    from benchmarks.scale_seed import seed

    t0 = time.perf_counter()
    result = seed(games=games, defer_indexes=defer_indexes)
    result["seed_seconds"] = round(time.perf_counter() - t0, 1)
    return result


def _due_counts() -> dict:
    from games.mail.models import MailJob, Notification

    return {"reminders": Notification.objects.filter(kind="reminder").count(),
            "prompt_emails": Notification.objects.filter(kind="prompt").count(),
            "digests": Notification.objects.filter(kind="digest").count(),
            "outbox_pending": Notification.objects.filter(status="pending").count(),
            "jobs_pending": MailJob.objects.filter(status="pending").count()}


def child_task(task_name: str, runs: int, db_url: str) -> dict:
    _django(db_url)
    from django.db import connection, reset_queries
    from django.utils import timezone

    from faltisia.celery import app

    from django.conf import settings

    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False  # see _env: the enqueued tasks wait in the in-memory broker
    app.loader.import_default_modules()  # the autodiscovered task modules
    task = app.tasks[task_name]
    connection.ensure_connection()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = timezone.now()
    times, queries = [], []
    for _ in range(runs + 1):
        from django.conf import settings

        settings.DEBUG = True  # count the statements of each run
        reset_queries()
        t0 = time.perf_counter()
        result = task.apply().get()
        times.append(time.perf_counter() - t0)
        queries.append(len(connection.queries))
        if not times[1:]:
            first = result
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from games.mail.models import Notification

    reminders = Notification.objects.filter(kind="reminder", created_at__gte=started)
    idle = sorted(times[1:])
    return {"task": task_name, "due_s": round(times[0], 3), "due_result": first,
            "idle_p50_s": round(idle[len(idle) // 2], 4), "idle_max_s": round(idle[-1], 4),
            "due_queries": queries[0], "idle_queries": queries[-1],
            "rss_growth_mb": round((peak - before) / 1024, 1), "peak_rss_mb": round(peak / 1024, 1),
            "reminders_sent": reminders.count()}


def periodic_queries(now):
    """(job, queryset) of the query behind each beat task, as tests/mail/test_periodic_plans.py pins them."""
    from datetime import timedelta

    from django.conf import settings

    from games.mail import digests, jobs, outbox, prompt_mails, reminders
    from games.models import Game
    from games.services.sweep import due_prompt_games
    from games.tournaments.services import tournaments_due

    grace = now - timedelta(seconds=settings.RESOLVE_GRACE_SECONDS)
    return [
        ("deadline sweep: due prompts", due_prompt_games(now=now, grace=grace)),
        ("deadline sweep: requested", Game.objects.filter(resolve_requested_at__lte=grace, status="active")
         .values_list("id", "phase")[:500]),
        ("reminders: plan", reminders.unplanned_prompts().order_by("opened_at")[:200]),
        ("reminders: send", reminders.due_prompts(now=now).order_by("next_reminder_at")[:200]),
        ("digests", digests.due_digest_readers(now=now)[:200]),
        ("digests never read", digests.due_digest_readers(now=now, never_read=True)[:200]),
        ("prompt sweep", prompt_mails.prompts_due_without_mail(now=now)[:200]),
        ("outbox", outbox.lost_notifications(now=now)[:500]),
        ("mail jobs", jobs.due_jobs(now=now)[:200]),
        ("tournaments", tournaments_due(now=now)[:200]),
    ]


def child_explain(db_url: str) -> dict:
    """EXPLAIN (ANALYZE, BUFFERS) of each periodic query on the seeded database as it is now."""
    _django(db_url)
    from django.db import connection
    from django.utils import timezone

    out = {}
    for job, qs in periodic_queries(timezone.now()):
        sql, params = qs.query.sql_with_params()
        with connection.cursor() as c:
            c.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
            plan = [r[0] for r in c.fetchall()]
        out[job] = {"ms": float(plan[-1].split(":")[1].split()[0]),
                    "indexes": sorted({w.split(" using ")[1].split()[0] if " using " in w else w.split("Index Scan on ")[1].split()[0]
                                    for w in plan if " using " in w or "Index Scan on " in w}),
                    "plan": plan}
    return out


# --- driver -------------------------------------------------------------------------------------

def beat_tasks() -> list[tuple[str, float]]:
    """(task, period) of the beat schedule, the deadline sweep first (it opens new prompts)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.test_settings")
    import django

    django.setup()
    from django.conf import settings

    tasks = [(e["task"], float(e["schedule"])) for e in settings.CELERY_BEAT_SCHEDULE.values()]
    return sorted(tasks, key=lambda t: t[0] != "games.sweep_due_phases")


def measure(size: int, *, server: str, runs: int, keep: bool, prefix: str = PREFIX, keep_indexes: bool = False,
            seed_only: bool = False) -> list[dict]:
    db = f"{prefix}{size}"
    db_url = f"{server}/{db}"
    _admin(server, f"DROP DATABASE IF EXISTS {db}")
    _admin(server, f"CREATE DATABASE {db}")
    try:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=_env(db_url), check=True)
        migrate_s = time.perf_counter() - t0
        seeded = _child(["--child-seed", str(size)] + (["--keep-indexes"] if keep_indexes else []), db_url)
        seeded["ms_per_game"] = round(seeded["seed_seconds"] * 1000 / size, 3)
        print(json.dumps({"games": size, "migrate_s": round(migrate_s, 1), "db": db,
                          "loadavg": [round(x, 2) for x in os.getloadavg()], **seeded}), flush=True)
        rows = []
        if seed_only:
            return rows
        for task, period in beat_tasks():
            row = {"games": size, "period_s": period, **_child(["--child-task", task, "--runs", str(runs)], db_url)}
            print(json.dumps(row), flush=True)
            rows.append(row)
        return rows
    finally:
        if not (keep or seed_only):
            _admin(server, f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


def under_load(size: int, *, server: str, prefix: str, load_args: list[str], workdir: Path) -> dict:
    """Seed ``size`` games (unless the database is there already) and run load_bench.py on it."""
    db = f"{prefix}{size}"
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db]).fetchone()
    if not exists:
        measure(size, server=server, runs=0, keep=True, prefix=prefix, seed_only=True)
    out = workdir / f"load-{size}.json"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "load_bench.py"), "--reuse-db", "--scale-games", str(size),
                    "--database-url", f"{server}/{db}", "--workdir", str(workdir / f"logs-{size}"),
                    "--json-out", str(out), *load_args], check=False)
    return json.loads(out.read_text())


def print_under_load(results: list[dict]) -> None:
    print(f"\n{'task (period s)':44} {'games':>8} {'runs':>5} {'wall p50/max s':>16} {'CPU p50/max s':>16} "
          f"{'peak RSS MB':>11}")
    for r in results:
        periods = r["beat_periods_s"]
        for name, t in r["periodic_tasks_under_load"].items():
            if t["runs"]:
                label = f"{name} ({periods.get(name, 60.0):g})"
                print(f"{label:44} {r['scale_games']:>8} {t['runs']:>5} "
                      f"{str(t['wall_p50_s']) + '/' + str(t['wall_max_s']):>16} "
                      f"{str(t['cpu_p50_s']) + '/' + str(t['cpu_max_s']):>16} {t['peak_rss_mb']:>11}")
    for r in results:
        rt = r["reminders_on_time"]
        print(f"{r['scale_games']:>8} games: picks/s {r['submissions_per_s']}, step-to-prompt p99 "
              f"{r['step_to_prompt_p99_ms']} ms, deadline p99 {r['deadline_p99_ms']} ms "
              f"({r['deadlines_resolved']}/{r['deadlines_due']}), reminders on time {rt['on_time']}/{rt['due']} "
              f"(latest {rt['lateness_max_s']} s), loadavg {r['loadavg_before'][0]}/{r['loadavg_after'][0]}")
        every, before = r.get("all_reminders_on_time"), r.get("reminders_due_before_first_run")
        if every:
            print(f"{'':>8}        every reminder due once the task ran: {every['on_time']}/{every['due']} within "
                  f"{every['period_s']:g} s (p99 {every['lateness_p99_s']} s, max {every['lateness_max_s']} s), "
                  f"{every['still_due_at_end']} still due at the end; seed times moved by "
                  f"{r['seed_time_shift']['shifted_s']} s in {r['seed_time_shift']['seconds']} s")
        if before:
            print(f"{'':>8}        due before its first run ({before['first_run_after_s']} s after the move): "
                  f"{before['due']}, sent {before['sent']}, max lateness {before['lateness_max_s']} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,100000", help="active games, comma-separated")
    ap.add_argument("--runs", type=int, default=5, help="idle runs of each task after its due run")
    ap.add_argument("--server", default=SERVER)
    ap.add_argument("--prefix", default=PREFIX, help="database name prefix (the size is appended)")
    ap.add_argument("--keep", action="store_true", help="keep the databases")
    ap.add_argument("--keep-indexes", action="store_true",
                    help="seed with every index and constraint in place (a B-tree insert per row; for comparison)")
    ap.add_argument("--seed-only", action="store_true",
                    help="create, migrate and seed the databases, run no task (implies --keep)")
    ap.add_argument("--under-load", action="store_true",
                    help="run load_bench.py on each seeded size (the beat schedule under HTTP load)")
    ap.add_argument("--load-args", default="--seconds 240 --reminder-interval 60 --digest-interval 60",
                    help="extra load_bench.py arguments for --under-load")
    ap.add_argument("--workdir", default=None, help="--under-load: where figures and logs go")
    ap.add_argument("--explain", action="store_true",
                    help="EXPLAIN ANALYZE each periodic query on the kept databases of --sizes")
    ap.add_argument("--db-url")
    ap.add_argument("--child-seed", type=int)
    ap.add_argument("--child-task")
    ap.add_argument("--child-explain", action="store_true")
    args = ap.parse_args()
    if args.child_seed:
        print(json.dumps(child_seed(args.child_seed, args.db_url, not args.keep_indexes)))
        return
    if args.child_explain:
        print(json.dumps(child_explain(args.db_url)))
        return
    if args.child_task:
        print(json.dumps(child_task(args.child_task, args.runs, args.db_url), default=str))
        return
    if args.explain:
        for size in args.sizes.split(","):
            result = _child(["--child-explain"], f"{args.server}/{args.prefix}{size}")
            for job, r in result.items():
                print(json.dumps({"games": int(size), "job": job, "ms": r["ms"], "indexes": r["indexes"]}))
            print(json.dumps({"games": int(size), "plans": {j: r["plan"] for j, r in result.items()}}))
        return
    if args.under_load:
        import shlex
        import tempfile

        workdir = Path(args.workdir or tempfile.mkdtemp(prefix="scale-load-"))
        workdir.mkdir(parents=True, exist_ok=True)
        results = [under_load(int(s), server=args.server, prefix=args.prefix, load_args=shlex.split(args.load_args),
                              workdir=workdir) for s in args.sizes.split(",")]
        print_under_load(results)
        if not args.keep:
            for s in args.sizes.split(","):
                _admin(args.server, f"DROP DATABASE IF EXISTS {args.prefix}{s} WITH (FORCE)")
        return
    all_rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        all_rows += measure(size, server=args.server, runs=args.runs, keep=args.keep, prefix=args.prefix,
                            keep_indexes=args.keep_indexes, seed_only=args.seed_only)
    if args.seed_only:
        return
    print(f"\n{'task':40} {'games':>8} {'due s':>8} {'idle p50':>9} {'idle max':>9} {'queries due/idle':>17} "
          f"{'RSS +MB':>8} {'period':>7}")
    for r in all_rows:
        print(f"{r['task']:40} {r['games']:>8} {r['due_s']:>8} {r['idle_p50_s']:>9} {r['idle_max_s']:>9} "
              f"{str(r['due_queries']) + '/' + str(r['idle_queries']):>17} {r['rss_growth_mb']:>8} {r['period_s']:>7}")


if __name__ == "__main__":
    main()
