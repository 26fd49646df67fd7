"""Chaos for the email layer: every player gets every mail of a game exactly once.

Real processes (tests/e2e/stack.py): a private redis-server, gunicorn, a game worker (queue "celery"),
a mail worker (queue "mail", as in the Procfile) and beat. Three players play a tinygame (2 rounds: 4
steps) over the HTTP API; like email players, each one picks only after their prompt email was sent.
Mid-game the mail worker is SIGKILLed, the broker is flushed (FLUSHALL on the private Redis) and every
database connection of the stack is terminated (pg_terminate_backend, on this test database only: the
PostgreSQL server is shared). Result and game-over tasks lost that way were lost for good before mail
jobs (games/mail/jobs.py); now the sweeps deliver them late. The test then counts, per player and kind,
the outbox rows and the messages the mail backend wrote, against what the game implies: one prompt
email per prompt the player answered, one result email per resolved step to each player it does not
ask to decide (those it asks learn it from their prompt email), one game-over email.
"""

from __future__ import annotations

import email
import random
import signal
import sys
import time
import uuid
from collections import Counter
from email import policy

import pytest
import redis
from django.db import connection

from games.mail.models import MailJob, MailJobStatus, Notification, NotificationKind, NotificationStatus
from games.models import Game, GameStatus, Prompt, Seat
from tests.e2e import client
from tests.e2e.stack import Stack, database_url, wait_for
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROUNDS = 2  # tinygame: a draft step and a take step per round
PLAYERS = 3
MAIL_ENV = {
    "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
    "MAIL_SWEEP_GRACE_SECONDS": "3",  # a mail task silent this long is taken as lost by the sweeps
    "MAIL_JOB_SWEEP_SECONDS": "1",
    "MAIL_PROMPT_SWEEP_SECONDS": "1",
    "MAIL_REMINDER_INTERVAL_SECONDS": "1",  # and the outbox sweep of lost sends with it
    "MAIL_FOLLOWUP_DELAY_SECONDS": "0",  # every prompt is emailed at once, so every prompt has its email
    "MAIL_PROMPT_DELAY_SECONDS": "0",  # no wait for an answer on the page (these players are away)
}


class MailStack(Stack):
    """The stack with the mail queue on a worker of its own, which the test kills and restarts."""

    worker_queues = "celery"

    def start_mailworker(self) -> None:
        seen = len(self.log("mailworker"))
        self._spawn("mailworker", [sys.executable, "-m", "celery", "-A", "faltisia", "worker", "--loglevel", "INFO",
                                   "--pool", "prefork", "--concurrency", "2", "-Q", "mail", "--without-gossip",
                                   "--without-mingle", "-n", f"mail{self.http_port}@%h"])
        wait_for(lambda: "ready." in self.log("mailworker")[seen:], what="mail worker", timeout=60)

    def start(self) -> "MailStack":
        super().start()
        self.supervised["mailworker"] = self.start_mailworker  # restarted if it exits on its own
        self.start_mailworker()
        return self

    def flush_broker(self) -> None:
        redis.Redis(host="127.0.0.1", port=self.redis_port).flushall()


@pytest.fixture
def mail_stack(transactional_db, tmp_path):
    stack = MailStack(db_url=database_url(connection.settings_dict), workdir=tmp_path)
    stack.env.update(MAIL_ENV, EMAIL_FILE_PATH=str(tmp_path / "sent"))
    try:
        yield stack.start()
    finally:
        stack.stop_all()
        for name in ("web", "worker", "mailworker", "beat"):
            text = stack.log(name)
            if "Traceback" in text:
                print(f"--- {name}.log (tail) ---\n{text[-2500:]}")


def terminate_stack_connections(*, touching: str | None = None) -> int:
    """Terminate the other connections to this test database (the shared server itself is left alone),
    or only those whose current (or last) statement mentions ``touching``. Returns how many."""
    match = " AND query ILIKE %s" if touching else ""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()" + match,
                       [f"%{touching}%"] if touching else [])
        return cursor.fetchone()[0]


def database_restart_while_the_step_resolves(players, faults: Counter) -> None:
    """As a database restart looks to the stack: every connection dies at once, right after the pick
    that completes the step (the resolution is starting). Then, until shortly after the step resolved
    (the game sweep retries it), every transaction touching a mail job is killed too: a resolution
    inserting its job (both roll back, the game sweep resolves again) and the job's task running it
    (only the job sweep can then deliver its emails)."""
    faults["database connections terminated"] += terminate_stack_connections()
    step, resolved_at, started = players.game().phase, None, time.time()
    while time.time() - started < 20 and (resolved_at is None or time.time() - resolved_at < 1.5):
        faults["mail job transactions terminated"] += terminate_stack_connections(touching="mail_mailjob")
        if resolved_at is None and players.game().phase > step:
            resolved_at = time.time()
        time.sleep(0.01)


