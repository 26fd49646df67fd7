"""Bots, the simulator and the benchmark entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from games.engines.bots import RandomBot, make_bot, play
from games.engines.simulate import main, simulate

from tests.engines.faltisia_helpers import E, new

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_random_bot_is_seeded():
    a, b = new(3, 5), new(3, 5)
    play(E, a, [RandomBot(i) for i in range(3)])
    play(E, b, [RandomBot(i) for i in range(3)])
    assert a == b


def test_greedy_bot_beats_random_bots():
    wins = 0
    for seed in range(12):
        s = new(4, seed)
        play(E, s, [make_bot("faltisia", "greedy")] + [RandomBot(seed * 4 + i) for i in range(3)])
        wins += E.result(s).ranks[0] == 1
    assert wins >= 8


def test_simulate_reports_spread_and_win_rates():
    out = simulate("faltisia", 3, 4, 1, "greedy")
    assert out["games"] == 4 and out["decisions_per_game"] > 100
    assert {"min", "mean", "max", "stdev", "p50"} <= set(out["score"])
    assert sum(v["games"] for v in out["win_rate_by_character"].values()) == 12


def test_simulate_cli_json(capsys):
    assert main(["faltisia", "--players", "2", "--games", "2", "--bot", "random", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 2


def test_simulate_solo_cli_reports_the_players_win_rate(capsys):
    """The solo simulation: `python -m games.engines.simulate faltisia --players 1 --solo LEVEL` plays Solo Mode
    games (greedy player against the Classmate) and reports the player's win/draw/loss rates."""
    assert main(["faltisia", "--players", "1", "--solo", "beginner", "--games", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    solo = out["solo"]
    assert out["players"] == 1 and solo["classmate_score_mean"] > 0
    assert abs(solo["win_rate"] + solo["draw_rate"] + solo["loss_rate"] - 1) < 0.01
    assert main(["faltisia", "--players", "1", "--solo", "nightmare", "--games", "2"]) == 0
    assert "solo (nightmare): player wins" in capsys.readouterr().out


def test_simulate_fails_loudly(capsys, monkeypatch):
    import games.engines.faltisia.invariants as inv
    monkeypatch.setattr(inv, "check", lambda s: ["planted failure"])
    assert main(["faltisia", "--players", "2", "--games", "1"]) == 1
    assert "planted failure" in capsys.readouterr().err


def test_benchmark_runs():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "engine_bench.py"), "--games", "3",
                        "--repeat", "1"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "4 players" in r.stdout and "games/s" in r.stdout
    assert "1 player (solo)" in r.stdout  # the benchmark has a solo line
