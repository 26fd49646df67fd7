"""Production counts every limit in one cache shared by its processes: with a per-process cache each gunicorn
process kept its own chat, sign-up and mail-request counters, so 3 workers let 30 messages a minute through
where the limit is 10. Without CACHE_URL production takes the broker's Redis (its own database number), and
with no Redis at all, or a per-process cache named, it refuses to start, as it does without a SECRET_KEY."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.accounts.test_secret_key import ROOT, STRONG_KEY

SHOW = "import django; django.setup(); from django.conf import settings as s; print(json.dumps(s.CACHES['default']))"


def _start(code: str, **env: str) -> subprocess.CompletedProcess:
    """The settings in a fresh interpreter, as gunicorn or manage.py loads them (no CACHE_URL unless given)."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "CACHE_URL", "CELERY_BROKER_URL")}
    clean.update({"DJANGO_SETTINGS_MODULE": "faltisia.settings", "ALLOWED_HOSTS": "example.org",
                  "SECRET_KEY": STRONG_KEY, "SITE_URL": "https://example.org", "DEBUG": "false", **env})
    return subprocess.run([sys.executable, "-c", "import json; " + code], cwd=ROOT, env=clean, capture_output=True,
                          text=True, timeout=60)


def _cache(**env: str) -> dict:
    result = _start(SHOW, **env)
    assert result.returncode == 0, result.stderr[-500:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("broker,cache", [("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1"),
                                          ("redis://:pw@redis.internal:6380/5", "redis://:pw@redis.internal:6380/6"),
                                          ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379/1"),
                                          ("rediss://r.example:6379/15", "rediss://r.example:6379/0")])
def test_production_without_cache_url_shares_the_brokers_redis_in_a_database_of_its_own(broker, cache):
    found = _cache(CELERY_BROKER_URL=broker)
    assert found["BACKEND"] == "django.core.cache.backends.redis.RedisCache" and found["LOCATION"] == cache


@pytest.mark.parametrize("env", [{}, {"CELERY_BROKER_URL": "memory://"}, {"CACHE_URL": "locmemcache://"},
                                 {"CACHE_URL": "dummycache://", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}])
def test_production_refuses_to_start_with_a_per_process_cache(env):
    result = _start(SHOW, **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "CACHE_URL must name a cache shared" in result.stderr


def test_a_named_cache_wins_and_the_embedded_mode_keeps_local_memory():
    assert _cache(CACHE_URL="redis://cache.internal:6379/2")["LOCATION"] == "redis://cache.internal:6379/2"
    assert _cache(DEBUG="true")["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


COUNT = ("import django; django.setup(); from accounts.throttle import throttle_hit; "
         "print(sum(throttle_hit(scope='chat:minute', key='{key}', limit=10, window_seconds=60) for _ in range(10)))")


@pytest.mark.redis
def test_three_processes_on_the_default_share_one_limit():
    """Three production processes, each posting 10 times for one user against a limit of 10: 10 get through."""
    key = f"shared-limit-{os.getpid()}"
    broker = os.environ["CELERY_BROKER_URL"]
    allowed = [int(_start(COUNT.format(key=key), CELERY_BROKER_URL=broker).stdout.strip().splitlines()[-1])
               for _ in range(3)]
    assert sum(allowed) == 10, allowed
