"""Engine benchmark: complete random-bot games per second and microseconds per decision.

    python benchmarks/engine_bench.py [--games 200] [--repeat 3] [--game faltisia]

Fixed seeds, so every run plays the same games; the best of ``--repeat`` runs is reported because the
machine is shared. Both wall-clock and CPU (process) time are printed: on a loaded machine the wall clock
counts other workers' time slices, the CPU time counts only this process on its one core.
Target: at least 100 complete 4-player random-bot Faltisia games per second on one core.
The "1 player" line is Faltisia Solo Mode (Medium): one random-bot player against the Classmate automaton.
The "Battle for London" lines play the expansion (issue 13): random bots measure the engine as the base lines do
(they seldom get the licence), the greedy line plays Peacekeeping, routes and Big Ben (its time is mostly the
bot's: it reads the view at every decision).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engines.bots import RandomBot, make_bot, play  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402


def run(slug: str, players: int, games: int, seed: int, options=None, bot: str = "random") -> tuple[float, float, int]:
    engine = get_engine(slug)
    decisions = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        state = engine.new_game(players=players, options=options or {}, seed=seed + g)
        bots = [RandomBot(seed * 100 + g * 7 + i) if bot == "random" else make_bot(slug, bot, seed * 100 + g * 7 + i)
                for i in range(players)]
        decisions += play(engine, state, bots)
    return time.perf_counter() - t0, time.process_time() - c0, decisions


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="faltisia")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"{a.game} engine benchmark, random bots, {a.games} games per run, best of {a.repeat}")
    ok = True
    counts = (1, 2, 4, 6) if getattr(get_engine(a.game), "solo_players", None) == 1 else (2, 4, 6)
    for players in counts:
        wall, cpu, dec = min(run(a.game, players, a.games, seed=12345) for _ in range(a.repeat))
        cpu = min(cpu, wall)
        label = "1 player (solo)" if players == 1 else f"{players} players"
        print(f"  {label}: {a.games / wall:7.1f} games/s wall ({wall / dec * 1e6:5.2f} us/decision), "
              f"{a.games / cpu:7.1f} games/s CPU ({cpu / dec * 1e6:5.2f} us/decision), "
              f"{dec / a.games:.1f} decisions/game")
        if players == 4 and a.games / cpu < 100:
            ok = False
    if a.game == "faltisia":
        for players, bot in ((2, "random"), (4, "random"), (6, "random"), (4, "greedy")):
            wall, cpu, dec = min(run(a.game, players, a.games, 12345, {"expansion": "battle_for_london"}, bot)
                                 for _ in range(a.repeat))
            cpu = min(cpu, wall)
            print(f"  {players} players, Battle for London, {bot} bots: {a.games / wall:7.1f} games/s wall "
                  f"({wall / dec * 1e6:5.2f} us/decision), {a.games / cpu:7.1f} games/s CPU "
                  f"({cpu / dec * 1e6:5.2f} us/decision), {dec / a.games:.1f} decisions/game")
    print("target (>= 100 4-player games/s on one core, CPU time):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
