"""Table talk's figures (docs/benchmarks.md, "Table talk"): message post latency, ``?wait`` wake-up latency, and
the mails each player gets for a burst of 50 messages.

    python benchmarks/chat_bench.py [--games 300]    (--games: posts measured; SQLite by default, a file
                                                      database so the waiting thread reads while another
                                                      writes; DATABASE_URL=postgres://... for PostgreSQL)

In-process (Django's test client, DEBUG off) on a throw-away database, a started 3-player tinygame with
press "full":

- post: ``POST /api/games/{id}/messages/`` wall time per request (token, checks, insert, the seats' mail
  windows; the rate limit raised so every post is accepted), p50 and p99;
- wake: a client waits with ``GET .../messages/?since=<last>&wait=10`` in a thread while another player
  posts after a random 0.05-1.5 s; the time from the post's commit to the waiting client's answer, p50,
  p99 and max over the trials (every second trial posts first a private message to the other seats, which
  must not wake it);
- mails: 50 messages from one player in a burst, then the chat-mail run after the batch window; the chat
  emails each other player got (and a second burst split across two windows).

Prints one JSON line.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setup() -> str:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.test_settings")
    import django

    django.setup()
    from django.db import connection

    if connection.vendor == "sqlite":  # a file: the waiting thread's reads and the posts' writes interleave
        connection.settings_dict["TEST"]["NAME"] = str(Path(tempfile.mkdtemp()) / "chat_bench.sqlite3")
    return connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))], 2)


def _client(user):
    from rest_framework.test import APIClient

    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return c


def _game(press: str = "full"):
    from accounts.services import user_create
    from games.services import game_create, game_join

    tag = random.randrange(10 ** 9)
    users = [user_create(username=f"talk{tag}x{i}", email=f"talk{tag}x{i}@example.org", password="Bench-pass-123",
                         email_verified=True) for i in range(3)]
    game = game_create(created_by=users[0], engine="tinygame", players=3, options={"rounds": 1}, press=press, seed=1)
    for u in users[1:]:
        game_join(game=game, user=u)
    return game, users


def post_latency(n: int) -> dict:
    from django.db import connection

    game, users = _game()
    client, path = _client(users[0]), f"/api/games/{game.pk}/messages/"
    for i in range(20):  # warm up
        assert client.post(path, {"text": f"warm {i}"}, format="json").status_code == 201
    wall = []
    for i in range(n):
        body = {"text": f"message {i}: a line of table talk", "to": [1] if i % 4 == 0 else None}
        t0 = time.perf_counter()
        r = client.post(path, body, format="json")
        wall.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 201, r.content
    return {"db": connection.vendor, "posts": n, "p50_ms": _percentile(wall, 0.5), "p99_ms": _percentile(wall, 0.99),
            "max_ms": round(max(wall), 2)}


def wake_latency(trials: int) -> dict:
    from django.db import connection

    from games.chat.services import message_post

    game, (alice, bob, carol) = _game()
    waiter = _client(bob)
    path = f"/api/games/{game.pk}/messages/"
    latencies, woken_by_others = [], 0
    last = message_post(game=game, user=alice, text="start").pk
    for i in range(trials):
        answer: dict = {}

        def wait(since=last):
            r = waiter.get(f"{path}?since={since}&wait=10")
            answer["at"], answer["body"] = time.perf_counter(), r.json()
            connection.close()

        thread = threading.Thread(target=wait)
        thread.start()
        time.sleep(random.uniform(0.05, 1.5))
        if i % 2:
            message_post(game=game, user=alice, text="not for bob", to=[2])  # must not wake the waiter
            time.sleep(0.3)
        message = message_post(game=game, user=alice, text=f"wake up {i}")
        committed = time.perf_counter()
        thread.join(15)
        texts = [m["text"] for m in answer["body"]]
        woken_by_others += "not for bob" in texts
        assert texts == [f"wake up {i}"], texts
        latencies.append((answer["at"] - committed) * 1000)
        last = message.pk
    return {"db": connection.vendor, "trials": trials, "p50_ms": _percentile(latencies, 0.5),
            "p99_ms": _percentile(latencies, 0.99), "max_ms": round(max(latencies), 2),
            "woken_by_a_private_message_to_others": woken_by_others}


def burst_mails() -> dict:
    from django.conf import settings
    from django.db import transaction
    from django.utils import timezone

    from games.chat.services import message_post
    from games.mail.chat_mail import chat_batches_send
    from games.mail.models import Notification, NotificationKind

    window = timedelta(seconds=settings.CHAT_MAIL_BATCH_SECONDS)

    def run_at(moment):
        with transaction.atomic():
            chat_batches_send(now=moment)

    def per_player(users) -> dict:
        return {u.username[-2:]: Notification.objects.filter(kind=NotificationKind.CHAT, user=u).count()
                for u in users}

    game, users = _game()
    start = timezone.now()
    for i in range(50):
        message_post(game=game, user=users[0], text=f"burst {i}")
        run_at(start + timedelta(seconds=i))  # the beat running all along: nothing is due within the window
    for minutes in (0, 1, 60, 600):
        run_at(start + window + timedelta(seconds=1, minutes=minutes))
    one_window = per_player(users[1:])

    game, users = _game()
    for i in range(25):
        message_post(game=game, user=users[0], text=f"first half {i}")
    run_at(timezone.now() + window + timedelta(seconds=1))
    for i in range(25):
        message_post(game=game, user=users[0], text=f"second half {i}")
    run_at(timezone.now() + 2 * window + timedelta(seconds=2))
    two_windows = per_player(users[1:])
    return {"burst_of_50_in_one_window": one_window, "burst_of_50_across_two_windows": two_windows,
            "author_gets": Notification.objects.filter(kind=NotificationKind.CHAT, user=users[0]).count()}


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300, help="posts measured (wake trials: a fifth of it, >= 20)")
    args = ap.parse_args()
    old = _setup()
    try:
        from django.conf import settings
        from django.core.cache import cache

        settings.DEBUG = False
        settings.CHAT_MESSAGES_PER_MINUTE = settings.CHAT_MESSAGES_PER_DAY = 10 ** 6  # measure posts, not 429s
        cache.clear()
        out = {"post": post_latency(args.games), "wake": wake_latency(max(20, args.games // 5)),
               "mails": burst_mails()}
        print(json.dumps(out))
    finally:
        from django.db import connection

        connection.creation.destroy_test_db(old, verbosity=0)


if __name__ == "__main__":
    main()
