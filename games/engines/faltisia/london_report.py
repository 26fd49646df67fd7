"""Battle for London simulation report: how often each route, Paladin and Big Ben bonus is taken, and the win
rate per character and per route, over seeded bot games.

    python -m games.engines.faltisia.london_report --players 4 --games 300 --seed 1 --bot greedy [--json]

"Taken" for a Paladin: the Control Points broken in its Round (by requirement or by mercenaries) and the
failed attempts; every Paladin is in play in about three games of four (three of the four tiles are drawn).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict

from ..bots import make_bot
from ..rng import Rng, seed_state
from .cards import BFL
from .engine import FaltisiaEngine
from .london import BIG_BEN, PALADINS, ROUTES

OPTIONS = {"expansion": BFL}


class RandomRouteGreedy:
    """The greedy bot, except that it picks its route at random among the free ones (seeded): the controlled
    check that no route is better than another whoever takes it (the greedy bot's own route pick follows its
    attributes, so its per-route figures mix the route with the player)."""

    def __init__(self, seed: int) -> None:
        self.greedy = make_bot("faltisia", "greedy")
        self.rng = Rng(seed_state(seed))

    def choose(self, engine, state, seat, prompt=None):
        p = prompt or engine.prompt(state, seat)
        ids = [o.id for o in p.options if o.id.startswith("route:")]
        if ids:
            return ids[self.rng.below(len(ids))]
        return self.greedy.choose(engine, state, seat, p)


def _bot(kind: str, seed: int):
    return RandomRouteGreedy(seed) if kind == "greedy-random-route" else make_bot("faltisia", kind, seed)


def play_collecting(engine: FaltisiaEngine, state: dict, bots: list) -> list:
    """Drive a game to its end and return its events (bots.play drops them)."""
    events = []
    while not engine.is_over(state):
        for seat in engine.pending(state):
            p = engine.prompt(state, seat)
            while p is not None:
                events += engine.apply(state, seat, bots[seat].choose(engine, state, seat, p))
                p = engine.prompt(state, seat)
        events += engine.resolve(state)
    return events


def report(players: int, games: int, seed: int, bot: str) -> dict:
    engine = FaltisiaEngine()
    routes, route_wins, route_pos, route_score = Counter(), defaultdict(float), Counter(), Counter()
    bonuses, positions = Counter(), Counter()
    paladin_games = Counter()
    paladin_use = {t: Counter() for t in PALADINS}
    wins, seen = defaultdict(float), Counter()
    award_kept = four_tokens = 0
    for g in range(games):
        gs = seed * 1_000_003 + g
        state = engine.new_game(players=players, options=OPTIONS, seed=gs)
        events = play_collecting(engine, state, [_bot(bot, gs * 7 + i) for i in range(players)])
        ranks = state["result"]["ranks"]
        paladin_games.update(state["london"]["paladins"])
        for e in events:
            d = e.data.get("london")
            if d and d["kind"] == "peacekeeping" and "control" in d:
                paladin_use[d["paladin"]][d["passed_by"]] += 1
        for i, s in enumerate(state["seats"]):
            pk = s["bfl"]
            name = engine.view(state, None)["seats"][i]["character"]["name"]
            seen[name] += 1
            wins[name] += ranks[i] == 1
            routes[pk["route"] or "none"] += 1
            route_wins[pk["route"] or "none"] += ranks[i] == 1
            route_pos[pk["route"] or "none"] += pk["pos"]
            route_score[pk["route"] or "none"] += state["result"]["scores"][i]
            bonuses[pk["bonus"] or "none"] += 1
            positions[pk["pos"]] += 1
            award_kept += pk["award"]
            four_tokens += len(pk["tokens"]) == 4
    n = games * players
    return {
        "players": players, "games": games, "seed": seed, "bot": bot,
        "route_taken": {r: routes[r] for r in [*ROUTES, "none"]},
        "route_win_rate": {r: round(route_wins[r] / routes[r], 3) if routes[r] else None for r in [*ROUTES, "none"]},
        "route_mean_position": {r: round(route_pos[r] / routes[r], 2) if routes[r] else None
                                for r in [*ROUTES, "none"]},
        "route_mean_score": {r: round(route_score[r] / routes[r], 1) if routes[r] else None
                             for r in [*ROUTES, "none"]},
        "big_ben_bonus_taken": {b: bonuses[b] for b in [*BIG_BEN, "none"]},
        "final_position": {str(k): positions[k] for k in range(6)},
        "paladin": {t: {"games": paladin_games[t], **{k: paladin_use[t][k] for k in ("requirement", "payment", "fail")}}
                    for t in PALADINS},
        "attendance_award_kept": round(award_kept / n, 3), "four_checkpoints": round(four_tokens / n, 3),
        "win_rate_by_character": {k: {"games": seen[k], "win_rate": round(wins[k] / seen[k], 3)} for k in sorted(seen)},
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.engines.faltisia.london_report")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", choices=("random", "greedy", "greedy-random-route"), default="greedy")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = report(a.players, a.games, a.seed, a.bot)
    if a.json:
        print(json.dumps(out, indent=2, sort_keys=True))
        return 0
    print(f"Battle for London: {a.games} games, {a.players} players, bot {a.bot}, seed {a.seed}")
    print("  route taken:    " + ", ".join(f"{k} {v}" for k, v in out["route_taken"].items()))
    print("  route win rate: " + ", ".join(f"{k} {v}" for k, v in out["route_win_rate"].items()))
    print("  route mean position (5 = Big Ben): " + ", ".join(f"{k} {v}" for k, v in out["route_mean_position"].items()))
    print("  route mean score: " + ", ".join(f"{k} {v}" for k, v in out["route_mean_score"].items()))
    print("  Big Ben bonus:  " + ", ".join(f"{k} {v}" for k, v in out["big_ben_bonus_taken"].items()))
    print("  final position: " + ", ".join(f"{k} {v}" for k, v in out["final_position"].items()))
    for t, d in out["paladin"].items():
        print(f"  Paladin {PALADINS[t].name:18s} in {d['games']} games: Control Points by requirement "
              f"{d['requirement']}, by mercenaries {d['payment']}, failed {d['fail']}")
    print(f"  Attendance Award kept {out['attendance_award_kept']}, four checkpoint tokens {out['four_checkpoints']}")
    print("  win rate by character (even is %.3f):" % (1 / a.players))
    for k, v in out["win_rate_by_character"].items():
        print(f"    {k:22s} {v['win_rate']:.3f} ({v['games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
