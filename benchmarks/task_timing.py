"""Per-task timing inside a real Celery worker, for the load benchmark.

Loaded only by the benchmark's workers (``celery worker --include benchmarks.task_timing``, set by
benchmarks/stack.py when ``BENCH_TASK_TIMING_DIR`` is set): every task's wall and CPU seconds and the
worker process's peak RSS (``ru_maxrss``) before and after it are appended as one JSON line to
``$BENCH_TASK_TIMING_DIR/tasks-<pid>.jsonl``. CPU next to wall time tells a slow query (CPU in
PostgreSQL, not here) and a busy shared machine (wall >> CPU for everything) apart from real work.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

from celery.signals import task_postrun, task_prerun

DIRECTORY = os.environ.get("BENCH_TASK_TIMING_DIR")
_started: dict[str, tuple[float, float, float, int]] = {}


def _maxrss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@task_prerun.connect
def _before(task_id=None, task=None, **_):
    _started[task_id] = (time.time(), time.perf_counter(), time.process_time(), _maxrss_kb())


@task_postrun.connect
def _after(task_id=None, task=None, state=None, **_):
    started = _started.pop(task_id, None)
    if not DIRECTORY or started is None:
        return
    at, t0, cpu0, rss0 = started
    rss = _maxrss_kb()
    row = {"task": task.name, "at": at, "wall_s": round(time.perf_counter() - t0, 4),
           "cpu_s": round(time.process_time() - cpu0, 4), "maxrss_mb": round(rss / 1024, 1),
           "maxrss_growth_mb": round((rss - rss0) / 1024, 1), "state": state, "pid": os.getpid()}
    with open(Path(DIRECTORY) / f"tasks-{os.getpid()}.jsonl", "a") as f:
        f.write(json.dumps(row) + "\n")


def read(directory: Path) -> list[dict]:
    """Every task row the workers wrote to ``directory``."""
    rows = []
    for path in sorted(Path(directory).glob("tasks-*.jsonl")):
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def summary(rows: list[dict], names: list[str], since: float = 0.0) -> dict[str, dict]:
    """Per task name (those in ``names``, run at or after ``since``): runs, wall p50/max, CPU p50/max,
    peak RSS of the process that ran it and its largest growth during one run."""
    from benchmarks.stats import percentile

    out = {}
    for name in names:
        mine = [r for r in rows if r["task"] == name and r["at"] >= since]
        if not mine:
            out[name] = {"runs": 0}
            continue
        wall, cpu = [r["wall_s"] for r in mine], [r["cpu_s"] for r in mine]
        out[name] = {"runs": len(mine), "wall_p50_s": round(percentile(wall, 50), 4), "wall_max_s": max(wall),
                     "cpu_p50_s": round(percentile(cpu, 50), 4), "cpu_max_s": max(cpu),
                     "peak_rss_mb": max(r["maxrss_mb"] for r in mine),
                     "rss_growth_max_mb": max(r["maxrss_growth_mb"] for r in mine)}
    return out
