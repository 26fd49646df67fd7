"""HTTPS in production (docs/security.md): one switch, HTTPS=true, marks the session and CSRF cookies Secure,
redirects plain HTTP and sends HSTS; a proxy's X-Forwarded-Proto is believed only with a proxy declared
(TRUSTED_PROXY_COUNT), and production without HTTPS warns at start (accounts.W001)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.test import Client, override_settings

from tests.accounts.test_secret_key import ROOT, STRONG_KEY
from tests.factories import UserFactory
from tests.production_process import shared_cache_env

SHOW = ("import django; django.setup(); from django.conf import settings as s; import json; "
        "print(json.dumps([s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER]))")


def _run(args: list[str], **env: str) -> str:
    """Production settings (DEBUG=false unless given) in a fresh interpreter, as gunicorn or manage.py loads them."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEBUG", "HTTPS", "TRUSTED_PROXY_COUNT", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    clean.update(DJANGO_SETTINGS_MODULE="faltisia.settings", ALLOWED_HOSTS="example.org", SECRET_KEY=STRONG_KEY,
                 SITE_URL="https://example.org", **shared_cache_env())
    clean.update({"DEBUG": "false", **env})
    out = subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)
    return out.stdout + out.stderr


def _settings(**env: str) -> list:
    return json.loads(_run(["-c", SHOW], **env).strip().splitlines()[-1])


def _check_output(**env: str) -> str:
    return _run(["manage.py", "check"], **env)


def test_https_true_turns_on_secure_cookies_redirects_and_hsts():
    assert _settings(HTTPS="true") == [True, True, True, 365 * 24 * 3600, None]
    # Without a declared proxy a client's own X-Forwarded-Proto is not believed; with one it is.
    assert _settings(HTTPS="true", TRUSTED_PROXY_COUNT="1")[4] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_the_default_is_plain_http_and_production_warns_about_it():
    assert _settings() == [False, False, False, 0, None]
    assert "accounts.W001" in _check_output(DEBUG="false")
    assert "accounts.W001" not in _check_output(DEBUG="false", HTTPS="true")
    assert "accounts.W001" not in _check_output(DEBUG="true")  # the embedded server on a laptop


HTTPS_ON = dict(SECURE_SSL_REDIRECT=True, SESSION_COOKIE_SECURE=True, CSRF_COOKIE_SECURE=True,
                SECURE_HSTS_SECONDS=31536000, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))


@pytest.mark.django_db
@override_settings(**HTTPS_ON)
def test_with_https_plain_http_is_redirected_and_the_session_cookie_never_travels_in_the_clear():
    client = Client()
    answer = client.get("/accounts/login/")
    assert answer.status_code == 301 and answer["Location"] == "https://testserver/accounts/login/"
    # Over HTTPS (here: as the proxy says) the page is served with HSTS, and the login's cookie is Secure.
    user = UserFactory(username="sam")
    user.set_password("Tea-and-Scones-1887")
    user.save()
    page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert page.status_code == 200 and page["Strict-Transport-Security"].startswith("max-age=31536000")
    logged_in = client.post("/accounts/login/", {"username": "sam", "password": "Tea-and-Scones-1887"},
                            HTTP_X_FORWARDED_PROTO="https")
    assert logged_in.status_code == 302
    assert logged_in.cookies["sessionid"]["secure"] is True
    # An API call over plain HTTP is redirected too, before any token is read.
    assert client.get("/api/games/", HTTP_AUTHORIZATION="Token nope").status_code == 301
