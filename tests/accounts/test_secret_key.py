"""Production refuses to start with the published default SECRET_KEY or a short one: either lets anyone forge
sessions, reset links and verification links."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.production_process import shared_cache_env

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3y-" + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"  # 50 characters


def _start(**env: str) -> subprocess.CompletedProcess:
    """Load the production settings module in a fresh interpreter, as gunicorn or manage.py would."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")}
    clean.update(DJANGO_SETTINGS_MODULE="faltisia.settings", ALLOWED_HOSTS="example.org", SITE_URL="https://example.org",
                 **shared_cache_env())
    clean.update(env)
    return subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("key", [None, "dev-only-insecure-key-change-me-in-production", "short-but-secret",
                                 "a" * 60])
def test_production_refuses_a_default_short_or_trivial_secret_key(key):
    env = {"DEBUG": "false"} | ({"SECRET_KEY": key} if key is not None else {})
    result = _start(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY must be set" in result.stderr
    if key:
        assert key not in result.stderr  # the message never echoes the key


def test_production_starts_with_a_strong_key_and_the_embedded_mode_with_none():
    assert _start(DEBUG="false", SECRET_KEY=STRONG_KEY).returncode == 0
    assert _start().returncode == 0  # DEBUG defaults to true: the newcomer's embedded server
