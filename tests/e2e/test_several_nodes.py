"""Several nodes on one database: two web nodes and two worker nodes, each a process
group of its own, on one PostgreSQL through PgBouncer in transaction mode, and one Redis.

Three players play a whole tinygame over the HTTP API, each pick sent to one web node or the other;
mid-game the worker node running a step's resolution is SIGKILLed (the engine's ``slow`` option holds
the resolution, game row locked, for 2 seconds). The other worker node resolves the step through the
sweep. Then every step must have been resolved exactly once (the events a resolution writes, and the
replay of the stored picks) and every email sent exactly once (outbox rows and the messages the mail
backend wrote).

Needs Debian's ``pgbouncer`` (``apt-get install -y pgbouncer``); skipped without it. PgBouncer refuses
to run as root, so it runs as the ``postgres`` user when the test runs as root.
"""

from __future__ import annotations

import os
import pwd
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection

from games.mail import result_mails
from games.mail.models import MailJob, MailJobStatus, Notification, NotificationKind, NotificationStatus
from games.models import Game, GameStatus
from tests.e2e import client
from tests.e2e.stack import Stack, _http_ok, _tcp_open, database_url, free_port, wait_for
from tests.e2e.test_full_stack import assert_each_phase_resolved_once, assert_game_matches_its_replay
from tests.e2e.test_mail_chaos import sent_messages
from tests.factories import UserFactory

PGBOUNCER = shutil.which("pgbouncer") or ("/usr/sbin/pgbouncer" if os.path.exists("/usr/sbin/pgbouncer") else None)

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(PGBOUNCER is None, reason="needs pgbouncer (apt-get install -y pgbouncer)")]

ROUNDS = 2
PLAYERS = 3
NODE_ENV = {
    "DB_PREPARE_THRESHOLD": "off",  # PgBouncer in transaction mode keeps no prepared statement
    "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
    "MAIL_SWEEP_GRACE_SECONDS": "3",
    "MAIL_JOB_SWEEP_SECONDS": "1",
    "MAIL_PROMPT_SWEEP_SECONDS": "1",
    "MAIL_REMINDER_INTERVAL_SECONDS": "1",
    "MAIL_FOLLOWUP_DELAY_SECONDS": "0",
    "MAIL_PROMPT_DELAY_SECONDS": "0",  # these players are away: no wait for an answer on the page
    # Every step goes to a worker node, so that one can be killed inside a resolution (a pick resolves the step
    # it completes by default).
    "RESOLVE_IN_PICK": "false",
}
WEB_NODES = ("web-a", "web-b")
WORKER_NODES = ("worker-a", "worker-b")


