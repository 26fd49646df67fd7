"""The production-shaped stack for the load benchmark: private redis-server, gunicorn, Celery worker, beat.

(``web_server="granian"``: the same with granian's WSGI server instead of gunicorn, for a comparison.)

Reuses the end-to-end tests' process handling (tests/e2e/stack.py) and changes only what a load run
needs: more web workers, persistent database connections (the production default), the floor endpoint,
and a chosen sweep interval.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.e2e.stack import Stack, _http_ok, wait_for


class BenchStack(Stack):
    # As in production (Procfile): the game worker consumes the default queue only, and a worker of its
    # own serves the email queue, so resolutions never wait behind mail tasks.
    worker_queues = "celery"

    def __init__(self, *, db_url: str, workdir: Path, web_workers: int = 3, web_threads: int = 8,
                 worker_concurrency: int = 2, sweep_interval: float = 1.0, redis_url: str | None = None,
                 mail_worker_concurrency: int = 1, task_timing_dir: Path | None = None,
                 stmt_count_dir: Path | None = None, extra_env: dict | None = None, web_server: str = "gunicorn",
                 granian_backpressure: int | None = None) -> None:
        super().__init__(db_url=db_url, workdir=workdir, worker_pool="prefork", concurrency=worker_concurrency)
        self.mail_worker_concurrency = mail_worker_concurrency
        if mail_worker_concurrency > 0:
            self.supervised["mailworker"] = self.start_mailworker
        else:  # a diagnostic: one worker serving game and mail tasks alike
            self.worker_queues = "celery,mail"
        self.web_workers, self.web_threads = web_workers, web_threads
        # "granian": only for a comparison with gunicorn (docs/benchmarks.md), never production's server
        self.web_server, self.granian_backpressure = web_server, granian_backpressure
        self.redis_url = redis_url  # None: start a private redis-server on a free port
        self.env.update({
            "CONN_MAX_AGE": "60",  # production default; the e2e tests use 0 only to flush their database
            "SWEEP_INTERVAL_SECONDS": str(sweep_interval),
            "RESOLVE_GRACE_SECONDS": "3",
            "BENCHMARK_FLOOR_ENDPOINT": "true",
            "SECRET_KEY": "load-bench-secret-" + "x7Kp2mQv9Lw4Rt8Yb3Nc6Hd1Fg5Js0Za" * 2,  # >= 50 chars
            "LOG_LEVEL": "INFO",  # as in production (Procfile)
        })
        self.env.pop("GAME_ENGINES", None)  # production engines only
        self.env.update(extra_env or {})  # e.g. the beat periods of a scale run
        self.task_timing_dir = task_timing_dir
        if task_timing_dir:  # the workers write each task's timing there (benchmarks/task_timing.py)
            self.env["BENCH_TASK_TIMING_DIR"] = str(task_timing_dir)
        self.stmt_count_dir = stmt_count_dir
        if stmt_count_dir:  # every process counts its SQL statements there (benchmarks/stmt_count.py)
            self.env["BENCH_STMT_COUNT_DIR"] = str(stmt_count_dir)
        if redis_url:
            self.env["CELERY_BROKER_URL"] = redis_url

    def _spawn(self, name: str, args: list[str]):
        include = [m for m, on in (("benchmarks.task_timing", self.task_timing_dir),
                                   ("benchmarks.stmt_count", self.stmt_count_dir)) if on]
        if include and name in ("worker", "mailworker"):
            args = [*args, "--include", ",".join(include)]
        return super()._spawn(name, args)

    def start_redis(self) -> None:
        if not self.redis_url:
            super().start_redis()

    def start_mailworker(self) -> None:
        seen = len(self.log("mailworker"))
        self._spawn("mailworker", [sys.executable, "-m", "celery", "-A", "faltisia", "worker", "--loglevel", "INFO",
                                   "--pool", "prefork", "--concurrency", str(self.mail_worker_concurrency),
                                   "-Q", "mail", "--without-gossip", "--without-mingle",
                                   "-n", f"mail{self.http_port}@%h"])
        wait_for(lambda: "ready." in self.log("mailworker")[seen:], what="celery mail worker", timeout=60)

    def start_worker(self) -> None:
        super().start_worker()
        # start() and the first start only; the supervisor restarts the mail worker alone
        if self.mail_worker_concurrency > 0 and "mailworker" not in self.procs:
            self.start_mailworker()

    def start_web(self) -> None:
        if self.web_server == "granian":
            self._spawn("web", self._granian_args())
        else:
            args = [sys.executable, "-m", "gunicorn", "faltisia.wsgi", "--bind", f"127.0.0.1:{self.http_port}",
                    "--workers", str(self.web_workers), "--timeout", "60", "--keep-alive", "5"]
            if self.web_threads > 1:
                args += ["--threads", str(self.web_threads)]
            if self.stmt_count_dir:
                args += ["--config", "python:benchmarks.gunicorn_bench"]
            self._spawn("web", args)
        wait_for(lambda: _http_ok(self.base_url + "/api/schema/"), what=self.web_server, timeout=90)

    def _granian_args(self) -> list[str]:
        """Granian's WSGI server in gunicorn's shape (workers x threads), one single-threaded Rust runtime a
        worker. ``--backpressure`` caps the connections a worker accepts (not its requests in flight)."""
        app = "benchmarks.granian_bench:application" if self.stmt_count_dir else "faltisia.wsgi:application"
        args = [sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1",
                "--port", str(self.http_port), "--workers", str(self.web_workers),
                "--blocking-threads", str(self.web_threads), "--runtime-mode", "st"]
        if self.granian_backpressure:
            args += ["--backpressure", str(self.granian_backpressure)]
        return args + [app]
