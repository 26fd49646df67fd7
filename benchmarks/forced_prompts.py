"""Prompts per player per game, before and after forced picks (the server picks a prompt's only option).

    .venv/bin/python benchmarks/forced_prompts.py --players 3 --seeds 11 1 2

Plays seeded Faltisia games with the greedy bot in every seat through the engine protocol, as the server
asks: after every pick, the seat's next prompt. "Before" counts every prompt a player was shown; "after"
leaves out those the server picks itself (exactly one option and not ``ask_anyway``). The greedy bot
picks from the state alone, so both figures describe the same game (tests/games/test_forced_picks.py
plays seed 11 through the server and finds the same counts).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engines.bots import make_bot  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402


def count_prompts(*, players: int, seed: int) -> tuple[int, int]:
    """(prompts shown before, prompts shown after) in one game."""
    engine, bot = get_engine("faltisia"), make_bot("faltisia", "greedy")
    state = engine.new_game(players=players, options={}, seed=seed)
    before = after = 0
    while not engine.is_over(state):
        for seat in engine.pending(state):
            prompt = engine.prompt(state, seat)
            while prompt is not None:
                before += 1
                after += len(prompt.options) > 1 or prompt.ask_anyway
                engine.apply(state, seat, bot.choose(engine, state, seat, prompt))
                prompt = engine.prompt(state, seat)
        if engine.is_step_complete(state):
            engine.resolve(state)
    return before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 1, 2])
    args = parser.parse_args()
    totals = [0, 0]
    for seed in args.seeds:
        before, after = count_prompts(players=args.players, seed=seed)
        totals[0] += before
        totals[1] += after
        print(f"seed {seed}: prompts per player per game before {before / args.players:.1f}, "
              f"after {after / args.players:.1f} ({before - after} forced picks in the game)")
    n = args.players * len(args.seeds)
    print(f"mean over {len(args.seeds)} games: before {totals[0] / n:.1f}, after {totals[1] / n:.1f} "
          f"({100 * (totals[0] - totals[1]) / totals[0]:.1f}% of prompts picked by the server)")


if __name__ == "__main__":
    main()
