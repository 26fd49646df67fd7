"""CPU seconds used by the benchmark's own processes, read from /proc (Linux), per phase of a run.

On a machine shared with other people's work, wall-clock throughput moves with their load; the CPU
the stack itself spends per request moves much less, so it is printed beside the rates. Counted:
every process in the sessions of the stack's children (gunicorn and its workers, the Celery worker
and its pool, beat, redis), and the whole PostgreSQL server as "db".

The server is counted whole (its backends, background writers, and the backends that exited in
between, through the postmaster's reaped-children time) because backends come and go: Django closes a
persistent connection after CONN_MAX_AGE (60 s), so counting the live backends of the benchmark's
database alone lost most of a 60-second phase's database work (0.7 ms per pick counted, 3.3 ms spent).
The price: another database's work on the same server during a run is counted too.
"""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: str) -> tuple[str, list[str]] | None:
    """(comm, the fields after "pid (comm) ": state is [0], ppid [1], session [3])."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.index("(") + 1:raw.rindex(")")], raw[raw.rindex(")") + 2:].split()


def cpu_by_group(*, sessions: dict[str, int]) -> dict[str, float]:
    """CPU seconds (user + system) so far: {name of a session's leader process: s, "db": s}."""
    out = {name: 0.0 for name in sessions} | {"db": 0.0}
    by_sid = {sid: name for name, sid in sessions.items()}
    if not Path("/proc").is_dir():
        return out
    stats = {pid: s for pid in os.listdir("/proc") if pid.isdigit() and (s := _stat(pid)) is not None}
    postgres = {pid for pid, (comm, _) in stats.items() if comm == "postgres"}
    for pid, (comm, fields) in stats.items():
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        sid = int(fields[3])
        if sid in by_sid:
            if int(pid) == sid:
                ticks += int(fields[13]) + int(fields[14])  # reaped children (a recycled pool process)
            out[by_sid[sid]] += ticks / TICK
        elif pid in postgres:
            if fields[1] not in postgres:  # the postmaster: add its exited backends
                ticks += int(fields[13]) + int(fields[14])
            out["db"] += ticks / TICK
    return out


def cpu_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds spent between two readings, per group."""
    return {k: v - before.get(k, 0.0) for k, v in after.items()}
