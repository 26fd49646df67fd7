"""Sign-up cannot be used to flood an address with confirmation mails or to mass-create accounts
(limited per client address and per named address, as logins are; API sign-up verifies the address as
the web's does)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail
from django.test import override_settings

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-pass-9"


@override_settings(SIGNUPS_PER_IP=3)
def test_api_sign_ups_from_one_address_past_the_limit_get_a_429_and_create_nothing(api_client):
    for i in range(3):
        r = api_client.post("/api/auth/register/", {"username": f"user{i}", "email": f"u{i}@example.com",
                                                     "password": PASSWORD}, format="json")
        assert r.status_code == 201, r.content
    r = api_client.post("/api/auth/register/", {"username": "user3", "email": "u3@example.com",
                                                 "password": PASSWORD}, format="json")
    assert r.status_code == 429
    assert r.json()["error"] == "throttled"
    assert r["Retry-After"] == str(settings.MAIL_REQUEST_WINDOW_SECONDS)
    assert not User.objects.filter(username="user3").exists()


@override_settings(SIGNUPS_PER_IP=3)
def test_web_sign_ups_share_the_limit_and_answer_a_clear_429_page(client):
    for i in range(4):
        r = client.post("/accounts/signup/", {"username": f"web{i}", "email": f"w{i}@example.com",
                                              "password": PASSWORD, "password2": PASSWORD, "timezone": "UTC"})
        client.logout()
    assert r.status_code == 429 and r["Retry-After"] == str(settings.MAIL_REQUEST_WINDOW_SECONDS)
    assert "Too many sign-ups" in r.content.decode()
    assert not User.objects.filter(username="web3").exists()


@override_settings(MAIL_REQUESTS_PER_EMAIL=2)
def test_many_sign_ups_naming_one_address_mail_it_at_most_the_per_address_limit(api_client):
    for i in range(5):
        r = api_client.post("/api/auth/register/", {"username": f"flood{i}", "email": "victim@example.com",
                                                     "password": PASSWORD}, format="json")
        assert r.status_code == 201
    assert [m.to for m in mail.outbox] == [["victim@example.com"]] * 2
