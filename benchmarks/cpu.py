"""CPU seconds used by the benchmark's own processes, read from /proc (Linux), per phase of a run.

On a machine shared with other people's work, wall-clock throughput moves with their load; the CPU
the stack itself spends per request moves much less, so it is printed beside the rates. Counted:
every process in the sessions of the stack's children (gunicorn and its workers, the Celery worker
and its pool, beat, redis) and the PostgreSQL backends serving the benchmark's database.
"""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: str) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2:].split()  # fields after "pid (comm) ": state is [0]


def cpu_by_group(*, sessions: dict[str, int], database: str) -> dict[str, float]:
    """CPU seconds (user + system) so far: {name of a session's leader process: s, "db:<pid>": s}.

    Backends are counted one by one because they come and go (a Celery task may close its connection):
    ``cpu_delta`` adds up each backend's growth, so one that exits in between is left out (an undercount).
    """
    out = {name: 0.0 for name in sessions}
    by_sid = {sid: name for name, sid in sessions.items()}
    if not Path("/proc").is_dir():
        return out
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        fields = _stat(pid)
        if fields is None:
            continue
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        sid = int(fields[3])
        if sid in by_sid:
            if int(pid) == sid:
                ticks += int(fields[13]) + int(fields[14])  # reaped children (a recycled pool process)
            out[by_sid[sid]] += ticks / TICK
            continue
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if title.startswith("postgres: ") and f" {database} " in title:
            out[f"db:{pid}"] = ticks / TICK
    return out


def cpu_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds spent between two readings, per group, the backends summed as "db"."""
    out = {"db": 0.0}
    for k, v in after.items():
        grown = v - before.get(k, 0.0)
        if k.startswith("db:"):
            out["db"] += max(grown, 0.0)
        else:
            out[k] = grown
    return out
