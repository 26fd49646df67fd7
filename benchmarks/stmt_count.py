"""SQL statements each process of the load benchmark's stack sends, for "statements per pick".

Loaded only by the benchmark's processes when ``BENCH_STMT_COUNT_DIR`` is set (benchmarks/stack.py): the
web processes through gunicorn's config hook (``benchmarks/gunicorn_bench.py``), the Celery workers with
``--include benchmarks.stmt_count``. Every database connection the process opens gets an execute wrapper
that counts its statements (BEGIN and COMMIT are not statements Django sends through it: they are
psycopg's transaction calls), and a daemon thread writes the process's running total to
``$BENCH_STMT_COUNT_DIR/<role>-<pid>.json`` every STATEMENT_FLUSH_SECONDS. The load benchmark reads the
files at its phase boundaries (``totals``), as it reads CPU from /proc: a process that exited keeps its
last count, so the totals only grow. The code measured is the server's own, unchanged: the same harness
counts the "before" tree and the "after" tree alike.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from pathlib import Path

DIRECTORY = os.environ.get("BENCH_STMT_COUNT_DIR")
STATEMENT_FLUSH_SECONDS = 1.0

_counter = itertools.count()  # next() is atomic under the GIL: threads of one web process share it
_seen = [0]
_started = [False]


def _count(execute, sql, params, many, context):
    _seen[0] = next(_counter) + 1
    return execute(sql, params, many, context)


def _wrap(sender, connection, **_):
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def _flush_forever(path: Path) -> None:
    last = -1
    while True:
        if _seen[0] != last:
            last = _seen[0]
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"statements": last}))
            tmp.replace(path)
        time.sleep(STATEMENT_FLUSH_SECONDS)


def install(role: str) -> None:
    """Count this process's statements from now on (idempotent; once per process, after a fork)."""
    if not DIRECTORY or _started[0]:
        return
    from django.db.backends.signals import connection_created

    _started[0] = True
    connection_created.connect(_wrap, weak=False)
    path = Path(DIRECTORY) / f"{role}-{os.getpid()}.json"
    threading.Thread(target=_flush_forever, args=(path,), daemon=True, name="stmt-count").start()


def totals(directory: Path) -> dict[str, int]:
    """Statements so far per role ("web", "worker", "mailworker"), from the files."""
    out: dict[str, int] = {}
    for f in Path(directory).glob("*.json"):
        role = f.name.split("-", 1)[0]
        try:
            out[role] = out.get(role, 0) + json.loads(f.read_text())["statements"]
        except (OSError, ValueError, KeyError):
            continue  # being replaced this instant: the next reading has it
    return out


if DIRECTORY:  # loaded by a Celery worker (--include): count in each pool process
    try:
        from celery.signals import worker_process_init

        @worker_process_init.connect
        def _in_pool_process(**_):
            import sys

            queues = sys.argv[sys.argv.index("-Q") + 1] if "-Q" in sys.argv[:-1] else ""
            install("mailworker" if queues == "mail" else "worker")
    except ImportError:  # pragma: no cover - celery is a requirement
        pass
