"""A player's turn webhook: its URL is normalised when set (IDNA host, percent-encoded path and query),
so a non-ASCII URL is sent as the player meant it or refused clearly, never an exception at send time;
and its signing secret can be rotated (a per-player nonce in the derivation), through the API and the
preferences page, without changing the secret of anyone who never rotated."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from django.core.cache import cache
from django.test import Client, TestCase
from rest_framework.test import APIClient

from accounts.models import NotificationPreferences
from accounts.player_hook_urls import AddressNotAllowed, player_hook_secret, url_check
from games.mail import delivery, player_hook_calls, prompt_mails
from games.mail.models import Channel, Notification, NotificationStatus
from games.mail.send_tasks import send_notification
from games.models import Prompt
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt
from tests.mail.test_player_hooks import Receiver

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.216.34"


def api_for(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def resolved(monkeypatch):
    """Every host resolves to a public address; the hosts asked for are kept."""
    asked = []

    def resolve(host, port):
        asked.append(host)
        return (PUBLIC,)
    monkeypatch.setattr("accounts.player_hook_urls.resolve", resolve)
    return asked


# --- normalising the URL ---------------------------------------------------------------------------------

@pytest.mark.parametrize("raw,normalised", [
    ("https://1.1.1.1/é?q=ü", "https://1.1.1.1/%C3%A9?q=%C3%BC"),
    ("https://bücher.example/x", "https://xn--bcher-kva.example/x"),
    ("https://BÜCHER.example:8443/ä/b", "https://xn--bcher-kva.example:8443/%C3%A4/b"),
    ("https://hooks.example/a%2Fb%c3%A9é", "https://hooks.example/a%2Fb%c3%A9%C3%A9"),  # escapes kept as written
    ("https://hooks.example/a:b@c!$&'()*+,;=~-._/?x=1&y=[2]", "https://hooks.example/a:b@c!$&'()*+,;=~-._/?x=1&y=[2]"),
    ("https://hooks.example/100%/x", "https://hooks.example/100%25/x"),  # a stray % is a literal one
    ("https://hooks.example/a\"<>`{|}\\^", "https://hooks.example/a%22%3C%3E%60%7B%7C%7D%5C%5E"),
    ("https://discord.example/api/webhooks/1/abc", "https://discord.example/api/webhooks/1/abc"),
    ("https://[2606:4700::1111]/é", "https://[2606:4700::1111]/%C3%A9"),
])
def test_the_checked_url_is_normalised(resolved, raw, normalised):
    target = url_check(raw)
    assert target.url == normalised
    assert target.url.isascii() and target.path.isascii() and target.host.isascii()


def test_the_idna_host_is_what_is_resolved_and_the_address_rules_still_apply(monkeypatch):
    asked = []
    monkeypatch.setattr("accounts.player_hook_urls.resolve", lambda host, port: asked.append(host) or ("10.0.0.1",))
    with pytest.raises(AddressNotAllowed, match="not public"):
        url_check("https://bücher.example/x")
    assert asked == ["xn--bcher-kva.example"]


# Each is refused with AddressNotAllowed (a reason for the player), never another exception.
UNUSABLE = {
    "label over 63": "https://" + "ü" * 64 + ".example/x",
    "empty label": "https://bü..example/x",
    "disallowed code point": "https://b\u2615cher.example/x",
    "host normalising to a slash": "https://a\uff0fb.example/x",
    "lone surrogate in the path": "https://hooks.example/\ud800",
    "bidi override": "https://hooks.example/\u202egnp.exe",
    "no-break space": "https://hooks.example/a\u00a0b",
    "too long once encoded": "https://hooks.example/" + "é" * 200,
}


@pytest.mark.parametrize("case", UNUSABLE)
def test_an_unusable_url_is_refused_with_a_reason(resolved, case):
    with pytest.raises(AddressNotAllowed) as e:
        url_check(UNUSABLE[case])
    assert str(e.value)


def test_put_stores_and_returns_the_normalised_url(resolved):
    user = UserFactory()
    r = api_for(user).put("/api/auth/webhook/", {"url": "https://1.1.1.1/é?q=ü"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["url"] == "https://1.1.1.1/%C3%A9?q=%C3%BC"
    assert NotificationPreferences.objects.get(user=user).webhook_url == "https://1.1.1.1/%C3%A9?q=%C3%BC"
    r = api_for(user).put("/api/auth/webhook/", {"url": "https://bücher.example/x"}, format="json")
    assert r.status_code == 200 and r.json()["url"] == "https://xn--bcher-kva.example/x"
    assert NotificationPreferences.objects.get(user=user).webhook_url == "https://xn--bcher-kva.example/x"
    assert resolved[-1] == "xn--bcher-kva.example"


def test_put_refuses_an_unencodable_host_clearly_and_changes_nothing(resolved):
    user = UserFactory()
    r = api_for(user).put("/api/auth/webhook/", {"url": UNUSABLE["label over 63"]}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "address_not_allowed", r.content
    assert "host" in r.json()["detail"]
    assert not NotificationPreferences.objects.filter(user=user).exclude(webhook_url="").exists()
    assert resolved == []  # refused before any lookup


def test_the_preferences_page_stores_and_shows_the_normalised_url(resolved):
    user = UserFactory()
    client = Client()
    client.force_login(user)
    data = {"timezone": "UTC", "email_prompts": "on", "reminder_lead_hours": "2", "prompt_mail": "away",
            "webhook_url": "https://bücher.example/é?q=ü"}
    assert client.post("/accounts/preferences/", data).status_code == 302
    stored = "https://xn--bcher-kva.example/%C3%A9?q=%C3%BC"
    assert NotificationPreferences.objects.get(user=user).webhook_url == stored
    assert stored in client.get("/accounts/preferences/").content.decode()
    r = client.post("/accounts/preferences/", {**data, "webhook_url": UNUSABLE["label over 63"]})
    assert r.status_code == 200 and "This address is not allowed" in r.content.decode()
    assert NotificationPreferences.objects.get(user=user).webhook_url == stored


# --- a legacy row stored before the URL was normalised ------------------------------------------------------

@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    r = Receiver()
    yield r
    r.close()


def webhook_row(url: str):
    """A turn notification of kind webhook for a player whose stored URL is ``url`` (written directly,
    as a row saved before URLs were normalised)."""
    cache.clear()
    with TestCase.captureOnCommitCallbacks(execute=False):
        game, (alice, bob) = make_started_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"webhook_url": url})
    ids = list(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True))
    prompt = open_prompt(game, 0)
    with TestCase.captureOnCommitCallbacks(execute=False):
        prompt_mails.prompt_notifications_queue(prompt_ids=ids)
    return alice, Notification.objects.get(prompt=prompt, channel=Channel.WEBHOOK)


def test_a_legacy_non_ascii_path_is_sent_percent_encoded(receiver):
    alice, row = webhook_row(receiver.base + "/hé?q=ü")
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SENT
    (headers, body), = receiver.got
    path, = receiver.paths
    assert path == "/h%C3%A9?q=%C3%BC"


@pytest.mark.parametrize("case", ["label over 63", "disallowed code point", "host normalising to a slash"])
def test_a_legacy_unusable_url_fails_at_once_without_retries(receiver, monkeypatch, case):
    alice, row = webhook_row(UNUSABLE[case])
    retries = []
    monkeypatch.setattr(send_notification, "retry", lambda *a, **k: retries.append(k) or RuntimeError("retry"))
    assert send_notification.apply(args=(row.pk,), retries=0, throw=True).get() == NotificationStatus.FAILED
    row.refresh_from_db()
    assert (row.status, row.attempts, retries, receiver.got) == (NotificationStatus.FAILED, 1, [], [])
    assert row.last_error.startswith("address_not_allowed")


def test_webhook_post_refuses_a_legacy_unusable_url_with_webhook_refused():
    for url in UNUSABLE.values():
        with pytest.raises(player_hook_calls.WebhookRefused):
            player_hook_calls.webhook_post(url=url, body=b"{}", user_id=1, delivery_id=1,
                                    resolve_host=lambda h, p: (PUBLIC,))


# --- the signing secret and its rotation ---------------------------------------------------------------------

def old_formula(user_id: int, secret_key: str) -> str:
    """The derivation before rotation existed: a player who never rotates keeps exactly this secret."""
    return hmac.new(secret_key.encode(), f"webhook-secret:{user_id}".encode(), hashlib.sha256).hexdigest()[:40]


def test_an_empty_nonce_derives_the_secret_as_before(settings):
    user = UserFactory()
    NotificationPreferences.objects.filter(user=user).update(hook_secret_nonce="")
    assert player_hook_secret(user_id=user.pk) == old_formula(user.pk, settings.SECRET_KEY)
    NotificationPreferences.objects.filter(user=user).delete()  # no preferences row at all: the same
    assert player_hook_secret(user_id=user.pk) == old_formula(user.pk, settings.SECRET_KEY)


def test_the_api_rotates_the_callers_secret_only(resolved, settings):
    alice, bob = UserFactory(), UserFactory()
    api_for(alice).put("/api/auth/webhook/", {"url": "https://hooks.example/a"}, format="json")
    old, bobs = player_hook_secret(user_id=alice.pk), player_hook_secret(user_id=bob.pk)
    r = api_for(alice).post("/api/auth/webhook/", {"rotate_secret": True}, format="json")
    assert r.status_code == 200, r.content
    new = r.json()["secret"]
    assert r.json() == {"url": "https://hooks.example/a", "secret": new}
    assert new != old and new == player_hook_secret(user_id=alice.pk) and len(new) == 40
    assert player_hook_secret(user_id=bob.pk) == bobs == old_formula(bob.pk, settings.SECRET_KEY)
    # PUT answers the current secret, the rotated one
    r = api_for(alice).put("/api/auth/webhook/", {"url": "https://hooks.example/b"}, format="json")
    assert r.json()["secret"] == new
    again = api_for(alice).post("/api/auth/webhook/", {"rotate_secret": True}, format="json").json()["secret"]
    assert again not in (old, new)


@pytest.mark.parametrize("body", [{}, {"rotate_secret": False}, {"rotate_secret": "maybe"}])
def test_a_post_without_rotate_secret_true_is_a_400_and_changes_nothing(body):
    user = UserFactory()
    before = player_hook_secret(user_id=user.pk)
    r = api_for(user).post("/api/auth/webhook/", body, format="json")
    assert r.status_code == 400, r.content
    assert player_hook_secret(user_id=user.pk) == before


def test_an_anonymous_caller_cannot_rotate():
    user = UserFactory()
    before = player_hook_secret(user_id=user.pk)
    assert APIClient().post("/api/auth/webhook/", {"rotate_secret": True}, format="json").status_code in (401, 403)
    assert player_hook_secret(user_id=user.pk) == before
    r = Client().post("/accounts/preferences/", {"rotate_hook_secret": "1"})
    assert r.status_code == 302 and "/login" in r["Location"]
    assert player_hook_secret(user_id=user.pk) == before


def test_rotating_changes_the_signature_of_the_next_call_and_the_old_secret_no_longer_verifies(receiver):
    alice = UserFactory()
    url = receiver.base + "/hook"
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"webhook_url": url})
    old = player_hook_secret(user_id=alice.pk)
    body = b'{"content": "your turn"}'
    player_hook_calls.webhook_post(url=url, body=body, user_id=alice.pk, delivery_id=7)
    new = api_for(alice).post("/api/auth/webhook/", {"rotate_secret": True}, format="json").json()["secret"]
    player_hook_calls.webhook_post(url=url, body=body, user_id=alice.pk, delivery_id=7)
    (before, _), (after, _) = receiver.got

    def signed(secret):
        return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert before["X-Faltisia-Signature"] == signed(old)
    assert after["X-Faltisia-Signature"] == signed(new) != before["X-Faltisia-Signature"]
    assert not hmac.compare_digest(after["X-Faltisia-Signature"], signed(old))


def test_the_preferences_page_rotates_the_secret_and_shows_the_new_one(resolved):
    alice, bob = UserFactory(), UserFactory()
    for u in (alice, bob):
        NotificationPreferences.objects.update_or_create(user=u, defaults={"webhook_url": "https://hooks.example/"})
    old, bobs = player_hook_secret(user_id=alice.pk), player_hook_secret(user_id=bob.pk)
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/preferences/").content.decode()
    assert old in page and 'name="rotate_hook_secret"' in page
    r = client.post("/accounts/preferences/", {"rotate_hook_secret": "1"}, follow=True)
    new = player_hook_secret(user_id=alice.pk)
    page = r.content.decode()
    assert new != old and new in page and old not in page and "old one no longer" in page
    assert player_hook_secret(user_id=bob.pk) == bobs
    assert NotificationPreferences.objects.get(user=alice).webhook_url == "https://hooks.example/"  # nothing else