class Players:
    """Three API players who, like email players, pick only once their prompt email was sent."""

    def __init__(self, base: str, gid: int, users, tokens) -> None:
        self.base, self.gid, self.users, self.tokens = base, gid, users, tokens
        self.rng = random.Random(15)
        self.picks = 0

    def game(self) -> Game:
        return Game.objects.get(pk=self.gid)

    def _mailed(self, user, prompt_id: str) -> bool:
        return Notification.objects.filter(user=user, kind=NotificationKind.PROMPT, status=NotificationStatus.SENT,
                                           prompt__game_id=self.gid, prompt__prompt_id=prompt_id,
                                           prompt__closed_at__isnull=True).exists()

    def completes_the_step(self, prompt_id: str) -> bool:
        """The pick whose write completes the step: the last seat's take, or the draft's last open bet."""
        if prompt_id.endswith(f"-{PLAYERS - 1}-take"):
            return True
        return prompt_id.endswith("-bet") and Prompt.objects.filter(game_id=self.gid, closed_at__isnull=True).count() == 1

    def play_step(self, *, before_last_pick=None, after_last_pick=None, timeout: float = 60) -> None:
        """Answer mailed prompts until the pick that completes the current step has been made; the hooks
        run just before and just after that pick (the write that causes the resolution)."""
        started = time.time()
        while True:
            assert time.time() - started < timeout, f"stuck at step {self.game().phase} after {self.picks} picks"
            progressed = False
            for user, token in zip(self.users, self.tokens):
                st, view = client.call(self.base, "GET", f"/api/games/{self.gid}/", token)
                assert st == 200, view
                prompt = view.get("prompt")
                if view["status"] != "active" or not prompt or not self._mailed(user, prompt["id"]):
                    continue
                last = self.completes_the_step(prompt["id"])
                if last and before_last_pick is not None:
                    before_last_pick()
                st, body = client.call(self.base, "POST", f"/api/games/{self.gid}/moves/", token,
                                       {"prompt": prompt["id"], "option": self.rng.choice(prompt["options"])["id"]},
                                       headers={"Idempotency-Key": uuid.uuid4().hex})
                assert st == 201, body  # each player answers its own prompt once: nothing to refuse
                self.picks += 1
                progressed = True
                if last:
                    if after_last_pick is not None:
                        after_last_pick()
                    return
            if not progressed:
                time.sleep(0.1)


def sent_messages(folder) -> list[email.message.EmailMessage]:
    """Every message the file mail backend wrote (it separates the messages of one file with 79 dashes)."""
    out = []
    for path in sorted(folder.glob("*.log")) if folder.exists() else []:
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if chunk.strip():
                out.append(email.message_from_bytes(chunk.lstrip(b"\n"), policy=policy.default))
    return out


