"""Before and after, side by side in one run: load_bench.py on two trees, interleaved A, B, A, B.

    git worktree add /tmp/speed_before <before-commit>
    (cd /tmp/speed_before && python3 -m venv .venv && .venv/bin/pip install -r requirements.txt)
    .venv/bin/python benchmarks/ab_bench.py --before /tmp/speed_before [--rounds 2] [--seconds 50] \\
        [--games faltisia:4,mage_knight:2] [--json-out FILE]

A is the ``--before`` tree (a git worktree of the commit measured against), B this tree or ``--after`` (a
worktree of the before commit with only the measured commits cherry-picked on it, so that other work
merged meanwhile is not counted either way). The harness is the same for both: this tree's benchmarks/
files are copied into the other trees first (its server code, settings, migrations and, when the tree
has its own ``.venv`` installed from its own requirements.txt, its packages stay its own), so the same bot
client, the same CPU reading (benchmarks/cpu.py) and the same statement counting (benchmarks/stmt_count.py)
measure both. Each run is a whole load_bench.py (own database, migrated by its own tree, its own stack);
for each game the runs alternate
A, B, A, B so that the machine's load (other engineers' work on the shared cores) falls on both alike.
CPU per pick per process is the figure to read on a shared machine; picks/s moves with everyone's load.

Prints one line per run and a table of the means per tree and game.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROCESSES = ("web", "worker", "mailworker", "db", "redis", "beat")


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="a worktree of the 'before' commit (A)")
    ap.add_argument("--after", default=str(ROOT), help="the 'after' tree (B): this one by default, or a worktree "
                                                       "of the before commit with only the change measured on it")
    ap.add_argument("--rounds", type=int, default=2, help="A, B pairs per game")
    ap.add_argument("--games", default="faltisia:4,mage_knight:2", help="engine:seats, comma-separated")
    ap.add_argument("--seconds", type=float, default=50)
    ap.add_argument("--clients", type=int, default=20, help="concurrent games (one client thread each)")
    ap.add_argument("--idle-games", type=int, default=2000)
    ap.add_argument("--due", type=int, default=20)
    ap.add_argument("--floor-seconds", type=float, default=10)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/h_speed_bench")
    ap.add_argument("--workdir", default="/tmp/ab-bench")
    ap.add_argument("--json-out", default=None)
    return ap.parse_args(argv)


def sync_harness(tree: Path) -> None:
    """This tree's benchmark harness into another tree (its server code stays its own)."""
    for f in (ROOT / "benchmarks").glob("*.py"):
        shutil.copy2(f, tree / "benchmarks" / f.name)


def tree_python(tree: Path) -> Path:
    """The tree's own interpreter (its .venv, installed from its own requirements.txt: a dependency added by
    the change is measured in B only), else this one."""
    own = tree / ".venv" / "bin" / "python"
    return own if own.exists() else Path(sys.executable)


def one_run(tree: Path, label: str, game: str, seats: int, a: argparse.Namespace, n: int) -> dict:
    workdir = Path(a.workdir) / f"{n:02d}-{label}-{game}"
    workdir.mkdir(parents=True, exist_ok=True)
    out = workdir / "figures.json"
    cmd = [str(tree_python(tree)), "benchmarks/load_bench.py", "--game", game, "--players", str(seats),
           "--games", str(a.clients), "--seconds", str(a.seconds), "--idle-games", str(a.idle_games),
           "--due", str(a.due), "--due-spread", "5", "--floor-seconds", str(a.floor_seconds),
           "--database-url", a.database_url, "--workdir", str(workdir), "--json-out", str(out)]
    t0 = time.time()
    with open(workdir / "load_bench.txt", "w") as log:
        subprocess.run(cmd, cwd=tree, stdout=log, stderr=subprocess.STDOUT, timeout=1200)
    figures = json.loads(out.read_text()) if out.exists() else {"error": f"no figures (see {workdir})"}
    figures.update({"tree": label, "run": n, "started": time.strftime("%H:%M:%S", time.localtime(t0))})
    return figures


def row(f: dict) -> tuple:
    cpu, st = f.get("cpu_ms_per_submission", {}), f.get("statements_per_submission", {})
    return (f"{f['run']} {f['tree']}", f"{f.get('game')} {f.get('players')}p", f.get("submissions_per_s"),
            " / ".join(str(cpu.get(k, "-")) for k in ("web", "worker", "mailworker", "db", "redis")),
            cpu.get("total"),
            " / ".join(str(st.get(k, "-")) for k in ("web", "worker", "mailworker")), st.get("total"),
            f.get("step_to_prompt_p99_ms"), f.get("floor_per_s"), f.get("loadavg_after", ["-"])[0])


HEADER = ("run", "game", "picks/s", "CPU ms/pick web / worker / mail / db / redis", "CPU total",
          "statements/pick web / worker / mail", "stmts total", "step->prompt p99 ms", "floor/s", "load")


def means(runs: list[dict]) -> list[tuple]:
    out = []
    keys = sorted({(f["game"], f["players"], f["tree"]) for f in runs if "game" in f})
    for game, players, tree in keys:
        rs = [f for f in runs if f.get("game") == game and f.get("tree") == tree]
        m = lambda get: round(statistics.mean(get(f) for f in rs), 2)  # noqa: E731
        cpu = lambda k: m(lambda f: f["cpu_ms_per_submission"].get(k, 0.0))  # noqa: E731
        st = lambda k: m(lambda f: f["statements_per_submission"].get(k, 0.0))  # noqa: E731
        out.append((f"mean {tree} ({len(rs)})", f"{game} {players}p", m(lambda f: f["submissions_per_s"]),
                    " / ".join(str(cpu(k)) for k in ("web", "worker", "mailworker", "db", "redis")), cpu("total"),
                    " / ".join(str(st(k)) for k in ("web", "worker", "mailworker")), st("total"),
                    m(lambda f: f["step_to_prompt_p99_ms"] or 0), m(lambda f: f["floor_per_s"]), "-"))
    return out


def markdown(rows: list[tuple]) -> str:
    """Rows as a markdown table (the first is the header), ready for docs/benchmarks.md."""
    lines = ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join([lines[0], "|" + "---|" * len(rows[0])] + lines[1:])


def main(argv=None) -> int:
    a = parse_args(argv)
    before, after = Path(a.before).resolve(), Path(a.after).resolve()
    for tree in {before, after} - {ROOT}:
        sync_harness(tree)
    games = [(g.split(":")[0], int(g.split(":")[1])) for g in a.games.split(",")]
    runs, n = [], 0
    for _ in range(a.rounds):
        for game, seats in games:
            for label, tree in (("A", before), ("B", after)):
                n += 1
                f = one_run(tree, label, game, seats, a, n)
                runs.append(f)
                print(json.dumps(f, default=str), flush=True)
    ok = [f for f in runs if "error" not in f]
    print()
    print(markdown([HEADER] + [row(f) for f in ok] + means(ok)))
    if a.json_out:
        Path(a.json_out).write_text("\n".join(json.dumps(f, default=str) for f in runs) + "\n")
    return 0 if len(ok) == len(runs) else 1


if __name__ == "__main__":
    sys.exit(main())
