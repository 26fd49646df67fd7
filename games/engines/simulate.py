"""Play whole games with bots and report speed, score spread and win rate by character.

    python -m games.engines.simulate faltisia --players 4 --games 1000 --seed 1 --bot greedy [--json]
    python -m games.engines.simulate faltisia --players 1 --solo hard --games 300   # Faltisia Solo Mode
    python -m games.engines.simulate faltisia --players 4 --expansion battle_for_london   # The Battle for London

Exits non-zero on any exception or broken invariant (checked after every step).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from importlib import import_module

from .bots import make_bot, play
from .registry import get_engine

def _checker(slug: str):
    """The game's ``check(state) -> [problem, ...]``, by convention ``games/engines/<slug>/invariants.py``
    (so a new game needs no line here); None for a game without one."""
    try:
        return import_module(f"games.engines.{slug}.invariants").check
    except ModuleNotFoundError:
        return None


def _label(view: dict, seat: int) -> str:
    if view.get("game") == "miskatonic":  # no characters: win rate by turn order (1 = took the first turn)
        return f"turn position {(seat - view['first']) % view['players'] + 1}"
    try:
        return view["seats"][seat]["character"]["name"]
    except (KeyError, TypeError, IndexError):
        return f"seat {seat}"


def _pct(xs: list[int], p: float) -> float:
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def simulate(slug: str, players: int, games: int, seed: int, bot: str, options=None, check=True) -> dict:
    engine = get_engine(slug)
    checker = _checker(slug) if check else None

    def on_step(state):
        bad = checker(state)
        if bad:
            raise AssertionError("; ".join(bad))

    scores: list[int] = []
    decisions = 0
    wins: dict[str, float] = defaultdict(float)
    seen: dict[str, int] = defaultdict(int)
    categories: dict[str, list[int]] = defaultdict(list)
    outcomes: dict[str, int] = defaultdict(int)  # solo games: the player's win / loss / draw
    opponent: list[int] = []
    t0 = time.perf_counter()
    for g in range(games):
        gs = seed * 1_000_003 + g
        state = engine.new_game(players=players, options=options or {}, seed=gs)
        bots = [make_bot(slug, bot, gs * 7 + i) for i in range(players)]
        decisions += play(engine, state, bots, on_step if checker else None)
        res = engine.result(state)
        view = engine.view(state, None)
        solo = (state.get("result") or {}).get("classmate") if isinstance(state, dict) else None
        if solo is not None:
            outcomes[state["result"]["outcome"]] += 1
            opponent.append(solo["score"])
        for i in range(players):
            label = _label(view, i)
            seen[label] += 1
            if res.ranks[i] == 1:
                wins[label] += 1
            scores.append(res.scores[i])
            for k, v in res.breakdown[i].items():
                categories[k].append(v)
    dt = time.perf_counter() - t0
    return {
        "game": slug, "players": players, "games": games, "seed": seed, "bot": bot,
        "seconds": round(dt, 3), "games_per_second": round(games / dt, 2),
        "decisions_per_game": round(decisions / games, 1),
        "us_per_decision": round(dt / decisions * 1e6, 2),
        "score": {"min": min(scores), "mean": round(statistics.mean(scores), 2), "max": max(scores),
                  "stdev": round(statistics.pstdev(scores), 2),
                  **{f"p{int(p * 100)}": round(_pct(scores, p), 1) for p in (0.1, 0.25, 0.5, 0.75, 0.9)}},
        "category_mean": {k: round(statistics.mean(v), 2) for k, v in categories.items()},
        "win_rate_by_character": {k: {"games": seen[k], "win_rate": round(wins[k] / seen[k], 3)}
                                  for k in sorted(seen)},
        **({"solo": {"win_rate": round(outcomes["win"] / games, 3), "draw_rate": round(outcomes["draw"] / games, 3),
                     "loss_rate": round(outcomes["loss"] / games, 3),
                     "classmate_score_mean": round(statistics.mean(opponent), 2)}} if opponent else {}),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.engines.simulate")
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", choices=("random", "greedy"), default="greedy")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
    ap.add_argument("--expansion", choices=("battle_for_london",),
                    help="Faltisia expansion (route, Paladin and Big Ben figures: games.engines.faltisia.london_report)")
    ap.add_argument("--solo", metavar="LEVEL", help="Faltisia Solo Mode difficulty (with --players 1): "
                    "beginner, easy, medium, hard, nightmare")
    a = ap.parse_args(argv)
    options = {"solo": {"difficulty": a.solo}} if a.solo else None
    if a.expansion:
        options = {**(options or {}), "expansion": a.expansion}
    try:
        out = simulate(a.game, a.players, a.games, a.seed, a.bot, options=options, check=not a.no_check)
    except Exception as exc:  # noqa: BLE001 - any failure must fail the run
        print(f"FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(out, indent=2, sort_keys=True))
        return 0
    print(f"{out['game']}: {out['games']} games, {out['players']} players, bot {out['bot']}, seed {out['seed']}")
    print(f"  {out['games_per_second']} games/s, {out['decisions_per_game']} decisions/game, "
          f"{out['us_per_decision']} us/decision (invariants {'off' if a.no_check else 'checked'})")
    s = out["score"]
    print(f"  score min {s['min']} mean {s['mean']} max {s['max']} stdev {s['stdev']}; "
          f"p10 {s['p10']} p25 {s['p25']} p50 {s['p50']} p75 {s['p75']} p90 {s['p90']}")
    print("  mean by category: " + ", ".join(f"{k} {v}" for k, v in out["category_mean"].items()))
    if "solo" in out:
        so = out["solo"]
        print(f"  solo ({a.solo or 'medium'}): player wins {so['win_rate']:.3f}, draws {so['draw_rate']:.3f}, "
              f"loses {so['loss_rate']:.3f}; Classmate mean score {so['classmate_score_mean']}")
    print("  win rate by character:")
    for k, v in out["win_rate_by_character"].items():
        print(f"    {k:22s} {v['win_rate']:.3f} ({v['games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