def test_every_player_gets_every_mail_of_the_game_exactly_once_despite_kills_flushes_and_db_restarts(mail_stack):
    stack = mail_stack
    started = time.time()
    users = [UserFactory() for _ in range(PLAYERS)]
    tokens = [u.auth_token.key for u in users]
    gid = client.new_game(stack.base_url, tokens, options={"rounds": ROUNDS})
    players = Players(stack.base_url, gid, users, tokens)
    faults = Counter()

    def kill_mail_worker():
        stack.stop("mailworker", signal.SIGKILL)
        faults["mail worker SIGKILLed"] += 1

    def flush_broker_then_restart_mail_worker():
        stack.flush_broker()
        faults["broker flushed"] += 1
        stack.start_mailworker()

    def resolved(step: int) -> None:
        wait_for(lambda: players.game().phase > step or players.game().status != GameStatus.ACTIVE,
                 what=f"step {step} to resolve", timeout=60)

    # Step 0: the mail worker dies before the pick that completes the step; the resolution's result task
    # and the next prompt's task wait in the broker, which is flushed before the mail worker is back.
    players.play_step(before_last_pick=kill_mail_worker)
    resolved(0)
    flush_broker_then_restart_mail_worker()
    # Step 1: every connection of the stack to the database dies while the step resolves and mails.
    players.play_step(after_last_pick=lambda: database_restart_while_the_step_resolves(players, faults))
    resolved(1)
    # Step 2: the mail worker is SIGKILLed as soon as the resolution's result task reaches it.
    mail_log_start = len(stack.log("mailworker"))
    players.play_step()
    wait_for(lambda: "mail.queue_result_notifications[" in stack.log("mailworker")[mail_log_start:],
             what="the result task to reach the mail worker", timeout=30, interval=0.02)
    kill_mail_worker()
    stack.start_mailworker()
    resolved(2)
    # Step 3, the last: the finishing write's tasks (result, game-over) are flushed away.
    players.play_step(before_last_pick=kill_mail_worker)
    wait_for(lambda: players.game().status == GameStatus.FINISHED, what="the game to finish", timeout=60)
    flush_broker_then_restart_mail_worker()

    game = Game.objects.get(pk=gid)
    prompts = {u.pk: Prompt.objects.filter(game=game, seat__user=u).count() for u in users}
    assert prompts == {u.pk: 3 * ROUNDS for u in users}  # a card, a bet and a take per round
    # Result emails: a seat the resolution asks to decide gets its prompt email instead
    # (these players answer only after it), and the last step's result is in the game-over email. So
    # only a draft's result (steps 0, 2) goes out, to the seats not asked the first take (seats 1, 2).
    position = dict(Seat.objects.filter(game=game).values_list("user_id", "position"))
    owed_results = {u.pk: [f"result:{gid}:{step}:user{u.pk}" for step in range(0, 2 * ROUNDS, 2)
                           if position[u.pk] != 0] for u in users}
    expected = {u.pk: Counter({NotificationKind.PROMPT: prompts[u.pk], NotificationKind.FINISHED: 1,
                               NotificationKind.RESULT: len(owed_results[u.pk])}) for u in users}
    expected = {pk: +kinds for pk, kinds in expected.items()}  # seat 0 has no RESULT key, as received
    total = sum(sum(kinds.values()) for kinds in expected.values())

    def delivered() -> bool:
        return (Notification.objects.filter(game=game, status=NotificationStatus.SENT).count() >= total
                and not Notification.objects.filter(game=game, status=NotificationStatus.PENDING).exists()
                and not MailJob.objects.filter(game=game, status=MailJobStatus.PENDING).exists())

    wait_for(delivered, what="every mail of the game", timeout=60)
    time.sleep(2)  # a sweep or a late task that would send anything twice has had its chance
    rows = list(Notification.objects.filter(game=game))
    assert all(r.status == NotificationStatus.SENT for r in rows), Counter(r.status for r in rows)
    received = {u.pk: Counter(r.kind for r in rows if r.user_id == u.pk) for u in users}
    assert received == expected
    # One prompt email per prompt, one result email per resolved step and player.
    assert Counter(r.prompt_id for r in rows if r.kind == NotificationKind.PROMPT) == Counter(
        Prompt.objects.filter(game=game).values_list("pk", flat=True))
    assert {r.dedupe_key for r in rows if r.kind == NotificationKind.RESULT} == {
        key for keys in owed_results.values() for key in keys}
    # What the mail backend actually wrote: each row's message exactly once, to its player.
    messages = sent_messages(stack.workdir / "sent")
    by_id = Counter(m["Message-ID"] for m in messages)
    assert len(messages) == len(rows) == total
    assert {r.message_id: by_id[r.message_id] for r in rows} == {r.message_id: 1 for r in rows}
    assert all(m["To"] == r.address for r in rows for m in messages if m["Message-ID"] == r.message_id)
    assert set(MailJob.objects.filter(game=game).values_list("status", flat=True)) == {MailJobStatus.DONE}
    assert "mail.sweep_mail_jobs" in stack.log("mailworker") and "mail job sweep: ran" in stack.log("mailworker")
    elapsed = time.time() - started
    per_kind = {k.value: (sum(e[k] for e in expected.values()), sum(r[k] for r in received.values()))
                for k in (NotificationKind.PROMPT, NotificationKind.RESULT, NotificationKind.FINISHED)}
    print(f"mail chaos: {players.picks} picks, faults {dict(faults)}; expected/received per kind {per_kind}; "
          f"{len(messages)} messages written; job sweeps that ran lost jobs: "
          f"{stack.log('mailworker').count('mail job sweep: ran')}; {elapsed:.0f}s")
    assert elapsed < 120
