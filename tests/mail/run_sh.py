"""Start ./run.sh for real (a free port, a fresh SQLite database, mail files in a temporary directory),
let it run, and stop it: its whole output and the mails it wrote.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from email import message_from_bytes, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 240
BANNER_END = "Stop:   Control-C"  # the banner's last line: ./run.sh prints it once the server answers
MAIL_SEPARATOR = b"\n" + b"-" * 79 + b"\n"  # between messages in one file (Django's console/file backends)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class RunShOutput:
    text: str  # everything run.sh and its children printed
    mails: list[str]  # the plain-text bodies of the mails written to EMAIL_FILE_PATH


def run_sh(tmp_path: Path, *, linger: float = 0.0, **env_extra: str) -> RunShOutput:
    """Run ./run.sh until its banner is out, then ``linger`` seconds more; stop it and everything it started."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REQUIRE_SERVICES", "MAIL_BASE_URL", "SITE_URL",
                        "EMAIL_BACKEND", "EMAIL_FILE_PATH", "LOG_LEVEL", "DJANGO_SETTINGS_MODULE")}
    mail_dir = tmp_path / "mail"
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PYTHONUNBUFFERED": "1",
                "EMAIL_FILE_PATH": str(mail_dir),
                # the demo's first prompt mails at once, not after the "when away" delay
                "MAIL_PROMPT_DELAY_SECONDS": "0", **env_extra})
    log = tmp_path / "run.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["bash", str(ROOT / "run.sh")], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline and proc.poll() is None:
            if BANNER_END.encode() in log.read_bytes():
                break
            time.sleep(0.5)
        assert BANNER_END in log.read_text(errors="replace"), log.read_text(errors="replace")[-3000:]
        time.sleep(linger)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # run.sh, its beat child and the dev server: our own group
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)
    return RunShOutput(text=log.read_text(errors="replace"), mails=_mail_bodies(mail_dir))


def _mail_bodies(mail_dir: Path) -> list[str]:
    bodies = []
    for path in sorted(mail_dir.glob("*")) if mail_dir.is_dir() else []:
        for raw in path.read_bytes().split(MAIL_SEPARATOR):
            if raw.strip():
                msg = message_from_bytes(raw.lstrip(b"\n"), policy=policy.default)
                bodies.append(msg.get_body(("plain",)).get_content())
    return bodies
