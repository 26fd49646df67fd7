"""The embedded defaults a newcomer gets with no environment at all, checked in a clean subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys, django
django.setup()
from django.conf import settings
print(json.dumps({
    "db": settings.DATABASES["default"]["ENGINE"],
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "email": settings.EMAIL_BACKEND,
    "user": settings.AUTH_USER_MODEL,
    "faltisia_imported": any(m.startswith("games.engines.faltisia") for m in sys.modules),
}))
"""


def probe(**env):
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE", "GAME_ENGINES")}
    clean.update(env, DJANGO_SETTINGS_MODULE="faltisia.settings")
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_embedded_defaults_need_no_service():
    got = probe()
    assert got["db"].endswith("sqlite3") and got["eager"] is True
    assert got["email"].endswith("console.EmailBackend") and got["user"] == "accounts.User"
    assert got["faltisia_imported"] is False  # the registry imports engines lazily


def test_production_is_chosen_by_the_environment():
    got = probe(DATABASE_URL="postgres://u@db:5432/x", CELERY_BROKER_URL="redis://r:6379/0")
    assert got["db"].endswith("postgresql") and got["eager"] is False
