"""The other doors into the one inbound service: a real SMTP round trip (aiosmtpd on loopback, a real
smtplib client) and django-anymail's inbound webhook (Postmark's raw-MIME flavour)."""

from __future__ import annotations

import base64
import json
import smtplib
import socket

import pytest
from django.core import mail
from django.test import Client

from games.mail.smtp_server import make_controller
from games.models import Submission
from tests.mail.helpers import crlf, latest_prompt_mail, reply_bytes, start_game

pytestmark = pytest.mark.django_db(transaction=True)  # the SMTP server's thread must see committed rows


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp_server():
    port = free_port()
    controller = make_controller(host="127.0.0.1", port=port)
    controller.start()
    yield port
    controller.stop()


def test_a_reply_over_real_smtp_is_recorded_and_answered(smtp_server):
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    m = latest_prompt_mail(alice.email)
    reply_to = m.extra_headers["Reply-To"]
    with smtplib.SMTP("127.0.0.1", smtp_server, timeout=30) as client:
        refused = client.sendmail(alice.email, [reply_to], crlf(reply_bytes(m, "2")))
    assert refused == {}
    sub = Submission.objects.get()
    assert sub.source == "email" and sub.seat.user == alice
    assert any(x.to == [alice.email] and x.body.startswith("Recorded") for x in mail.outbox)


def test_the_smtp_server_is_not_an_open_relay(smtp_server):
    with smtplib.SMTP("127.0.0.1", smtp_server, timeout=30) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail("x@example.org", ["victim@elsewhere.example"], b"Subject: hi\r\n\r\nspam\r\n")


def test_the_anymail_inbound_webhook_feeds_the_same_service(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret"}
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    m = latest_prompt_mail(alice.email)
    payload = {"RawEmail": reply_bytes(m, "1").decode(), "FromFull": {"Email": alice.email},
               "ToFull": [{"Email": m.extra_headers["Reply-To"]}], "Headers": []}
    client = Client()
    url = "/mail/inbound/postmark/inbound/"
    denied = client.post(url, json.dumps(payload), content_type="application/json")
    assert denied.status_code == 400 and not Submission.objects.exists()  # no basic auth: refused
    auth = "Basic " + base64.b64encode(b"hook:s3cret").decode()
    ok = client.post(url, json.dumps(payload), content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert ok.status_code == 200
    assert Submission.objects.get().source == "email"
    assert any(x.to == [alice.email] and x.body.startswith("Recorded") for x in mail.outbox)
