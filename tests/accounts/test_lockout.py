"""Brute-force protection: after LOGIN_FAILURE_LIMIT wrong passwords, per account and per
client address, the token API, the login page and the admin login answer 429 until the cool-off ends;
password-reset mails are limited per address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail

from accounts.models import User
from accounts.services import user_create

pytestmark = pytest.mark.django_db

PASSWORD = "Tea-and-Scones-1887"
WRONG = "not-the-password"


@pytest.fixture
def owner():
    return user_create(username="owner", email="owner@example.org", password=PASSWORD, email_verified=True)


def _token(api_client, username: str, password: str, ip: str = "10.0.0.1"):
    return api_client.post("/api/auth/token/", {"username": username, "password": password}, format="json",
                           REMOTE_ADDR=ip)


def _end_cooloff() -> None:
    from axes.models import AccessAttempt  # here, so that without axes the tests fail rather than not load

    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.first().attempt_time
                                 - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))


def test_the_token_api_locks_an_account_out_with_a_429_and_lets_the_owner_back_after_the_cooloff(api_client, owner):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _token(api_client, "owner", WRONG).status_code == 403  # "wrong username or password", as before
    r = _token(api_client, "owner", WRONG)
    assert r.status_code == 429 and r.json()["error"] == "locked_out" and "15 minutes" in r.json()["detail"]
    assert r["Retry-After"] == str(15 * 60)  # RFC 9110: when to come back
    # Even the right password is refused during the lockout, from another address too (per account) ...
    r = _token(api_client, "owner", PASSWORD, ip="10.9.9.9")
    assert r.status_code == 429 and set(r.json()) == {"error", "detail"}
    # ... and failures during the lockout do not extend it: after the cool-off the owner gets in.
    _end_cooloff()
    r = _token(api_client, "owner", PASSWORD, ip="10.9.9.9")
    assert r.status_code == 200 and r.json()["token"] == owner.auth_token.key


def test_the_token_api_locks_out_an_address_trying_many_accounts(api_client, owner):
    for n in range(settings.AXES_FAILURE_LIMIT):
        _token(api_client, f"guess{n}", WRONG, ip="10.6.6.6")
    assert _token(api_client, "owner", PASSWORD, ip="10.6.6.6").status_code == 429
    assert _token(api_client, "owner", PASSWORD, ip="10.7.7.7").status_code == 200  # the owner elsewhere


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_the_login_pages_lock_out_with_a_clear_429_page(client, path):
    user_create(username="boss", email="boss@example.org", password=PASSWORD, email_verified=True)
    User.objects.filter(username="boss").update(is_staff=True, is_superuser=True)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        r = client.post(path, {"username": "boss", "password": WRONG})
        assert r.status_code == 200
    r = client.post(path, {"username": "boss", "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert r.status_code == 302  # a success clears the count
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        r = client.post(path, {"username": "boss", "password": WRONG})
    assert r.status_code == 429 and b"Too many failed logins" in r.content and b"15 minutes" in r.content
    assert r["Retry-After"] == str(15 * 60)
    r = client.post(path, {"username": "boss", "password": PASSWORD}, REMOTE_ADDR="10.2.2.2")
    assert r.status_code == 429 and "_auth_user_id" not in client.session


def test_password_reset_mails_are_limited_per_address(client, owner):
    for _ in range(settings.MAIL_REQUESTS_PER_EMAIL):
        assert client.post("/accounts/password_reset/", {"email": "owner@example.org"}).status_code == 302
    r = client.post("/accounts/password_reset/", {"email": "OWNER@example.org"})
    assert r.status_code == 429 and b"Too many requests" in r.content
    assert r["Retry-After"] == str(settings.MAIL_REQUEST_WINDOW_SECONDS)
    assert len(mail.outbox) == settings.MAIL_REQUESTS_PER_EMAIL
    # Another address is not held up by it.
    assert client.post("/accounts/password_reset/", {"email": "someone@example.org"}).status_code == 302


def test_password_reset_requests_are_limited_per_client_address(client, settings):
    settings.MAIL_REQUESTS_PER_IP = 4
    for n in range(4):
        assert client.post("/accounts/password_reset/", {"email": f"x{n}@example.org"}).status_code == 302
    assert client.post("/accounts/password_reset/", {"email": "x9@example.org"}).status_code == 429
