"""A player with nothing to decide gets the result only if they asked for result mails, so a
new account starts with result mails off, the sign-up page says so, and existing choices are left alone."""

from __future__ import annotations

import importlib

from accounts.models import NotificationPreferences
from accounts.services import user_create
from tests.factories import UserFactory


def test_a_new_account_gets_no_result_mails_unless_it_asks(db, client):
    """"gets the result only if they asked": email_results starts off; prompts stay on."""
    r = client.post("/accounts/signup/", {"username": "newbie", "email": "newbie@example.org",
                                          "password": "Long-pass-123", "timezone": "UTC"})
    assert r.status_code in (200, 302), r.content[:500]  # 200: "check your inbox" page
    prefs = NotificationPreferences.objects.get(user__username="newbie")
    assert prefs.email_prompts and not prefs.email_results and not prefs.digest
    # The same through the service the API uses.
    u = user_create(username="apiuser", email="apiuser@example.org", password="Long-pass-123")
    assert not NotificationPreferences.objects.get(user=u).email_results


def test_signup_and_preferences_pages_say_result_mails_are_opt_in(db, client):
    page = client.get("/accounts/signup/").content.decode()
    assert 'id="signup-mail-note"' in page and "only if you ask for it" in page
    user = UserFactory()
    client.force_login(user)
    page = client.get("/accounts/preferences/").content.decode()
    assert "Off unless you turn it on" in page
    assert 'name="email_results"' in page and 'name="email_results" checked' not in page


def test_turning_result_mails_on_is_kept(db, client):
    user = UserFactory()
    client.force_login(user)
    data = {"timezone": "UTC", "email_prompts": "on", "email_results": "on", "reminder_lead_hours": "24"}
    assert client.post("/accounts/preferences/", data).status_code == 302
    assert NotificationPreferences.objects.get(user=user).email_results


def test_the_migration_changes_the_default_only_not_existing_rows():
    """Existing rows keep their value: the migration is a bare AlterField (no RunPython, no data update)."""
    migration = importlib.import_module("accounts.migrations.0006_email_results_off_by_default").Migration
    [op] = migration.operations
    assert type(op).__name__ == "AlterField" and op.name == "email_results" and op.field.default is False
