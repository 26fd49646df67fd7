"""Mail work per accepted pick, counted in-process on a throw-away database (deterministic).

    python benchmarks/mail_cost.py [--games 3]        (SQLite by default; DATABASE_URL for PostgreSQL)

Plays whole 4-player Faltisia games through the API (test client, tasks eager) as the load benchmark's
bots do: each seat picks a seeded-random option and follows the prompt the move's response returns.
Once with the players' emails on (the default preferences), once with them off (load_bench.py
--emails off). Counts, per accepted pick: the mail tasks enqueued (each `apply_async` of a `mail.*`
task is one broker publish in production, by task name), the emails rendered (`compose.render_*`) and
the CPU milliseconds spent inside the mail tasks (what the mail worker would spend; includes the
sends, to the in-memory backend). Then the prompt sweep runs once as if every delay had passed, and
its work is counted too. Prints one JSON line per run.
"""

import json
import random
import time
from collections import Counter
from datetime import timedelta
from unittest import mock

from _django import run_on_test_db

RENDERERS = ("render_prompt", "render_result", "render_finished", "render_answer", "render_digest")


class MailMeter:
    """Counts mail tasks and renders, and the CPU spent in the outermost mail task of each call."""

    def __init__(self) -> None:
        self.enqueued: Counter = Counter()
        self.rendered: Counter = Counter()
        self.cpu_s = 0.0
        self._depth = 0

    def patches(self):
        from celery.app.task import Task

        from games.mail import compose

        original = Task.apply_async
        meter = self

        def apply_async(task, *args, **kwargs):
            if not task.name.startswith("mail."):
                return original(task, *args, **kwargs)
            meter.enqueued[task.name] += 1
            meter._depth += 1
            t0 = time.process_time()
            try:
                return original(task, *args, **kwargs)
            finally:
                meter._depth -= 1
                if meter._depth == 0:
                    meter.cpu_s += time.process_time() - t0

        def counting(name, fn):
            def render(*args, **kwargs):
                meter.rendered[name] += 1
                return fn(*args, **kwargs)
            return render

        yield mock.patch.object(Task, "apply_async", apply_async)
        for name in RENDERERS:
            if hasattr(compose, name):
                yield mock.patch.object(compose, name, counting(name, getattr(compose, name)))


def play(clients, *, seed: int) -> int:
    """One game through the API; returns the accepted picks."""
    rng = random.Random(seed)
    gid = clients[0].post("/api/games/", {"game": "faltisia", "seats": len(clients), "seed": seed},
                          format="json").json()["id"]
    for c in clients[1:]:
        assert c.post(f"/api/games/{gid}/join/").status_code == 200
    known = [None] * len(clients)
    accepted = 0
    for _ in range(100_000):  # rounds over the seats; a seat with no known prompt looks at the game
        for i, c in enumerate(clients):
            if known[i] is None:
                view = c.get(f"/api/games/{gid}/").json()
                if view["status"] != "active":
                    return accepted
                known[i] = view["prompt"]
            while known[i] is not None:  # a compound decision: follow the prompt each response returns
                p = known[i]
                r = c.post(f"/api/games/{gid}/moves/", {"prompt": p["id"], "option": rng.choice(p["options"])["id"]},
                           format="json")
                assert r.status_code == 201, r.content
                accepted += 1
                known[i] = r.json()["prompt"]
    raise RuntimeError(f"game {gid} did not finish")


def sweep_when_every_delay_has_passed() -> None:
    """The beat task that emails due prompts (the reminders task, in a tree that has no prompt sweep), run as if
    every follow-up delay had passed; all games are over, so it should find nothing."""
    from celery import current_app
    from django.utils import timezone

    name = "mail.sweep_prompt_notifications"
    if name not in current_app.tasks:
        name = "mail.send_due_reminders"
    later = timezone.now() + timedelta(hours=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        current_app.tasks[name].apply_async()


def run(n_games: int) -> None:
    from contextlib import ExitStack

    from django.db import connection
    from rest_framework.test import APIClient

    from accounts.models import NotificationPreferences
    from accounts.services import user_create
    from games.mail.models import Notification

    for emails in ("on", "off"):
        clients = []
        for i in range(4):
            name = f"mail{emails}{i}"
            u = user_create(username=name, email=f"{name}@example.org", password="Bench-pass-123",
                            email_verified=True)  # confirmed addresses: they get game mail
            if emails == "off":
                NotificationPreferences.objects.filter(user=u).update(email_prompts=False, email_results=False)
            c = APIClient()
            c.credentials(HTTP_AUTHORIZATION=f"Token {u.auth_token.key}")
            clients.append(c)
        Notification.objects.all().delete()
        meter = MailMeter()
        with ExitStack() as stack:
            for p in meter.patches():
                stack.enter_context(p)
            picks = sum(play(clients, seed=100 + g) for g in range(n_games))
            tasks, renders, cpu_s = Counter(meter.enqueued), Counter(meter.rendered), meter.cpu_s
            sweep_when_every_delay_has_passed()
        statuses = Counter(Notification.objects.values_list("status", flat=True))
        published = sum(n for name, n in tasks.items() if not name.startswith("mail.send_notification"))  # by receivers
        print(json.dumps({
            "db": connection.vendor, "games": n_games, "emails": emails, "accepted_picks": picks,
            "mail_tasks_per_pick": round(sum(tasks.values()) / picks, 3),
            "receiver_tasks_per_pick": round(published / picks, 3),
            "renders_per_pick": round(sum(renders.values()) / picks, 3),
            "prompt_renders_per_pick": round(renders["render_prompt"] / picks, 3),
            "mail_cpu_ms_per_pick": round(cpu_s * 1000 / picks, 2),
            "sweep_after_delays": {"tasks": sum((meter.enqueued - tasks).values()),
                                   "renders": sum((meter.rendered - renders).values())},
            "tasks": dict(sorted(tasks.items())), "renders": dict(sorted(renders.items())),
            "outbox": dict(sorted(statuses.items())),
        }))


if __name__ == "__main__":
    run_on_test_db(run, default_games=3)
