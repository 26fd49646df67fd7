"""Smoke test of benchmarks/load_bench.py: a tiny run (2 games) must start the stack, play, measure and
tear down, printing one JSON line of figures. Marked e2e: it runs in CI, not in the quick local suite.

Checks the benchmark's own promises (benchmarks/README.md), not the performance targets: a 2-game run
on a shared CI machine says nothing about throughput.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

from tests.e2e.stack import database_url

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]


def _own_database_url() -> str:
    """A database beside the configured one; the benchmark drops and recreates it."""
    parts = urlsplit(database_url(settings.DATABASES["default"]))
    return urlunsplit(parts._replace(path=parts.path + "_loadbench_smoke"))


def test_a_tiny_load_run_prints_its_figures_and_tears_everything_down(tmp_path):
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [sys.executable, "benchmarks/load_bench.py", "--games", "2", "--players", "2", "--seconds", "8",
         "--seed", "1", "--idle-games", "40", "--due", "4", "--due-spread", "1", "--floor-seconds", "2",
         "--web-workers", "2", "--database-url", _own_database_url(), "--workdir", str(tmp_path / "logs"),
         "--json-out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr[-3000:]  # 1: a target missed, which a smoke run may
    figures = json.loads(out.read_text())
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == figures  # the same JSON line is printed
    assert "submissions/s" in proc.stdout and "deadline -> resolved p99 ms" in proc.stdout  # and the table
    assert figures["load_errors"] == [] and figures["refused_moves"] == {}
    assert figures["submissions"] > 0 and figures["move_p99_ms"] is not None
    assert figures["steps_timed"] > 0 and figures["step_to_prompt_p99_ms"] is not None
    assert figures["floor_requests"] > 0 and figures["floor_per_s"] > 0
    assert figures["deadlines_resolved"] == figures["deadlines_due"] == 4
    assert figures["active_games_in_db"] >= 40 - 4
    # teardown: no process of the run is left (the stack's logs name their pids' commands)
    left = subprocess.run(["pgrep", "-f", str(tmp_path / "logs")], capture_output=True, text=True).stdout
    assert left.strip() == ""


def test_a_tiny_scale_run_times_every_periodic_task_in_the_real_workers(tmp_path):
    """The scale benchmark runs the whole beat schedule under the HTTP load of load_bench.py and prints each
    periodic task's duration p50/max and peak memory, and the reminders sent on time: a
    scale-seeded run (COPY, users who read mail) with short beat periods reports each beat task as its
    worker ran it, and the re-armed reminders as sent."""
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [sys.executable, "benchmarks/load_bench.py", "--games", "2", "--players", "4", "--seconds", "25",
         "--seed", "1", "--scale-games", "200", "--due", "4", "--due-spread", "1", "--floor-seconds", "2",
         "--web-workers", "2", "--reminder-interval", "5", "--digest-interval", "5",
         "--database-url", _own_database_url(), "--workdir", str(tmp_path / "logs"), "--json-out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**__import__("os").environ, "MAIL_PROMPT_SWEEP_SECONDS": "5", "MAIL_JOB_SWEEP_SECONDS": "5"})
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert "reminders sent on time" in proc.stdout and "mail.send_due_reminders" in proc.stdout
    tasks = figures["periodic_tasks_whole_run"]
    for name in ("games.sweep_due_phases", "mail.send_due_reminders", "mail.send_digests"):
        assert tasks[name]["runs"] >= 1 and tasks[name]["wall_max_s"] > 0 and tasks[name]["peak_rss_mb"] > 50, name
    assert figures["other_tasks_whole_run"]["games.resolve_phase"]["runs"] >= 1
    reminders = figures["reminders_on_time"]
    assert reminders["due"] == 80 and reminders["sent"] == 80  # all of the seeded due reminders, once each
    # The reminders due before the task's first run are counted apart; every other one once the task ran.
    before, every = figures["reminders_due_before_first_run"], figures["all_reminders_on_time"]
    assert before["first_run_after_s"] > 0 and before["sent"] == before["due"] and every["sent"] == every["due"]
    assert "due before the task's first run" in proc.stdout
    assert figures["deadlines_resolved"] == figures["deadlines_due"] == 4
