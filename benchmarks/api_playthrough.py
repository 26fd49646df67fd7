"""Throughput of the production-shaped stack: G games played at once through the HTTP API by bots.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench python benchmarks/api_playthrough.py --games 8

Starts gunicorn, a Celery worker and beat (as the e2e tests do) on a throw-away test database and a
private redis-server, plays the games in parallel threads and prints one JSON line of figures.
"""

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

from _django import ROOT, setup, teardown


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    old = setup()
    try:
        run(args)
    finally:
        teardown(old)


def run(args) -> None:
    from django.db import connection

    sys.path.insert(0, str(ROOT))
    from tests.e2e import client
    from tests.e2e.stack import Stack, database_url

    if connection.vendor != "postgresql":
        raise SystemExit("set DATABASE_URL=postgres://... (the stack's processes share the database)")
    with tempfile.TemporaryDirectory() as tmp:
        stack = Stack(db_url=database_url(connection.settings_dict), workdir=Path(tmp)).start()
        try:
            results, picks = [], []

            def one(i: int) -> None:
                tokens = client.register(stack.base_url, args.players)
                gid = client.new_game(stack.base_url, tokens, options={"rounds": args.rounds})
                finished, n = client.play_to_end(stack.base_url, gid, tokens, seed=i, timeout=600)
                results.append(finished["result"])
                picks.append(n)

            t0 = time.perf_counter()
            threads = [threading.Thread(target=one, args=(i,)) for i in range(args.games)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            secs = time.perf_counter() - t0
        finally:
            stack.stop_all()
    print(json.dumps({"games": args.games, "finished": len(results), "players": args.players,
                      "picks": sum(picks), "seconds": round(secs, 2),
                      "picks_per_s": round(sum(picks) / secs, 1)}))


if __name__ == "__main__":
    main()