class NodesStack(Stack):
    """PgBouncer, Redis, two web nodes, two worker nodes (both queues), one beat."""

    def __init__(self, *, db_url: str, workdir: Path) -> None:
        super().__init__(db_url=db_url, workdir=workdir)
        self.pgbouncer_port = free_port()
        self.web_ports = {name: free_port() for name in WEB_NODES}
        self.env["DATABASE_URL"] = db_url.replace(":5432/", f":{self.pgbouncer_port}/")
        self.env.update(NODE_ENV, EMAIL_FILE_PATH=str(workdir / "sent"))
        self.supervised = {"beat": self.start_beat}  # a killed worker node stays down: the other one works
        # PgBouncer runs as postgres (it refuses root): its files live in a directory that user can read.
        self.pgb_dir = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
        os.chmod(self.pgb_dir, 0o777)

    def url(self, node: str) -> str:
        return f"http://127.0.0.1:{self.web_ports[node]}"

    def start_pgbouncer(self) -> None:
        ini = self.pgb_dir / "pgbouncer.ini"
        (self.pgb_dir / "users.txt").write_text('"postgres" ""\n')
        ini.write_text(f"""[databases]
* = host=127.0.0.1 port=5432
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.pgbouncer_port}
unix_socket_dir =
auth_type = trust
auth_file = {self.pgb_dir / 'users.txt'}
pool_mode = transaction
max_client_conn = 200
default_pool_size = 10
ignore_startup_parameters = extra_float_digits,options
logfile = {self.pgb_dir / 'pgbouncer.log'}
""")
        for path in self.pgb_dir.iterdir():
            os.chmod(path, 0o644)
        user = ["-u", "postgres"] if os.geteuid() == 0 and _user_exists("postgres") else []
        self._spawn("pgbouncer", [PGBOUNCER, *user, str(ini)])
        wait_for(lambda: _tcp_open(self.pgbouncer_port), what="pgbouncer")

    def start_web(self) -> None:
        for name in WEB_NODES:
            self._spawn(name, [sys.executable, "-m", "gunicorn", "faltisia.wsgi", "--bind",
                               f"127.0.0.1:{self.web_ports[name]}", "--workers", "1", "--threads", "4",
                               "--timeout", "60", "--name", name])
        for name in WEB_NODES:
            wait_for(lambda n=name: _http_ok(self.url(n) + "/api/schema/"), what=name, timeout=60)
        self.http_port = self.web_ports[WEB_NODES[0]]

    def start_worker(self, name: str | None = None) -> None:
        for node in [name] if name else WORKER_NODES:
            seen = len(self.log(node))
            self._spawn(node, [sys.executable, "-m", "celery", "-A", "faltisia", "worker", "--loglevel", "INFO",
                               "--pool", "solo", "-Q", "celery,mail", "--without-gossip", "--without-mingle",
                               "-n", f"{node}-{self.redis_port}@%h"])
            wait_for(lambda n=node, s=seen: "ready." in self.log(n)[s:], what=node, timeout=60)

    def start(self) -> "NodesStack":
        self.start_pgbouncer()
        return super().start()

    def stop_all(self) -> None:
        self._stopping = True
        for name in ["beat", *WORKER_NODES, *WEB_NODES, "redis", "pgbouncer"]:
            self.stop(name)
        shutil.copy(self.pgb_dir / "pgbouncer.log", self.workdir / "pgbouncer.log") \
            if (self.pgb_dir / "pgbouncer.log").exists() else None
        shutil.rmtree(self.pgb_dir, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


@pytest.fixture
def nodes(transactional_db, tmp_path):
    stack = NodesStack(db_url=database_url(connection.settings_dict), workdir=tmp_path)
    try:
        yield stack.start()
    finally:
        stack.stop_all()
        for name in (*WEB_NODES, *WORKER_NODES, "beat"):
            if "Traceback" in stack.log(name):
                print(f"--- {name}.log (tail) ---\n{stack.log(name)[-2500:]}")


def test_two_web_and_two_worker_nodes_through_pgbouncer_resolve_each_step_and_send_each_mail_once(nodes):
    """A full game across both web nodes, a worker node killed mid-resolution: each step resolved once, each
    mail sent once."""
    stack = nodes
    users = [UserFactory() for _ in range(PLAYERS)]
    tokens = [u.auth_token.key for u in users]
    gid = client.new_game(stack.url("web-a"), tokens, options={"rounds": ROUNDS, "slow": 2})
    rng = random.Random(16)
    node_of_round = iter(WEB_NODES * 20)

    # Step 0 completes; the worker node that picked up its resolution is killed inside it.
    while Game.objects.get(pk=gid).resolve_requested_at is None:
        client.play_round(stack.url(next(node_of_round)), gid, tokens, rng)
    wait_for(lambda: any("Task games.resolve_phase[" in stack.log(n) for n in WORKER_NODES),
             what="a worker node to start the resolution", timeout=30, interval=0.02)
    time.sleep(0.7)  # inside engine.resolve (2 s) with the game row locked
    victim = next(n for n in WORKER_NODES if "Task games.resolve_phase[" in stack.log(n))
    survivor = next(n for n in WORKER_NODES if n != victim)
    stack.stop(victim, signal.SIGKILL)
    assert Game.objects.get(pk=gid).phase == 0  # its transaction rolled back

    # The other worker node resolves it (the sweep re-enqueues it); the players go on, on both web nodes.
    wait_for(lambda: Game.objects.get(pk=gid).phase == 1, what="the survivor to resolve step 0", timeout=60)
    started = time.time()
    while Game.objects.get(pk=gid).status == GameStatus.ACTIVE:
        assert time.time() - started < 150, "the game did not finish"
        picks, _ = client.play_round(stack.url(next(node_of_round)), gid, tokens, rng)
        if not picks:
            time.sleep(0.2)

    game = assert_game_matches_its_replay(gid)
    assert_each_phase_resolved_once(game)
    assert "succeeded" in stack.log(survivor)

    # Every mail once: one game-over email each, at most one prompt email per prompt (the players do not
    # wait for them: one answered first is skipped), and a result email for each step but the last to each
    # player the resolution did not ask to decide by email (their prompt email carries
    # it); whether an API player's prompt was emailed before they answered it depends on timing, so what
    # is owed is read from the prompt emails the resolutions' prompts got.

    def delivered() -> bool:
        return (Notification.objects.filter(game=game, kind=NotificationKind.FINISHED,
                                            status=NotificationStatus.SENT).count() >= PLAYERS
                and not Notification.objects.filter(game=game, status=NotificationStatus.PENDING).exists()
                and not MailJob.objects.filter(game=game, status=MailJobStatus.PENDING).exists())

    wait_for(delivered, what="every mail of the game", timeout=90)
    time.sleep(2)  # a sweep or late task that would send anything twice has had its chance
    rows = list(Notification.objects.filter(game=game))
    assert {r.status for r in rows} <= {NotificationStatus.SENT, NotificationStatus.SKIPPED}, \
        Counter(r.status for r in rows)
    assert {u.pk: Counter(r.kind for r in rows if r.user_id == u.pk and r.kind == NotificationKind.FINISHED)
            for u in users} == {u.pk: Counter({NotificationKind.FINISHED: 1}) for u in users}
    results = {(r.user_id, r.dedupe_key.split(":")[2]) for r in rows if r.kind == NotificationKind.RESULT}
    jobs_done = dict(MailJob.objects.filter(game=game, kind="result").values_list("phase", "done_at"))
    for step in range(2 * ROUNDS - 1):  # the last step's result is in the game-over email
        opened = set(result_mails.resolution_prompt_ids(game_id=game.pk, phase=step))
        asked = {r.user_id for r in rows if r.kind == NotificationKind.PROMPT and r.prompt_id in opened}
        # A step's result job that a busy mail worker ran only after the game ended sends nothing: the
        # game-over email tells each player what happened since their last prompt email (one mail per step,
        # in order; tests/mail/test_jobs.py). Under load that can be any of the last few steps.
        late = jobs_done[step] > game.finished_at
        for u in users:
            got = (u.pk, str(step)) in results
            assert got == (u.pk not in asked) or (late and not got), (step, u.pk, got, late)
    prompt_mails = Counter(r.prompt_id for r in rows if r.kind == NotificationKind.PROMPT)
    assert prompt_mails and max(prompt_mails.values()) == 1
    sent = [r for r in rows if r.status == NotificationStatus.SENT]
    messages = sent_messages(stack.workdir / "sent")
    by_id = Counter(m["Message-ID"] for m in messages)
    assert len(messages) == len(sent)
    assert all(by_id[r.message_id] == 1 for r in sent)

    # Both web nodes served the game, and every node reached the database through PgBouncer.
    for name in WEB_NODES:
        assert "Booting worker" in stack.log(name)
    pgb_log = (stack.pgb_dir / "pgbouncer.log").read_text(errors="replace")
    assert f"db={connection.settings_dict['NAME']}" in pgb_log
