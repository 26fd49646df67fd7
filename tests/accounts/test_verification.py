"""Email verification is a fact of its own, a single-use link, and never a login;
game mail goes only to confirmed addresses."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_create
from accounts.verification import email_verification_token
from games.mail.prompt_mails import prompts_due_without_mail
from games.models import Prompt
from games.services import game_create, game_join
from tests.mail.helpers import mails_to

pytestmark = pytest.mark.django_db

PASSWORD = "Tea-and-Scones-1887"


def _link(message) -> str:
    return re.search(r"https?://\S+(/accounts/verify/\S+/)", message.body).group(1)


def _unverified(name: str, **extra) -> User:
    user = user_create(username=name, email=f"{name}@example.org", password=PASSWORD)
    if extra:
        User.objects.filter(pk=user.pk).update(**extra)
        user.refresh_from_db()
    return user


def _token_status(user: User) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client.get("/api/games/").status_code


def test_a_deactivated_account_stays_deactivated_whatever_link_it_holds(client):
    """Neither a resend nor the link reactivates a banned account, logs it in or revives its token."""
    banned = _unverified("mallory")
    old_link = f"/accounts/verify/{email_verification_token(user=banned)}/"  # made before the ban
    User.objects.filter(pk=banned.pk).update(is_active=False)
    assert _token_status(banned) == 401

    r = client.post("/accounts/verify/resend/", {"email": "mallory@example.org"})
    assert r.status_code == 200 and not mail.outbox  # no fresh link for a banned account
    r = client.get(old_link)
    assert r.status_code == 400
    banned.refresh_from_db()
    assert not banned.is_active and banned.email_verified_at is None
    assert "_auth_user_id" not in client.session
    assert _token_status(banned) == 401


def test_resend_answers_the_same_whether_the_address_is_unknown_banned_confirmed_or_waiting(client):
    """The resend page does not tell which addresses have (usable) accounts."""
    _unverified("waiting")
    _unverified("banned", is_active=False)
    user_create(username="done", email="done@example.org", password=PASSWORD, email_verified=True)
    pages = {}
    for name in ["waiting", "banned", "done", "nobody"]:
        r = client.post("/accounts/verify/resend/", {"email": f"{name}@example.org"})
        pages[name] = (r.status_code, r.content.decode().replace(f"{name}@example.org", "ADDRESS"))
    assert len(set(pages.values())) == 1 and pages["nobody"][0] == 200
    assert [m.to for m in mail.outbox] == [["waiting@example.org"]]


def test_the_link_works_once_and_only_for_the_accounts_current_state(client):
    """The link works once, and no more after a password or address change."""
    user = _unverified("ada")
    used = email_verification_token(user=user)
    assert client.get(f"/accounts/verify/{used}/").status_code == 302
    assert client.get(f"/accounts/verify/{used}/").status_code == 400  # used

    user = _unverified("bea")
    before_password_change = email_verification_token(user=user)
    user.set_password("Another-Long-Pass-77")
    user.save()
    assert client.get(f"/accounts/verify/{before_password_change}/").status_code == 400

    user = _unverified("cyd")
    before_address_change = email_verification_token(user=user)
    User.objects.filter(pk=user.pk).update(email="elsewhere@example.org")
    assert client.get(f"/accounts/verify/{before_address_change}/").status_code == 400
    assert not User.objects.filter(username__in=["bea", "cyd"], email_verified_at__isnull=False).exists()


def test_an_expired_link_is_refused(client, settings):
    """The link has a bounded life (EMAIL_VERIFICATION_MAX_AGE)."""
    settings.EMAIL_VERIFICATION_MAX_AGE = -1
    user = _unverified("dee")
    assert client.get(f"/accounts/verify/{email_verification_token(user=user)}/").status_code == 400


def test_verifying_never_logs_anyone_in_not_even_staff(client):
    """A verification link is no login link: were it one, a single leaked link of a superuser would open the admin."""
    boss = _unverified("boss", is_staff=True, is_superuser=True)
    r = client.get(f"/accounts/verify/{email_verification_token(user=boss)}/")
    assert r.status_code == 302 and r.url == "/accounts/login/"
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still the admin's login page
    boss.refresh_from_db()
    assert boss.email_verified_at is not None


def test_game_mail_goes_only_to_confirmed_addresses():
    """An account whose address is not confirmed gets no game mail."""
    confirmed = user_create(username="ann", email="ann@example.org", password=PASSWORD, email_verified=True)
    unconfirmed = _unverified("ben")
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = game_create(created_by=confirmed, engine="tinygame", players=2, options={"rounds": 1}, clock={},
                           seed=7)
        game_join(game=game, user=unconfirmed)
    assert mails_to("ann@example.org") and not mails_to("ben@example.org")
    # Nor does the sweep that catches prompts whose mail task was lost pick its prompts up.
    Prompt.objects.filter(game=game).update(opened_at=timezone.now() - timedelta(hours=1))
    assert not [p for p in prompts_due_without_mail(now=timezone.now()) if p.seat.user_id == unconfirmed.pk]


def test_api_sign_up_mails_a_confirmation_link_and_no_game_mail_before_it_is_opened(client, api_client):
    """API sign-up verifies the address as the web's does: no game mail before the link is opened."""
    r = api_client.post("/api/auth/register/", {"username": "zoe", "email": "zoe@example.org", "password": PASSWORD},
                 format="json")
    assert r.status_code == 201 and set(r.json()) == {"token"}
    zoe = User.objects.get(username="zoe")
    assert zoe.is_active and zoe.email_verified_at is None
    assert [m.to for m in mail.outbox] == [["zoe@example.org"]]
    assert client.get(_link(mail.outbox[0])).status_code == 302
    zoe.refresh_from_db()
    assert zoe.email_verified_at is not None
