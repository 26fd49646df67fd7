"""``ADDR=host:port ./run.sh``: the demo's emails link to that server (issue 10 item 14).

Before the fix the links in emails (settings.MAIL_BASE_URL) always pointed at port 8000, whatever ADDR
said. The test starts ./run.sh for real on a free port with a fresh SQLite database and the console
mail backend, reads the demo game's prompt emails from its output, and stops it.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"one click: (https?://[^/\s]+)/mail/l/")
STARTUP_SECONDS = 240


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def demo_mail_link_bases(tmp_path: Path, **env_extra: str) -> set[str]:
    """Run ./run.sh until the demo game is ready; the base URLs of the one-click links it mailed."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REQUIRE_SERVICES", "MAIL_BASE_URL", "SITE_URL",
                        "EMAIL_BACKEND", "DJANGO_SETTINGS_MODULE")}
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PYTHONUNBUFFERED": "1", **env_extra})
    log = tmp_path / "run.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["bash", str(ROOT / "run.sh")], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline and proc.poll() is None:
            if b"is ready." in log.read_bytes():
                break
            time.sleep(0.5)
        text = log.read_text(errors="replace")
        assert "is ready." in text, text[-3000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # run.sh, its beat child and the dev server: our own group
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)
    bases = set(LINK.findall(text))
    assert bases, "the demo sent no prompt email with one-click links"
    return bases


def test_run_sh_links_the_demo_mails_to_its_own_address(tmp_path):
    """issue 10 item 14: ADDR decides the base URL of the links in emails..."""
    port = free_port()
    assert demo_mail_link_bases(tmp_path, ADDR=f"127.0.0.1:{port}") == {f"http://127.0.0.1:{port}"}


def test_run_sh_keeps_a_given_site_url(tmp_path):
    """issue 10 item 14: ...unless SITE_URL (or MAIL_BASE_URL) is given."""
    port = free_port()
    bases = demo_mail_link_bases(tmp_path, ADDR=f"127.0.0.1:{port}", SITE_URL="https://games.example.org")
    assert bases == {"https://games.example.org"}
