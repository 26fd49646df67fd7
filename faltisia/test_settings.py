"""Test settings: the base settings (still chosen by the environment) plus fast hashing and the tiny
test engine. CI runs these with DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://..."""

import os
import re

# The suite runs in parallel (pytest-xdist, README "Tests"): each worker process gets Redis databases of its own
# for the broker and the cache, because a test clears the cache (FLUSHDB) and a queue must not be drained by
# another worker's test. Set before the base settings read them, and in the environment, so the processes a test
# starts (end-to-end stacks) inherit them. (The database is per worker already: pytest-django's test_<name>_gwN.)
_worker = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
if _worker:
    for _name in ("CELERY_BROKER_URL", "CACHE_URL"):
        _redis = re.fullmatch(r"(redis://[^/]*/)(\d+)", os.environ.get(_name, ""))
        if _redis:
            os.environ[_name] = f"{_redis[1]}{(int(_redis[2]) + 8 * int(_worker[1])) % 16}"

from .settings import *  # noqa: E402,F401,F403
from .settings import GAME_ENGINES  # noqa: E402

# A long test-only key: the end-to-end stacks (DEBUG=false, which refuses short keys) share it.
SECRET_KEY = "test-only-secret-key-" + "x7Kp2mQv9Lw4Rt8Yb3Nc6Hd1Fg5Js0Za" * 2
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
GAME_ENGINES = {**GAME_ENGINES, "tinygame": "tests.fake_engine:TinyEngine"}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
LOGGING = {"version": 1, "disable_existing_loggers": False}
# The test process runs tasks in-process; end-to-end tests start real workers with the base settings.
CELERY_TASK_ALWAYS_EAGER = True
# Every provider's inbound webhook is mounted, so the tests reach each (a test sets the secret it needs).
MAIL_INBOUND_ESPS = ["*"]
# Prompt mails "when away" wait MAIL_PROMPT_DELAY_SECONDS for an answer on the page; the tests
# that are not about that delay have them go at once (tests/accounts/test_presence.py sets it).
MAIL_PROMPT_DELAY_SECONDS = 0
# Blocking GETs poll in the test process (their tests drive a fake clock); tests/games/test_version_events.py
# turns the announcements on against the broker's Redis, and end-to-end stacks use the base settings.
VERSION_EVENTS_REDIS_URL = ""
