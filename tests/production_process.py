"""A fresh Python process that loads the production settings and apps, as gunicorn or a Celery worker does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Settings a test passes on purpose when it needs them; the test run's own values stay out.
_NOT_INHERITED = ("DJANGO_SETTINGS_MODULE", "ANYMAIL_WEBHOOK_SECRET", "MAIL_INBOUND_ESPS", "ANYMAIL", "MAIL_BASE_URL")
# Production refuses a per-process cache; where the environment names no Redis (the embedded test run), a cache
# every process on this machine shares lets a production process start.
SHARED_CACHE_URL = "filecache:///tmp/faltisia-production-tests-cache"


def shared_cache_env() -> dict[str, str]:
    """CACHE_URL for a production process started by a test: the environment's, else SHARED_CACHE_URL."""
    return {"CACHE_URL": os.environ.get("CACHE_URL") or SHARED_CACHE_URL}


def production_process_run(code: str = "from faltisia.wsgi import application",
                           **env_extra: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a new process with DEBUG off and a production-grade SECRET_KEY (``env_extra`` on top)."""
    env = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    env.update({"DJANGO_SETTINGS_MODULE": "faltisia.settings", "DEBUG": "false", "ALLOWED_HOSTS": "example.org",
                "SITE_URL": "https://example.org", **shared_cache_env(),
                "SECRET_KEY": "a-long-random-production-key-" + "x7Qz" * 12, **env_extra})
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
