"""Table talk on the production stack (docs/benchmarks.md, "Table talk"): message post latency and ``?wait`` wake-up,
measured by an HTTP client against gunicorn (2 workers x 4 threads) + PostgreSQL + Redis + a Celery worker:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench CHAT_MESSAGES_PER_MINUTE=100000 \
    CHAT_MESSAGES_PER_DAY=100000 SIGNUPS_PER_IP=100 .venv/bin/python benchmarks/with_stack.py -- \
        .venv/bin/python benchmarks/chat_stack_bench.py {url} [--posts 300] [--wakes 60]

(the raised rates let one client's posts all through; with_stack.py passes its environment to the stack).

- post: ``POST /api/games/{id}/messages/`` wall time seen by the client (keep-alive connection, token auth,
  the checks, the insert and the seats' mail windows), p50 / p99 / max, three players taking turns;
- wake: a second player waits with ``GET .../messages/?since=<last>&wait=10`` in a thread while the first posts
  after a random 0.05-1.5 s; the time from the post's answer (its commit is before it) to the waiting client's
  answer, p50 / p99 / max. Every other trial first posts a private message to the third seat, which must not
  wake the waiter (the run fails if it does).

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import uuid

import requests


def _quantiles(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered) * 1000, 1),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
            "max": round(ordered[-1] * 1000, 1), "n": len(ordered)}


class Player:
    def __init__(self, base: str, name: str) -> None:
        self.base, self.http = base, requests.Session()
        answer = self.http.post(f"{base}/api/auth/register/", json={
            "username": name, "email": f"{name}@example.org", "password": "Correct-Horse-42"})
        answer.raise_for_status()
        self.http.headers["Authorization"] = f"Token {answer.json()['token']}"

    def call(self, method: str, path: str, **kw) -> requests.Response:
        return self.http.request(method, self.base + path, timeout=30, **kw)


def _game(players: list[Player]) -> int:
    created = players[0].call("POST", "/api/games/", json={"game": "tinygame", "seats": len(players),
                                                            "options": {"rounds": 3}, "press": "full"})
    created.raise_for_status()
    game = created.json()["id"]
    for p in players[1:]:
        p.call("POST", f"/api/games/{game}/join/", json={}).raise_for_status()
    return game


def _post(player: Player, game: int, text: str, to=None) -> tuple[float, int]:
    t0 = time.perf_counter()
    answer = player.call("POST", f"/api/games/{game}/messages/", json={"text": text, "to": to})
    elapsed = time.perf_counter() - t0
    if answer.status_code != 201:
        raise SystemExit(f"post refused: {answer.status_code} {answer.text[:200]} (raise the chat rates)")
    return elapsed, answer.json()["id"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--posts", type=int, default=300)
    parser.add_argument("--wakes", type=int, default=60)
    args = parser.parse_args()
    run = uuid.uuid4().hex[:6]
    players = [Player(args.url.rstrip("/"), f"chat{run}{i}") for i in range(3)]
    game = _game(players)

    posts, last = [], 0
    for i in range(args.posts):
        elapsed, last = _post(players[i % 3], game, f"message {i}: good luck, all")
        posts.append(elapsed)

    rng, wakes = random.Random(23), []
    for trial in range(args.wakes):
        answered: dict = {}

        def wait(since=last):
            answer = players[1].call("GET", f"/api/games/{game}/messages/?since={since}&wait=10")
            answered["at"], answered["body"] = time.perf_counter(), answer.json()

        waiter = threading.Thread(target=wait)
        waiter.start()
        time.sleep(rng.uniform(0.05, 1.5))
        if trial % 2:
            _, last = _post(players[0], game, "for the third seat only", to=[2])
            time.sleep(0.3)
            if "at" in answered:
                raise SystemExit("a private message to another seat woke the waiter")
        _, last = _post(players[0], game, f"wake {trial}")
        posted = time.perf_counter()
        waiter.join()
        if not answered.get("body") or answered["body"][-1]["id"] != last:
            raise SystemExit(f"the waiter got {answered.get('body')!r}, not message {last}")
        wakes.append(answered["at"] - posted)

    print(json.dumps({"post_ms": _quantiles(posts), "wait_wake_ms": _quantiles(wakes),
                      "stack": "gunicorn 2x4 + PostgreSQL + Redis + Celery worker"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
