"""Account pages: sign-up with email verification, log in/out, password reset, API token, preferences,
vacations. Each test names the rule it checks; bad input changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.staticfiles import finders
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import NotificationPreferences, User, Vacation
from accounts.verification import email_verification_token
from tests.factories import UserFactory

SIGNUP = {"username": "maria", "email": "maria@example.org", "password": "Tea-and-Scones-1887",
          "timezone": "Asia/Tokyo"}


def _link(message) -> str:
    return re.search(r"https?://\S+(/accounts/verify/\S+/)", message.body).group(1)


def test_signup_signs_in_and_sends_a_single_use_link_that_confirms_the_address(db, client):
    # Rule: a new account may play at once; its address is confirmed by the link.
    r = client.post("/accounts/signup/", SIGNUP)
    assert r.status_code == 200 and b"Check your email" in r.content and b"no game emails" in r.content
    user = User.objects.get(username="maria")
    assert user.is_active and user.email_verified_at is None and user.timezone == "Asia/Tokyo"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["maria@example.org"]
    r = client.get(_link(mail.outbox[0]))
    assert r.status_code == 302 and r.url == "/"
    user.refresh_from_db()
    assert user.email_verified_at is not None
    # The link works once.
    assert client.get(_link(mail.outbox[0])).status_code == 400


def test_signup_refuses_bad_input_and_creates_nothing(db, client):
    UserFactory(username="taken")
    for data, field in [({**SIGNUP, "username": "taken"}, b"That username is taken"),
                        ({**SIGNUP, "password": "123"}, b"too short"),
                        ({**SIGNUP, "email": "not-an-address"}, b"valid email")]:
        r = client.post("/accounts/signup/", data)
        assert r.status_code == 200 and field in r.content
    assert not User.objects.filter(username="maria").exists() and not mail.outbox


def test_sign_up_prefills_the_browsers_time_zone_on_a_fresh_form_only(db):
    """Sign-up preselects the browser's time zone by a script on a fresh form; a form shown again keeps the choice."""
    fresh = Client().get("/accounts/signup/").content.decode()
    assert "web/timezone_prefill.js" in fresh
    script = finders.find("web/timezone_prefill.js")
    assert script and "resolvedOptions().timeZone" in open(script).read()
    shown_again = Client().post("/accounts/signup/", {"username": "x"}).content.decode()
    assert "web/timezone_prefill.js" not in shown_again  # the person's own choice is kept


def test_a_tampered_or_outdated_verification_link_is_refused(db, client):
    client.post("/accounts/signup/", SIGNUP)
    user = User.objects.get(username="maria")
    token = email_verification_token(user=user)
    r = client.get(f"/accounts/verify/{token[:-2]}xx/")
    assert r.status_code == 400 and b"not valid" in r.content
    user.email = "other@example.org"  # the link is bound to the address it was sent to
    user.save()
    r = client.get(f"/accounts/verify/{token}/")
    assert r.status_code == 400 and b"not valid" in r.content
    assert User.objects.get(pk=user.pk).email_verified_at is None


def test_resend_sends_a_new_link_without_telling_who_exists(db, client):
    client.post("/accounts/signup/", SIGNUP)
    mail.outbox.clear()
    r1 = client.post("/accounts/verify/resend/", {"email": "maria@example.org"})
    r2 = client.post("/accounts/verify/resend/", {"email": "nobody@example.org"})
    assert r1.status_code == r2.status_code == 200 and len(mail.outbox) == 1


