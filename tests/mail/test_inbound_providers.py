"""The providers' inbound webhooks: junk is a 400, never a 5xx; no secret, no entry; production refuses to
start with a webhook mounted and no ANYMAIL_WEBHOOK_SECRET.

Left alone, a junk body makes most of /mail/inbound/<esp>/inbound/ answer 500, and with no secret set
anymail accepts anyone's posts (with only a warning in the log).
"""

from __future__ import annotations

import base64
import json
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.utils.regex_helper import normalize

from games.mail import checks, inbound_providers
from games.models import Submission
from tests.mail.helpers import latest_prompt_mail, reply_bytes, start_game
from tests.production_process import production_process_run

pytestmark = pytest.mark.django_db

SECRET = "hook:s3cret"
RIGHT = "Basic " + base64.b64encode(SECRET.encode()).decode()
WRONG = "Basic " + base64.b64encode(b"hook:guess").decode()
JUNK = [
    ("", "text/plain"), ("junk", "text/plain"), (b"\xff\xfe\x00garbage", "application/octet-stream"),
    ("{}", "application/json"), ("[]", "application/json"), ('{"a":', "application/json"), ('"x"', "application/json"),
    ("null", "application/json"), ("[" * 5000 + "]" * 5000, "application/json"),
    ('{"RawEmail": 5, "FromFull": [], "ToFull": "x"}', "application/json"),
    ('{"Type": "Notification", "Message": "x"}', "text/plain; charset=UTF-8"),
    ('{"Type": "SubscriptionConfirmation", "SubscribeURL": "http://127.0.0.1:1/"}', "text/plain"),
    ('[{"msys": 1}]', "application/json"), ('{"data": {"x": 1}, "type": "inbound"}', "application/json"),
    ('{"message": null, "data": []}', "application/json"),
    ("a=b&c", "application/x-www-form-urlencoded"), ("mandrill_events=junk", "application/x-www-form-urlencoded"),
    ("email=junk&headers=x", "application/x-www-form-urlencoded"),
    ("body-mime=junk&timestamp=1&token=x&signature=y", "application/x-www-form-urlencoded"),
]
# Settings a few providers need before they look at a request (signed webhooks): with them the junk
# reaches their checks and parsers instead of stopping at a missing setting.
PROVIDER_KEYS = {"MAILGUN_WEBHOOK_SIGNING_KEY": "key-x", "POSTAL_WEBHOOK_KEY": "x" * 40,
                 "RESEND_INBOUND_SECRET": "whsec_" + base64.b64encode(b"x" * 24).decode(),
                 "MAILERSEND_INBOUND_SECRET": "x" * 20, "MAILTRAP_WEBHOOK_SIGNING_KEY": "x" * 20}


def mounted_inbound_urls() -> list[str]:
    """Every URL the URLconf routes under /mail/inbound/ (each variant of a regex route)."""
    def walk(resolvers, prefix):
        for p in resolvers:
            # A regex route's variants: its optional group absent, and present (mailgun/inbound_mime/).
            routes = [fmt % {name: "_mime" for name in params} for fmt, params in normalize(p.pattern.regex.pattern)]
            for route in (r for r in routes if p.pattern.regex.match(r)):
                if isinstance(p, URLResolver):
                    yield from walk(p.url_patterns, prefix + route)
                else:
                    yield prefix + route
    return sorted("/" + u for u in walk(get_resolver().url_patterns, "") if u.startswith("mail/inbound/"))


def test_every_providers_inbound_webhook_is_mounted_and_no_tracking_one():
    """The routes the test below walks are all there are (tests mount every provider)."""
    urls = mounted_inbound_urls()
    assert {u.split("/")[3] for u in urls} == set(inbound_providers.INBOUND_PATTERNS)
    assert all("/inbound" in u.removeprefix("/mail/inbound") for u in urls)


