"""One username rule for web sign-up, API sign-up and the admin: NFKC-normalised, unique
regardless of case, a safe alphabet, bounded length; clear 400s from the API."""

from __future__ import annotations

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_create

pytestmark = pytest.mark.django_db

PASSWORD = "Tea-and-Scones-1887"

# Each breaks the rule (a safe alphabet, a bounded length); accepted, such a name would break the pages' URLs
# (NoReverseMatch) or a mail's headers (BadHeaderError).
BAD_NAMES = ["x/y", "alice\u200b", "<b>bo</b>", "ali\nce", "bob ", "a", "x" * 31, "..", "-dash", "ann@home",
             "joão"]


def _register(username: str, email: str = "new@example.org"):
    return APIClient().post("/api/auth/register/", {"username": username, "email": email, "password": PASSWORD},
                            format="json")


@pytest.mark.parametrize("name", BAD_NAMES)
def test_api_sign_up_refuses_unsafe_usernames_with_a_clear_400(name):
    r = _register(name)
    assert r.status_code == 400, name
    body = r.json()
    assert body["error"] == "invalid" and "username" in body["fields"]
    assert "letters" in body["detail"] or "characters" in body["detail"]
    assert not User.objects.exclude(username="").exists()


@pytest.mark.parametrize("name", ["ALICE", "Alice", "\uff41\uff4c\uff49\uff43\uff45"])  # the last is full-width
def test_a_username_is_taken_regardless_of_case_and_width(name):
    assert _register("alice", "a@example.org").status_code == 201
    r = _register(name, "b@example.org")
    assert r.status_code == 400 and "taken" in r.json()["detail"]
    assert User.objects.count() == 1


def test_good_names_pass_and_are_stored_normalised():
    assert _register("Zoe.B-1_x").status_code == 201
    assert _register("\uff42\uff4f\uff42", "bob@example.org").status_code == 201  # full-width "bob"
    assert set(User.objects.values_list("username", flat=True)) == {"Zoe.B-1_x", "bob"}


def test_web_sign_up_applies_the_same_rule(client):
    user_create(username="alice", email="a@example.org", password=PASSWORD)
    for name, message in [("x/y", b"letters"), ("ALICE", b"That username is taken")]:
        r = client.post("/accounts/signup/", {"username": name, "email": "n@example.org", "password": PASSWORD,
                                              "timezone": "UTC"})
        assert r.status_code == 200 and message in r.content, name
    assert User.objects.count() == 1


def test_the_admin_applies_the_same_rule(client):
    admin = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client.force_login(admin)
    user_create(username="alice", email="a@example.org", password=PASSWORD)
    for name, error in [("x/y", "Usernames are"), ("ALICE", "taken"), ("ali\u200bce", "Usernames are")]:
        r = client.post("/admin/accounts/user/add/", {"username": name, "password1": PASSWORD,
                                                      "password2": PASSWORD, "usable_password": "true"})
        assert r.status_code == 200 and error in str(r.context["adminform"].form.errors["username"]), name
    alice = User.objects.get(username="alice")
    r = client.get(f"/admin/accounts/user/{alice.pk}/change/")
    form = r.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k not in ("groups", "user_permissions",
                                                                                  "password")}
    data.update({"username": "x/y", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00",
                 "vacations-TOTAL_FORMS": "0", "vacations-INITIAL_FORMS": "0",
                 "rating_set-TOTAL_FORMS": "0", "rating_set-INITIAL_FORMS": "0"})
    r = client.post(f"/admin/accounts/user/{alice.pk}/change/", data)
    assert r.status_code == 200
    assert list(r.context["adminform"].form.errors) == ["username"]
    assert User.objects.filter(username="alice").exists()


def test_the_database_refuses_a_second_name_equal_but_for_case():
    user_create(username="alice", email="a@example.org", password=PASSWORD)
    with pytest.raises(IntegrityError):
        User.objects.create(username="ALICE")
