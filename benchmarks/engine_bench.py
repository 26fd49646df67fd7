"""Engine benchmark: complete random-bot games per second and microseconds per decision.

    python benchmarks/engine_bench.py [--games 200] [--repeat 3] [--game all|faltisia|miskatonic]

Fixed seeds, so every run plays the same games; the best of ``--repeat`` runs is reported because the
machine is shared. Both wall-clock and CPU (process) time are printed: on a loaded machine the wall clock
counts other workers' time slices, the CPU time counts only this process on its one core.
Targets (4-player random-bot games per second on one core, CPU time): Faltisia 100, Miskatonic School for Girls 200;
Mage Knight 5 complete 2-player and solo games (the solo line is the player with the Dummy Player); its pick time
p99 is measured by benchmarks/mk_pick_bench.py.
The "1 player" line is Faltisia Solo Mode (Medium): one random-bot player against the Classmate automaton.
The "Battle for London" lines play the expansion: random bots measure the engine as the base lines do
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


# 4-player random-bot games per second (CPU time) each engine must reach.
TARGETS = {"faltisia": 100, "miskatonic": 200, "mage_knight": 5}
# The player counts whose games/s must reach the target (4 unless stated).
TARGET_PLAYERS = {"mage_knight": (1, 2)}
# Games per run where a game is long (Mage Knight: hundreds of picks).
GAMES = {"mage_knight": 40}
# Game options measured on their own lines: (label, options, [(players, bot)]).
VARIANTS = {"faltisia": [("Battle for London", {"expansion": "battle_for_london"},
                          [(2, "random"), (4, "random"), (6, "random"), (4, "greedy")])],
            "mage_knight": [("GreedyBot", {}, [(2, "greedy")])]}


def bench(slug: str, games: int, repeat: int) -> bool:
    engine = get_engine(slug)
    games = min(games, GAMES.get(slug, games))
    print(f"{slug} engine benchmark, random bots, {games} games per run, best of {repeat}")
    ok = True
    counts = [n for n in (2, 3, 4, 6) if engine.min_players <= n <= engine.max_players]
    if getattr(engine, "solo_players", None) == 1:
        counts = [1] + [n for n in counts if n != 3]
    for players in counts:
        wall, cpu, dec = min(run(slug, players, games, seed=12345) for _ in range(repeat))
        cpu = min(cpu, wall)
        label = "1 player (solo)" if players == 1 else f"{players} players"
        print(f"  {label}: {games / wall:7.1f} games/s wall ({wall / dec * 1e6:5.2f} us/decision), "
              f"{games / cpu:7.1f} games/s CPU ({cpu / dec * 1e6:5.2f} us/decision), "
              f"{dec / games:.1f} decisions/game")
        if players in TARGET_PLAYERS.get(slug, (4,)) and games / cpu < TARGETS[slug]:
            ok = False
    for label, options, runs in VARIANTS.get(slug, ()):
        for players, bot in runs:
            wall, cpu, dec = min(run(slug, players, games, 12345, options, bot) for _ in range(repeat))
            cpu = min(cpu, wall)
            print(f"  {players} players, {label}, {bot} bots: {games / wall:7.1f} games/s wall "
                  f"({wall / dec * 1e6:5.2f} us/decision), {games / cpu:7.1f} games/s CPU "
                  f"({cpu / dec * 1e6:5.2f} us/decision), {dec / games:.1f} decisions/game")
    which = "/".join(f"{n}-player" for n in TARGET_PLAYERS.get(slug, (4,)))
    print(f"target (>= {TARGETS[slug]} {which} games/s on one core, CPU time):", "met" if ok else "NOT met")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="all", choices=("all", *TARGETS))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    ok = True
    for slug in (TARGETS if a.game == "all" else (a.game,)):
        ok = bench(slug, a.games, a.repeat) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