def test_login_logout_and_password_reset_use_djangos_views(db, client):
    user = UserFactory(username="lena")
    r = client.post("/accounts/login/", {"username": "lena", "password": "Correct-Horse-42"})
    assert r.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)
    assert client.post("/accounts/logout/").status_code == 302 and "_auth_user_id" not in client.session
    r = client.post("/accounts/password_reset/", {"email": user.email})
    assert r.status_code == 302 and len(mail.outbox) == 1
    path = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    r = client.get(path, follow=True)
    assert r.status_code == 200 and b"Choose a new password" in r.content
    r = client.post(r.redirect_chain[-1][0], {"new_password1": "Brand-New-Pass-55", "new_password2": "Brand-New-Pass-55"})
    assert r.status_code == 302
    assert User.objects.get(pk=user.pk).check_password("Brand-New-Pass-55")


@pytest.mark.parametrize("path", ["/accounts/token/", "/accounts/preferences/", "/accounts/vacations/"])
def test_account_pages_need_a_login(db, client, path):
    r = client.get(path)
    assert r.status_code == 302 and r.url.startswith("/accounts/login/?next=")


def test_api_token_page_shows_and_regenerates_the_token(db, client, api):
    user = UserFactory()
    client.force_login(user)
    old = user.auth_token.key
    assert old.encode() in client.get("/accounts/token/").content
    r = client.post("/accounts/token/")
    assert r.status_code == 302
    new = Token.objects.get(user=user).key
    assert new != old and new.encode() in client.get("/accounts/token/").content
    # The old token stops working at once; the new one works.
    api.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert api.get("/api/games/").status_code in (401, 403)
    api.credentials(HTTP_AUTHORIZATION=f"Token {new}")
    assert api.get("/api/games/").status_code == 200


def test_preferences_save_and_bad_input_changes_nothing(db, client):
    user = UserFactory()
    client.force_login(user)
    assert client.get("/accounts/preferences/").status_code == 200
    data = {"timezone": "Europe/Paris", "email_prompts": "on", "digest": "on", "reminder_lead_hours": "2, 48"}
    assert client.post("/accounts/preferences/", data).status_code == 302
    prefs = NotificationPreferences.objects.get(user=user)
    assert (prefs.email_prompts, prefs.email_results, prefs.digest) == (True, False, True)
    assert prefs.reminder_lead_hours == [48, 2] and User.objects.get(pk=user.pk).timezone == "Europe/Paris"
    r = client.post("/accounts/preferences/", {**data, "timezone": "Mars/Olympus", "reminder_lead_hours": "soon"})
    assert r.status_code == 200 and b"not a whole number" in r.content
    assert User.objects.get(pk=user.pk).timezone == "Europe/Paris"
    assert NotificationPreferences.objects.get(user=user).reminder_lead_hours == [48, 2]


def test_vacations_add_list_and_cancel_only_your_own(db, client):
    user, other = UserFactory(timezone="UTC"), UserFactory()
    client.force_login(user)
    start = timezone.now() + timedelta(days=2)
    fmt = "%Y-%m-%dT%H:%M"
    r = client.post("/accounts/vacations/", {"starts": start.strftime(fmt),
                                             "ends": (start + timedelta(days=5)).strftime(fmt)})
    assert r.status_code == 302
    vacation = Vacation.objects.get(user=user)
    page = client.get("/accounts/vacations/").content.decode()
    assert f"/accounts/vacations/{vacation.pk}/cancel/" in page and vacation.starts.strftime("%d %b %Y").lstrip("0") in page
    bad = client.post("/accounts/vacations/", {"starts": start.strftime(fmt), "ends": start.strftime(fmt)})
    assert bad.status_code == 200 and b"must end after it starts" in bad.content
    assert Vacation.objects.filter(user=user).count() == 1
    theirs = Vacation.objects.create(user=other, starts=start, ends=start + timedelta(days=1))
    client.post(f"/accounts/vacations/{theirs.pk}/cancel/")
    assert Vacation.objects.filter(pk=theirs.pk).exists()
    assert client.get(f"/accounts/vacations/{vacation.pk}/cancel/").status_code == 405  # POST only
    client.post(f"/accounts/vacations/{vacation.pk}/cancel/")
    assert not Vacation.objects.filter(pk=vacation.pk).exists()
