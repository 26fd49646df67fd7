"""Take-backs: undo time on the server, the share of Mage Knight picks that are checkpoints, and what
the per-pick TakeBack row costs a pick.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_undo_bench .venv/bin/python benchmarks/undo_bench.py \
        [--games 6] [--picks 300] [--seed 24]

Plays 1-seat Mage Knight games (random seeds from --seed) through the real services on a throw-away test database
(SQLite without DATABASE_URL). In each turn it builds a run of up to 15 picks that can be taken back (options the
engine's checkpoint_key leaves unchanged), then times ``undo_for_player`` (to "last" or "turn", alternately), as
the API's undo endpoint calls it: lock, restore, delete the taken-back rows, log, prompts, save, commit. Between
the runs it plays random legal options. "checkpoint share": of all the player's picks, those after which the server
kept no TakeBack row (the engine's checkpoint_key changed, or the step ended): the server's own decision.
"Pick cost": the same games played again with the take-back bookkeeping switched off (pick_watch returns None),
mean ``submission_create`` wall ms of the picks either way. Reproducible with --seed (same games, same picks).

With the production settings (DEBUG off; tasks published to an in-memory broker as a web process publishes them to
Redis): the timed undo is what the request does, not the mail that a worker renders and sends after it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _django import production_settings, setup, teardown  # noqa: E402

production_settings("undo-bench")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0


def play(seed: int, picks: int, *, undos: bool, out: dict) -> None:
    from django.test import TestCase

    from games.models import Seat, TakeBack
    from games.services.undo import undo_for_player
    from tests.factories import make_started_game
    from tests.undo.helpers import free_option, open_prompt, pick, resolve_all

    rnd = random.Random(seed)
    game, users = make_started_game(players=1, engine="mage_knight", seed=seed)
    seat = Seat.objects.get(game=game, position=0)
    want, flip = rnd.randint(1, 15), 0
    for _ in range(picks):
        resolve_all(game)
        game.refresh_from_db()
        if game.status != "active":
            break
        row = open_prompt(game, 0)
        if row is None:
            break
        free = free_option(game, 0)
        run = TakeBack.objects.filter(game=game, seat=seat, phase=game.phase).count() if undos else 0
        if undos and run > 0 and (free is None or run >= want):
            to = "last" if flip % 2 == 0 else "turn"
            flip += 1
            t = time.perf_counter()
            with TestCase.captureOnCommitCallbacks(execute=True):
                undo_for_player(game_id=game.pk, user=users[0], prompt_id=row.prompt_id, to=to, source="api")
            out["undo_" + to].append((time.perf_counter() - t) * 1000)
            out["undo_moves"].append(run if to == "turn" else 1)
            want = rnd.randint(1, 15)
            continue
        option = free if free is not None and rnd.random() < 0.8 else rnd.choice(row.options)["id"]
        t = time.perf_counter()
        sub = pick(game, 0, option)
        out["pick"].append((time.perf_counter() - t) * 1000)
        out["picks"] += 1
        out["checkpoints"] += not TakeBack.objects.filter(submission=sub).exists()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--picks", type=int, default=300)
    ap.add_argument("--seed", type=int, default=24)
    args = ap.parse_args()
    old = setup()
    try:
        from django.db import connection

        import games.services.submissions as submissions
        seeds = [random.Random(args.seed).randrange(10 ** 6) + i for i in range(args.games)]
        on = {"undo_last": [], "undo_turn": [], "undo_moves": [], "pick": [], "picks": 0, "checkpoints": 0}
        for s in seeds:
            play(s, args.picks, undos=True, out=on)
        # The checkpoint share over random legal options only (no preference for free picks, no undos).
        share = {"undo_last": [], "undo_turn": [], "undo_moves": [], "pick": [], "picks": 0, "checkpoints": 0}
        with_rows = {"undo_last": [], "undo_turn": [], "undo_moves": [], "pick": [], "picks": 0, "checkpoints": 0}
        without = {"undo_last": [], "undo_turn": [], "undo_moves": [], "pick": [], "picks": 0, "checkpoints": 0}
        for s in seeds:
            play(s, args.picks, undos=False, out=with_rows)
        watch = submissions.pick_watch
        submissions.pick_watch = lambda *a, **k: None
        try:
            for s in seeds:
                play(s, args.picks, undos=False, out=without)
        finally:
            submissions.pick_watch = watch
        import tests.undo.helpers as helpers
        real_free = helpers.free_option
        helpers.free_option = lambda game, position: None  # random legal options only
        try:
            for s in seeds:
                play(s + 10 ** 6, args.picks, undos=False, out=share)
        finally:
            helpers.free_option = real_free
        undo_all = on["undo_last"] + on["undo_turn"]
        figures = {
            "database": connection.vendor, "games": args.games, "seed": args.seed,
            "undo_samples": len(undo_all), "undo_last_n": len(on["undo_last"]), "undo_turn_n": len(on["undo_turn"]),
            "undo_moves_max": max(on["undo_moves"] or [0]),
            "undo_p50_ms": round(pct(undo_all, 0.5), 2), "undo_p99_ms": round(pct(undo_all, 0.99), 2),
            "undo_max_ms": round(max(undo_all or [0]), 2),
            "undo_turn_p99_ms": round(pct(on["undo_turn"], 0.99), 2),
            "mk_picks_random": share["picks"], "mk_checkpoint_share": round(share["checkpoints"] / max(1, share["picks"]), 3),
            "pick_mean_ms_with_takebacks": round(statistics.mean(with_rows["pick"]), 2),
            "pick_mean_ms_without": round(statistics.mean(without["pick"]), 2),
            "pick_p99_ms_with_takebacks": round(pct(with_rows["pick"], 0.99), 2),
            "pick_p99_ms_without": round(pct(without["pick"], 0.99), 2),
            "picks_timed": with_rows["picks"],
        }
        print(f"undo ({figures['database']}, {figures['undo_samples']} samples, up to "
              f"{figures['undo_moves_max']} moves): p50 {figures['undo_p50_ms']} ms, p99 {figures['undo_p99_ms']} ms, "
              f"max {figures['undo_max_ms']} ms (to=turn p99 {figures['undo_turn_p99_ms']} ms)")
        print(f"checkpoints: {figures['mk_checkpoint_share']:.1%} of {figures['mk_picks_random']} random MK picks")
        print(f"pick mean {figures['pick_mean_ms_with_takebacks']} ms with take-back rows, "
              f"{figures['pick_mean_ms_without']} ms without ({figures['picks_timed']} picks each)")
        print(json.dumps(figures))
    finally:
        teardown(old)


if __name__ == "__main__":
    main()
