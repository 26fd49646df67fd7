"""Set up Django on a throw-away test database for a benchmark (never touches the real one)."""

import argparse
import os
import sys
import tempfile
from typing import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def production_settings(name: str) -> None:
    """Before Django starts: the production settings (DEBUG off), tasks published to an in-memory broker as a web
    process publishes them to Redis, rather than run in the request; warnings only in the log."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "faltisia.settings"
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SITE_URL", "http://testserver")  # DEBUG=false needs the links' base (mail.E003)
    # DEBUG=false refuses a short or default SECRET_KEY (faltisia/settings.py)
    os.environ.setdefault("SECRET_KEY", f"{name}-" + "x7Kp2mQv9Lw4Rt8Yb3Nc6Hd1Fg5Js0Za" * 2)
    os.environ["CELERY_BROKER_URL"] = "memory://"
    # Production refuses a per-process cache; with no Redis here, one file cache every process shares.
    os.environ.setdefault("CACHE_URL", f"filecache://{tempfile.gettempdir()}/faltisia-bench-cache")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # not a line per resolved step


def setup() -> str:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.test_settings")
    import django

    django.setup()
    from django.db import connection

    return connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)


def teardown(old_name: str) -> None:
    from django.db import connection

    connection.creation.destroy_test_db(old_name, verbosity=0)


def run_on_test_db(run: Callable[[int], None], *, default_games: int) -> None:
    """Parse ``--games``, call ``run(games)`` on a throw-away test database, and always drop it."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=default_games)
    args = ap.parse_args()
    old = setup()
    try:
        run(args.games)
    finally:
        teardown(old)