@pytest.mark.parametrize("url", mounted_inbound_urls())
def test_junk_on_every_inbound_webhook_is_refused_without_a_server_error(url, settings):
    """Each junk body, with no, a wrong and the right basic auth: 4xx, never 5xx."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, **PROVIDER_KEYS}
    # A provider that cannot run here (amazon_ses without boto3) answers 404 to everything.
    usable = inbound_providers.esp_view_error(url.split("/")[3]) is None
    client = Client(raise_request_exception=False)
    seen = {}
    for body, content_type in JUNK:
        for auth in (None, WRONG, RIGHT):
            extra = {"HTTP_AUTHORIZATION": auth} if auth else {}
            status = client.post(url, body, content_type=content_type, **extra).status_code
            seen[(body[:20], content_type, auth)] = status
            if auth != RIGHT or not usable:
                assert status == (400 if usable else 404), (url, body[:40], auth, status)
    assert all(status < 500 for status in seen.values()), {k: v for k, v in seen.items() if v >= 500}
    assert not Submission.objects.exists()


def postmark_reply(alice_mail) -> dict:
    return {"RawEmail": reply_bytes(alice_mail, "1").decode(), "FromFull": {"Email": alice_mail.to[0]},
            "ToFull": [{"Email": alice_mail.extra_headers["Reply-To"]}], "Headers": []}


def test_without_a_webhook_secret_every_webhook_request_is_refused(settings):
    """Anymail alone accepts anyone's posts when no secret is set; we refuse them."""
    settings.ANYMAIL = {}
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    payload = json.dumps(postmark_reply(latest_prompt_mail(alice.email)))
    response = Client().post("/mail/inbound/postmark/inbound/", payload, content_type="application/json")
    assert response.status_code == 400
    assert not Submission.objects.exists()


def test_a_failure_of_our_own_processing_is_still_a_5xx_so_the_provider_retries(settings):
    """Only the provider's junk is a 400; a database outage must not drop the mail."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    payload = json.dumps(postmark_reply(latest_prompt_mail(alice.email)))
    with mock.patch("games.mail.inbound.inbound_message_process", side_effect=OperationalError("db down")):
        response = Client(raise_request_exception=False).post(
            "/mail/inbound/postmark/inbound/", payload, content_type="application/json", HTTP_AUTHORIZATION=RIGHT)
    assert response.status_code == 500
    ok = Client().post("/mail/inbound/postmark/inbound/", payload, content_type="application/json",
                       HTTP_AUTHORIZATION=RIGHT)
    assert ok.status_code == 200 and Submission.objects.count() == 1  # the provider's retry is recorded


def test_the_startup_check_names_the_missing_secret(settings):
    """A mounted inbound webhook without its secret is an error in production."""
    settings.DEBUG = False
    settings.MAIL_INBOUND_ESPS = ["postmark"]
    settings.ANYMAIL = {}
    (error,) = checks.inbound_webhook_check()
    assert error.id == "mail.E001" and error.is_serious() and "ANYMAIL_WEBHOOK_SECRET" in error.msg
    settings.MAIL_INBOUND_ESPS = ["postmark", "no-such-provider"]
    assert [e.id for e in checks.inbound_webhook_check()] == ["mail.E001", "mail.E002"]
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.MAIL_INBOUND_ESPS = ["postmark"]
    assert checks.inbound_webhook_check() == []
    settings.MAIL_INBOUND_ESPS, settings.ANYMAIL = [], {}
    assert checks.inbound_webhook_check() == []  # no webhook mounted: nothing to protect


def test_production_refuses_to_start_with_an_inbound_webhook_and_no_secret():
    """DEBUG=false, MAIL_INBOUND_ESPS=postmark, no ANYMAIL_WEBHOOK_SECRET: no start."""
    refused = production_process_run(MAIL_INBOUND_ESPS="postmark")
    assert refused.returncode != 0
    assert "mail.E001" in refused.stderr and "ANYMAIL_WEBHOOK_SECRET" in refused.stderr
    assert production_process_run(MAIL_INBOUND_ESPS="postmark", ANYMAIL_WEBHOOK_SECRET=SECRET).returncode == 0
    assert production_process_run().returncode == 0  # no inbound webhook configured: none mounted, nothing required


def test_production_refuses_to_start_without_the_links_base_url():
    """With DEBUG=false and neither SITE_URL nor MAIL_BASE_URL, every mail would link to the embedded default
    http://127.0.0.1:8000 and nothing would warn. A system check error (mail.E003) stops every
    process (web, worker, manage.py), as the SECRET_KEY rule does; either setting, as an http(s) address, lets
    it start."""
    for unset in ({"SITE_URL": ""}, {"SITE_URL": "", "MAIL_BASE_URL": ""}):
        refused = production_process_run(**unset)
        assert refused.returncode != 0
        assert "mail.E003" in refused.stderr and "SITE_URL" in refused.stderr
    assert production_process_run(SITE_URL="", MAIL_BASE_URL="ftp://games.example.org").returncode != 0
    assert production_process_run(SITE_URL="https://games.example.org").returncode == 0
    assert production_process_run(SITE_URL="", MAIL_BASE_URL="https://mail-links.example.org").returncode == 0


def test_the_embedded_mode_starts_without_a_base_url():
    """DEBUG=true (the newcomer's ./run.sh) needs neither: links point at the local server."""
    assert production_process_run(DEBUG="true", SITE_URL="").returncode == 0
