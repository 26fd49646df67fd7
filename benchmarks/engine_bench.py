"""Engine benchmark: complete random-bot games per second and microseconds per decision.

    python benchmarks/engine_bench.py [--games 200] [--repeat 3] [--game faltisia]

Fixed seeds, so every run plays the same games; the best of ``--repeat`` runs is reported because the
machine is shared. Target: at least 100 complete 4-player random-bot Faltisia games per second on one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engines.bots import RandomBot, play  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402


def run(slug: str, players: int, games: int, seed: int) -> tuple[float, int]:
    engine = get_engine(slug)
    decisions = 0
    t0 = time.perf_counter()
    for g in range(games):
        state = engine.new_game(players=players, options={}, seed=seed + g)
        decisions += play(engine, state, [RandomBot(seed * 100 + g * 7 + i) for i in range(players)])
    return time.perf_counter() - t0, decisions


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="faltisia")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"{a.game} engine benchmark, random bots, {a.games} games per run, best of {a.repeat}")
    ok = True
    for players in (2, 4, 6):
        best = None
        for _ in range(a.repeat):
            dt, dec = run(a.game, players, a.games, seed=12345)
            if best is None or dt < best[0]:
                best = (dt, dec)
        dt, dec = best
        gps = a.games / dt
        print(f"  {players} players: {gps:8.1f} games/s  {dt / dec * 1e6:6.2f} us/decision  "
              f"{dec / a.games:6.1f} decisions/game")
        if players == 4 and gps < 100:
            ok = False
    print("target (>= 100 4-player games/s):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
