"""Start the production-shaped stack as subprocesses: a private redis-server, gunicorn, Celery worker, beat.

The redis-server is private (its own port) so a test may stop and restart it without touching the
machine's shared Redis. Every process uses the base settings with the test database's URL.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    user = settings_dict.get("USER") or "postgres"
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else f"{user}@"
    return f"postgres://{auth}{settings_dict.get('HOST') or '127.0.0.1'}:{settings_dict.get('PORT') or 5432}" \
           f"/{settings_dict['NAME']}"


class Stack:
    # Queues the one worker consumes: the default queue and the email queue (faltisia/settings.py
    # CELERY_TASK_ROUTES); production runs a separate worker for "mail" (Procfile), the tests keep one.
    worker_queues = "celery,mail"

    def __init__(self, *, db_url: str, workdir: Path, worker_pool: str = "prefork", concurrency: int = 2,
                 env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.redis_port = free_port()
        self.http_port = free_port()
        self.worker_pool, self.concurrency = worker_pool, concurrency
        self.procs: dict[str, subprocess.Popen] = {}
        self.restarts = {"worker": 0, "beat": 0}
        self.supervised = {"worker": self.start_worker, "beat": self.start_beat}
        self._stopping = False
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "faltisia.settings",
            "DATABASE_URL": db_url,
            "CONN_MAX_AGE": "0",  # every request/task closes its connection, so the test can flush the DB
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "GAME_ENGINES": "tinygame=tests.fake_engine:TinyEngine",
            "SWEEP_INTERVAL_SECONDS": "1",
            "RESOLVE_GRACE_SECONDS": "2",
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SITE_URL": f"http://127.0.0.1:{self.http_port}",  # DEBUG=false needs the links' base (mail.E003)
            # DEBUG=false refuses a key under 50 characters (faltisia/settings.py).
            "SECRET_KEY": "e2e-secret-" + "x7Kp2mQv9Lw4Rt8Yb3Nc6Hd1Fg5Js0Za" * 2,
            "PYTHONPATH": str(ROOT),
            "LOG_LEVEL": "INFO",
            **(env or {}),
        }

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.workdir / f"{name}.log", "ab")
        proc = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start_redis(self) -> None:
        self._spawn("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no"])
        wait_for(lambda: _tcp_open(self.redis_port), what="redis")

    def start_web(self) -> None:
        self._spawn("web", [sys.executable, "-m", "gunicorn", "faltisia.wsgi", "--bind",
                            f"127.0.0.1:{self.http_port}", "--workers", "2", "--threads", "4",
                            "--timeout", "60"])
        wait_for(lambda: _http_ok(self.base_url + "/api/schema/"), what="gunicorn", timeout=60)

    def start_worker(self) -> None:
        seen = len(self.log("worker"))  # the log is appended to across restarts
        self._spawn("worker", [sys.executable, "-m", "celery", "-A", "faltisia", "worker", "--loglevel", "INFO",
                               "--pool", self.worker_pool, "--concurrency", str(self.concurrency),
                               "-Q", self.worker_queues, "--without-gossip", "--without-mingle", "-n", f"e2e{self.http_port}@%h"])
        wait_for(lambda: "ready." in self.log("worker")[seen:], what="celery worker", timeout=60)

    def start_beat(self) -> None:
        self._spawn("beat", [sys.executable, "-m", "celery", "-A", "faltisia", "beat", "--loglevel", "INFO",
                             "--schedule", str(self.workdir / "beat-schedule")])

    def start(self) -> "Stack":
        self.start_redis()
        self.start_web()
        self.start_worker()
        self.start_beat()
        self._supervisor = threading.Thread(target=self._supervise, daemon=True)
        self._supervisor.start()
        return self

    def _supervise(self) -> None:
        """Restart a worker or beat that exits on its own, as a process manager does in production
        (systemd Restart=always, a Procfile platform): Celery's worker can exit with "Unrecoverable
        error" when Redis vanishes while it restores unacknowledged messages."""
        while not self._stopping:
            for name, start in list(self.supervised.items()):
                proc = self.procs.get(name)
                if proc is not None and proc.poll() is not None and not self._stopping:
                    self.restarts[name] = self.restarts.get(name, 0) + 1
                    try:
                        start()
                    except TimeoutError:
                        pass  # broker still down: try again on the next round
            time.sleep(0.5)

    def stop(self, name: str, sig: int = signal.SIGTERM) -> None:
        """Stop a process on purpose (the supervisor leaves it stopped until started again)."""
        proc = self.procs.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)  # the whole group: a prefork worker's children too
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def stop_all(self) -> None:
        self._stopping = True
        for name in ["beat", "mailworker", "worker", "web", "redis"]:
            self.stop(name)


def _tcp_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except Exception:
        return False


def wait_for(check, *, what: str, timeout: float = 30, interval: float = 0.2) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return
        time.sleep(interval)
    raise TimeoutError(f"{what} not ready after {timeout}s")
