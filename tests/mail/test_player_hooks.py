"""A player's webhook for their turns: Discord/Slack JSON, set by the preferences page and by
PUT/DELETE /api/auth/webhook/, sent through the outbox (retried with back-off after a failed delivery,
never twice), signed (X-Faltisia-Signature), and only to https at public addresses: private, loopback,
link-local, IPv4-mapped, decimal-encoded and redirected targets are refused, when set and again at send
time (DNS rebinding)."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.core.cache import cache
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import GamePresence, NotificationPreferences
from accounts.presence import presence_record
from accounts.player_hook_urls import AddressNotAllowed, address_allowed, url_check, player_hook_secret
from games.mail import delivery, player_hook_calls, prompt_mails
from games.mail.models import Channel, Notification, NotificationStatus
from games.mail.send_tasks import RETRY_BACKOFF, send_notification
from games.models import Prompt
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt

pytestmark = pytest.mark.django_db

REFUSED = ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
           "::1", "fe80::1", "fc00::5", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "224.0.0.1",
           "2002:7f00:1::1"]


@pytest.mark.parametrize("address", REFUSED)
def test_private_loopback_link_local_and_mapped_addresses_are_refused(address):
    assert not address_allowed(address)
    with pytest.raises(AddressNotAllowed):
        url_check("https://hooks.example/x", resolve_host=lambda host, port: (address,))


@pytest.mark.parametrize("url", [
    "https://127.0.0.1/x", "https://2130706433/x", "https://0x7f000001/x", "https://017700000001/x", "https://127.1/x",
    "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://localhost/x", "https://169.254.169.254/latest/",
    "http://93.184.216.34/x", "ftp://93.184.216.34/x", "https://user:pw@93.184.216.34/x", "https://", "not a url",
    "https://93.184.216.34/x y", "https://exa\x00mple.com/"])
def test_hostile_webhook_urls_are_refused_with_a_reason(url):
    with pytest.raises(AddressNotAllowed) as e:
        url_check(url)
    assert str(e.value)


def test_a_public_https_address_is_allowed_and_every_resolved_address_must_be():
    target = url_check("https://hooks.example/api/x?y=1", resolve_host=lambda h, p: ("93.184.216.34",))
    assert (target.host, target.port, target.path, target.addresses) == ("hooks.example", 443, "/api/x?y=1",
                                                                       ("93.184.216.34",))
    with pytest.raises(AddressNotAllowed):  # one bad address among good ones is enough to refuse
        url_check("https://hooks.example/", resolve_host=lambda h, p: ("93.184.216.34", "10.0.0.1"))


def test_the_send_time_check_refuses_a_name_that_now_resolves_privately(monkeypatch):
    """DNS rebinding: public when set, private when called: refused, marked failed, never sent."""
    with pytest.raises(player_hook_calls.WebhookRefused):
        player_hook_calls.webhook_post(url="https://rebind.example/x", body=b"{}", user_id=1, delivery_id=1,
                                resolve_host=lambda h, p: ("127.0.0.1",))


# --- the API ------------------------------------------------------------------------------------------------

def api_for(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def test_put_sets_a_public_https_webhook_and_returns_its_secret(monkeypatch):
    monkeypatch.setattr("accounts.player_hook_urls.resolve", lambda host, port: ("93.184.216.34",))
    user = UserFactory()
    r = api_for(user).put("/api/auth/webhook/", {"url": "https://discord.example/api/webhooks/1/abc"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json() == {"url": "https://discord.example/api/webhooks/1/abc", "secret": player_hook_secret(user_id=user.pk)}
    assert NotificationPreferences.objects.get(user=user).webhook_url == "https://discord.example/api/webhooks/1/abc"
    assert api_for(user).delete("/api/auth/webhook/").status_code == 204
    assert NotificationPreferences.objects.get(user=user).webhook_url == ""


@pytest.mark.parametrize("url", ["https://127.0.0.1/x", "https://2130706433/", "http://93.184.216.34/",
                                 "https://[::ffff:10.0.0.1]/", "https://169.254.169.254/"])
def test_put_refuses_a_private_address_with_address_not_allowed_and_changes_nothing(url):
    user = UserFactory()
    r = api_for(user).put("/api/auth/webhook/", {"url": url}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "address_not_allowed" and r.json()["detail"]
    assert not NotificationPreferences.objects.filter(user=user).exclude(webhook_url="").exists()


def test_put_without_a_url_is_invalid_and_anonymous_callers_are_refused():
    user = UserFactory()
    assert api_for(user).put("/api/auth/webhook/", {}, format="json").status_code == 400
    assert APIClient().put("/api/auth/webhook/", {"url": "https://x.example/"}, format="json").status_code in (401, 403)
    assert APIClient().delete("/api/auth/webhook/").status_code in (401, 403)


# --- delivery: a local receiver (private addresses allowed for the test) --------------------------------------

class Receiver:
    """A local HTTP server that answers the given statuses in turn and keeps what it got (``got``: headers and
    body; ``paths``: the request targets)."""

    def __init__(self, statuses=()):
        self.statuses, self.got, self.paths = list(statuses), [], []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append((dict(self.headers), body))
                receiver.paths.append(self.path)
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "http://169.254.169.254/")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        self.url = self.base + "/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver_factory(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    made = []

    def make(statuses=()):
        made.append(Receiver(statuses))
        return made[-1]
    yield make
    for r in made:
        r.close()


def game_with_webhook(url: str):
    cache.clear()
    with TestCase.captureOnCommitCallbacks(execute=False):
        game, (alice, bob) = make_started_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"webhook_url": url})
    ids = list(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True))
    prompt = open_prompt(game, 0)
    with TestCase.captureOnCommitCallbacks(execute=False):  # the send tasks are run by the test
        prompt_mails.prompt_notifications_queue(prompt_ids=ids)
    return game, alice, prompt, Notification.objects.filter(prompt=prompt, channel=Channel.WEBHOOK).first()


def test_a_turn_is_posted_once_as_signed_discord_and_slack_json(receiver_factory):
    receiver = receiver_factory()
    game, alice, prompt, row = game_with_webhook(receiver.url)
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SENT
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SENT  # a duplicate task: no call
    (headers, body), = receiver.got
    payload = json.loads(body)
    assert payload["content"] == payload["text"] and f"#{game.pk}: your turn" in payload["content"]
    assert f"/games/{game.pk}/" in payload["content"] and prompt.text in payload["content"]
    assert payload["faltisia"]["game"] == game.pk and payload["faltisia"]["url"].endswith(f"/games/{game.pk}/")
    expected = "sha256=" + hmac.new(player_hook_secret(user_id=alice.pk).encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Faltisia-Signature"] == expected and headers["Content-Type"] == "application/json"
    assert "play+" not in body.decode()  # no reply address, nothing secret


def test_a_failed_delivery_is_retried_with_back_off_and_delivered_once(receiver_factory, monkeypatch):
    receiver = receiver_factory([503, 500])
    game, alice, prompt, row = game_with_webhook(receiver.url)
    countdowns = []

    def spy_retry(*args, **kwargs):  # the task's back-off; the test runs the next attempt itself
        countdowns.append(kwargs.get("countdown"))
        return RuntimeError("retry later")
    monkeypatch.setattr(send_notification, "retry", spy_retry)
    for attempt in range(2):
        with pytest.raises(RuntimeError):
            send_notification.apply(args=(row.pk,), retries=attempt, throw=True)
        assert Notification.objects.get(pk=row.pk).status == NotificationStatus.PENDING  # kept, nothing lost
    assert send_notification.apply(args=(row.pk,), retries=2).get() == NotificationStatus.SENT
    assert send_notification.apply(args=(row.pk,), retries=0).get() == NotificationStatus.SENT  # never twice
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT and row.attempts == 3
    assert len(receiver.got) == 3 and countdowns == list(RETRY_BACKOFF[:2])
    assert len({h["X-Faltisia-Delivery"] for h, _ in receiver.got}) == 1  # the same delivery id each time


@pytest.mark.parametrize("status", [302, 404])
def test_a_redirect_or_a_refusal_is_final_and_not_followed(receiver_factory, status):
    receiver = receiver_factory([status])
    game, alice, prompt, row = game_with_webhook(receiver.url)
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.FAILED
    assert len(receiver.got) == 1  # the Location (a metadata address) was not followed, nor retried


def test_a_removed_webhook_is_not_called_and_a_private_one_is_refused_in_production(receiver_factory, settings):
    receiver = receiver_factory()
    game, alice, prompt, row = game_with_webhook(receiver.url)
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False  # production rules at send time
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.FAILED
    assert receiver.got == [] and "address_not_allowed" in Notification.objects.get(pk=row.pk).last_error
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    game, alice, prompt, row = game_with_webhook(receiver.url)
    NotificationPreferences.objects.filter(user=alice).update(webhook_url="")
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SKIPPED
    assert receiver.got == []


def test_a_webhook_waits_like_a_prompt_mail_while_the_player_is_on_the_page(receiver_factory, settings):
    settings.MAIL_PROMPT_DELAY_SECONDS = 120
    receiver = receiver_factory()
    game, alice, prompt, row = game_with_webhook(receiver.url)
    assert row is None and Prompt.objects.get(pk=prompt.pk).mail_pending  # not due: nothing made yet
    due = prompt.opened_at + timedelta(seconds=121)
    with TestCase.captureOnCommitCallbacks(execute=False):
        prompt_mails.prompt_notifications_queue(prompt_ids=[prompt.pk], now=due)
    row = Notification.objects.get(prompt=prompt, channel=Channel.WEBHOOK)
    assert row.away_only and row.not_before is None
    presence_record(user_id=alice.pk, game_id=game.pk)  # she came to the page meanwhile: held while there
    assert delivery.notification_send(notification_id=row.pk) == delivery.POSTPONED
    assert receiver.got == []
    cache.clear()
    GamePresence.objects.filter(user=alice, game=game).update(seen_at=timezone.now() - timedelta(minutes=2))
    row.refresh_from_db()  # postponed to a minute after her sign; she has left since
    assert delivery.notification_send(notification_id=row.pk, now=row.not_before + timedelta(seconds=1)) == "sent"
    assert len(receiver.got) == 1
