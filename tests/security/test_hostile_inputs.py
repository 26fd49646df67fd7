"""Hostile inputs, family by family, each asserting no 5xx, and that a refused
request changed nothing (no account, game, seat, pick, tournament, vacation or inbound mail).

One test case per input, so a failure names the input. ``test_count_of_hostile_inputs`` prints how many
are tried. Families, with the failure each guards against:
- huge numbers in path ids (OverflowError in the hand-written SQL on SQLite) and in bodies
  (``"seed": 2**63``), NaN and Infinity as JSON literals;
- every clock field with every kind of garbage (an overflow that stops every deadline);
- deep JSON (RecursionError on /moves/), top level and inside a field, API and web;
- NUL bytes in every string field of every API body and web form, and in headers (a
  ``\\u0000`` in a clock value on PostgreSQL);
- overlong and junk headers and query parameters (an Idempotency-Key over 100 characters: a DataError);
- wrong content types and undecodable bodies;
- junk bodies on every anymail webhook under /mail/inbound/;
- garbled raw mails to the inbound service, an unknown charset among them (a reply dropped without a word);
- forged and tampered signed links: one-click picks, unsubscribe, invites, email verification;
- unsafe usernames through the API and the web sign-up (400 / the form again, no account);
- table talk: huge text, text over 2,000 characters, NUL and other control characters,
  bidirectional overrides, markup (stored as typed, escaped when shown), garbage recipients and ``since``,
  1,000 messages a minute, and the same by email reply.
"""

from __future__ import annotations

import base64
import json

import pytest
from django.core import mail, signing
from django.test import TestCase
from django.utils.http import int_to_base36

from accounts.models import User
from accounts.verification import EmailVerificationTokenGenerator, email_verification_token
from games.mail.inbound import inbound_message_process
from games.mail.links import pick_link_token, unsubscribe_token
from games.mail.tokens import mailbox_for_seat, reply_address
from games.models import Seat, Submission
from games.invites import invite_token

from tests.mail.test_inbound_providers import PROVIDER_KEYS, RIGHT, mounted_inbound_urls
from tests.mail.test_inbound_providers import SECRET as WEBHOOK_SECRET

from .hostile import Arena, api_client, arena_build, assert_held, snapshot, web_client
from .routes import all_routes

pytestmark = pytest.mark.django_db

HUGE = 99999999999999999999


@pytest.fixture
def arena(db) -> Arena:
    return arena_build()


def _post_json(client, url: str, body, **headers):
    raw = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(url, raw, content_type="application/json", **headers)


# --- huge numbers in path ids --------------------------------------------------------------------------

ID_VALUES = [str(HUGE), str(2**63), str(2**64), str(2**63 - 1), "0", "9" * 400]
INT_ROUTES = sorted({r.pattern for r in all_routes() if "<int:" in r.pattern})


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("value", ID_VALUES, ids=["1e20", "2**63", "2**64", "2**63-1", "0", "9x400"])
@pytest.mark.parametrize("pattern", INT_ROUTES)
def test_huge_ids_in_paths(user, pattern, value, method):
    """GET /api/games/99999999999999999999/ and moves on it would be a 500 (OverflowError) unless refused."""
    url = "/" + pattern.split("<int:")[0] + value + "/" + pattern.split(">/", 1)[1]
    client = api_client(user) if url.startswith("/api/") else web_client(user)
    before = snapshot()
    response = client.get(url) if method == "GET" else _post_json(client, url, {"prompt": "p1", "option": "a"})
    # The API refuses (404/405); a page may redirect with a message, but nothing changes either way.
    assert_held(response, before, refused=url.startswith("/api/"))
    assert snapshot() == before


# --- huge numbers and non-finite numbers in bodies ----------------------------------------------------

NUMBERS = [HUGE, 2**63, -(2**63) - 1, 2**64, 1e308, -1, "1e308", "NaN"]
RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1" * 5000]
GAME_BODY = {"game": "tinygame", "seats": 2, "options": {"rounds": 1}}


@pytest.mark.parametrize("value", NUMBERS, ids=repr)
@pytest.mark.parametrize("field", ["seed", "seats", "bots"])
def test_huge_numbers_when_creating_a_game(arena, field, value):
    """``"seed": 2**63`` on create would be a 500 on both databases. A number outside the
    field's range is a 400 and no game; a valid one (seed -1) may create one, never a 5xx."""
    before = snapshot()
    response = _post_json(arena.api(), "/api/games/", {**GAME_BODY, field: value})
    out_of_range = value not in (-1,) or field != "seed"
    assert_held(response, before, refused=out_of_range)


@pytest.mark.parametrize("raw", RAW_NUMBERS)
@pytest.mark.parametrize("field", ["seed", "seats", "bots", "options"])
def test_non_finite_json_numbers(arena, field, raw):
    """NaN / Infinity / 1e400 literals are not JSON numbers a client may send: a 400, no game."""
    body = json.dumps({**GAME_BODY, field: "@@"}).replace('"@@"', raw if field != "options" else
                                                         '{"rounds": %s}' % raw)
    before = snapshot()
    assert_held(_post_json(arena.api(), "/api/games/", body), before, refused=True)


@pytest.mark.parametrize("value", NUMBERS, ids=repr)
@pytest.mark.parametrize("field", ["seed", "rounds", "table_size", "max_players"])
def test_huge_numbers_when_creating_a_tournament(arena, field, value):
    body = {"name": "Cup", "game": "tinygame", "format": "round_robin", "table_size": 2, field: value}
    before = snapshot()
    response = _post_json(arena.api(arena.staff), "/api/tournaments/", body)
    assert_held(response, before, refused=not (field == "seed" and value == -1))


@pytest.mark.parametrize("value", NUMBERS, ids=repr)
def test_numbers_as_moves_and_orders(arena, value):
    before = snapshot()
    url = f"/api/games/{arena.game.pk}/"
    assert_held(_post_json(arena.api(), url + "moves/", {"prompt": value, "option": value}), before)
    assert_held(_post_json(arena.api(), url + "standing-orders/", {"orders": [value]}), before)


# --- clock fields ---------------------------------------------------------------------------------------

CLOCK_FIELDS = ["step_seconds", "initial_seconds", "increment_seconds", "extension_seconds", "extensions",
                "bot_after_misses", "vacation_grace_seconds"]
CLOCK_GARBAGE = [1e15, 1e308, 2**63, HUGE, -1, -1e308, "NaN", "x", "60", [], {}, True, "\u0000", "6\u00000",
                 [60], {"seconds": 60}]


@pytest.mark.parametrize("value", CLOCK_GARBAGE, ids=repr)
@pytest.mark.parametrize("field", CLOCK_FIELDS + ["type"])
def test_clock_garbage_is_a_clear_400(arena, field, value):
    """Every clock field is validated with documented bounds (a clear 400, no game);
    ``extension_seconds: 1e15`` would stop every deadline and ``step_seconds: 1e308`` make the last join a
    500. A value the server accepts must also let the game start: the last join is never a 5xx."""
    clock = {"type": "fixed", "step_seconds": 3600, field: value}
    before = snapshot()
    response = _post_json(arena.api(), "/api/games/", {**GAME_BODY, "clock": clock})
    if response.status_code == 201:
        joined = arena.api(arena.users[1]).post(f"/api/games/{response.json()['id']}/join/")
        assert joined.status_code < 500, joined.content[:300]
    assert_held(response, before, refused=True)


@pytest.mark.parametrize("value", [1e15, 1e308, HUGE, "NaN", "\u0000"], ids=repr)
@pytest.mark.parametrize("field", ["step_seconds", "extension_seconds"])
def test_clock_garbage_in_a_tournament(arena, field, value):
    body = {"name": "Cup", "game": "tinygame", "format": "round_robin", "table_size": 2,
            "clock": {"type": "fixed", field: value}}
    before = snapshot()
    assert_held(_post_json(arena.api(arena.staff), "/api/tournaments/", body), before, refused=True)


# --- deep JSON ---------------------------------------------------------------------------------------------

DEPTH = 100_000
DEEP_BODIES = {
    "open lists": "[" * DEPTH,
    "closed lists": "[" * DEPTH + "]" * DEPTH,
    "nested dicts": '{"a":' * DEPTH + "1" + "}" * DEPTH,
}
JSON_ROUTES = ["/api/games/", "/api/games/{id}/moves/", "/api/games/{id}/undo/", "/api/games/{id}/standing-orders/",
               "/api/auth/register/",
               "/api/auth/token/", "/api/tournaments/", "/api/games/{id}/join/", "/api/games/{id}/pause/"]
# Routes that take no body (request=None in the schema): the body is never read, so the junk is ignored
# and the request does what it does without one (staff may pause); it must still never be a 5xx.
BODILESS_ROUTES = {"/api/games/{id}/pause/"}


@pytest.mark.parametrize("body", DEEP_BODIES, ids=str)
@pytest.mark.parametrize("route", JSON_ROUTES)
def test_deep_json_bodies(arena, route, body):
    """A deeply nested JSON body on /moves/ is refused, not a 500 (RecursionError)."""
    before = snapshot()
    url = route.format(id=arena.game.pk)
    response = _post_json(arena.api(arena.staff), url, DEEP_BODIES[body])
    assert_held(response, before, refused=None if route in BODILESS_ROUTES else True)


@pytest.mark.parametrize("field", ["options", "clock"])
def test_deep_json_inside_a_field(arena, field):
    body = json.dumps({**GAME_BODY, field: "@@"}).replace('"@@"', '{"a":' * 5000 + "1" + "}" * 5000)
    before = snapshot()
    assert_held(_post_json(arena.api(), "/api/games/", body), before, refused=True)


@pytest.mark.parametrize("extra", ["[" * DEPTH, '{"a":' * DEPTH + "1" + "}" * DEPTH, '{"rounds": NaN}'])
def test_deep_json_in_the_web_form(arena, extra):
    """The web's game form takes JSON options too (extra_options): the same families, the form again."""
    before = snapshot()
    response = arena.web().post("/games/new/", {"game": "tinygame", "seats": 2, "bots": 0, "clock": "fixed-48h",
                                                "is_public": "on", "extra_options": extra})
    assert_held(response, before)
    assert snapshot()["games"] == before["games"], "a game was created from hostile options"


# --- NUL bytes in every string field ---------------------------------------------------------------------

def _with_nul(value: str) -> str:
    return value[:1] + "\x00" + value[1:]


API_BODIES = {  # route -> (who calls it, a body that would be accepted)
    "/api/auth/register/": ("anon", {"username": "newcomer", "email": "newcomer@example.org",
                                     "password": "Correct-Horse-42"}),
    "/api/auth/token/": ("anon", {"username": "hostile-staff", "password": "Correct-Horse-42"}),
    "/api/games/": ("player", {"game": "tinygame", "seats": "2"}),
    "/api/games/{id}/moves/": ("player", "move"),
    "/api/games/{id}/standing-orders/": ("player", {"orders": ["attend"]}),
    "/api/games/{id}/messages/": ("player", {"text": "good luck"}),  # table talk
    "/api/games/{id}/undo/": ("player", {"prompt": "1.0.0", "to": "last"}),  # a take-back
    "/api/auth/webhook/": ("player", {"rotate_secret": True}),  # rotating the hook's signing secret
    "/api/tournaments/": ("staff", {"name": "Cup", "game": "tinygame", "format": "round_robin", "table_size": "2"}),
}
API_STRING_FIELDS = [(route, f) for route, (_, body) in API_BODIES.items()
                     for f in (["prompt", "option"] if body == "move" else body)]


@pytest.mark.parametrize("route,field", API_STRING_FIELDS)
def test_nul_in_every_api_string_field(arena, route, field):
    """A NUL anywhere is refused (a NUL in a clock value would be a 500 on PostgreSQL)."""
    who, body = API_BODIES[route]
    body = arena.move() if body == "move" else dict(body)
    value = body[field]
    body[field] = [_with_nul(v) for v in value] if isinstance(value, list) else _with_nul(str(value))
    client = {"anon": arena.api(), "player": arena.api(), "staff": arena.api(arena.staff)}[who]
    if who == "anon":
        client.credentials()
    before = snapshot()
    assert_held(_post_json(client, route.format(id=arena.game.pk), body), before, refused=True)


NUL_IN_STRUCTURES = {
    "option key": {**GAME_BODY, "options": {"rounds\x00": 1}},
    "option value": {**GAME_BODY, "options": {"rounds": "1\x00"}},
    "clock value": {**GAME_BODY, "clock": {"type": "fixed\x00"}},
    "clock key": {**GAME_BODY, "clock": {"step_seconds\x00": 60}},
}


@pytest.mark.parametrize("case", NUL_IN_STRUCTURES)
def test_nul_inside_options_and_clock(arena, case):
    """A NUL in a clock value would be a 500 on PostgreSQL (jsonb holds no \\u0000): refused."""
    before = snapshot()
    assert_held(_post_json(arena.api(), "/api/games/", NUL_IN_STRUCTURES[case]), before)


WEB_FORMS = {  # url -> (signed in?, the form's fields)
    "/accounts/signup/": (False, {"username": "webcomer", "email": "webcomer@example.org",
                                  "password": "Correct-Horse-42", "timezone": "UTC"}),
    "/accounts/login/": (False, {"username": "hostile-staff", "password": "Correct-Horse-42"}),
    "/accounts/verify/resend/": (False, {"email": "nobody@example.org"}),
    "/accounts/password_reset/": (False, {"email": "staff@example.org"}),
    "/accounts/vacations/": (True, {"starts": "2031-01-01T10:00", "ends": "2031-01-05T10:00"}),
    "/accounts/preferences/": (True, {"timezone": "UTC", "reminder_lead_hours": "12"}),
    "/games/new/": (True, {"game": "tinygame", "seats": "2", "clock": "fixed-48h", "extra_options": "{}"}),
    "/games/{id}/move/": (True, "move"),
    "/games/{id}/orders/": (True, {"orders": "attend"}),
    "/games/{id}/invite/": (True, {"email": "friend@example.org", "note": "come"}),
    "/games/{id}/chat/": (True, {"text": "good luck"}),  # table talk
    "/games/{id}/notes/": (True, {"text": "my plan"}),
}
WEB_STRING_FIELDS = [(url, f) for url, (_, form) in WEB_FORMS.items()
                     for f in (["prompt", "option"] if form == "move" else form)]


@pytest.mark.parametrize("url,field", WEB_STRING_FIELDS)
def test_nul_in_every_web_form_field(arena, url, field):
    signed_in, form = WEB_FORMS[url]
    form = arena.move() if form == "move" else dict(form)
    form[field] = _with_nul(form[field])
    client = arena.web() if signed_in else arena.anon_web()
    before = snapshot()
    response = client.post(url.format(id=arena.game.pk), form)
    assert_held(response, before)
    assert snapshot() == before, f"a form with a NUL in {field!r} changed something ({response.status_code})"


HEADERS = {  # the Django test client's META names
    "Idempotency-Key NUL": {"HTTP_IDEMPOTENCY_KEY": "key\x00one"},
    "Idempotency-Key 101": {"HTTP_IDEMPOTENCY_KEY": "k" * 101},
    "Idempotency-Key 10000": {"HTTP_IDEMPOTENCY_KEY": "k" * 10_000},
    "Idempotency-Key non-ASCII": {"HTTP_IDEMPOTENCY_KEY": "ключ-\u200b-\U0001F600"},
    "If-None-Match NUL": {"HTTP_IF_NONE_MATCH": 'W/"\x00"'},
    "If-None-Match 10000": {"HTTP_IF_NONE_MATCH": "W/" + '"x",' * 2500},
    "X-Requested-With NUL": {"HTTP_X_REQUESTED_WITH": "fetch\x00"},
    "Accept junk": {"HTTP_ACCEPT": "\x00/\x00;q=NaN"},
    "Cookie junk": {"HTTP_COOKIE": "sessionid=\x00; csrftoken=" + "c" * 5000},
    "Host NUL": {"HTTP_HOST": "evil\x00.example"},
    "Forwarded junk": {"HTTP_X_FORWARDED_FOR": "\x00" * 100, "HTTP_X_FORWARDED_PROTO": "gopher"},
}


@pytest.mark.parametrize("case", HEADERS)
def test_junk_headers_on_a_move(arena, case):
    """An Idempotency-Key over 100 characters would be a 500 (DataError on PostgreSQL): refused."""
    before = snapshot()
    response = _post_json(arena.api(), f"/api/games/{arena.game.pk}/moves/", arena.move(), **HEADERS[case])
    assert_held(response, before)


@pytest.mark.parametrize("case", HEADERS)
def test_junk_headers_on_a_blocking_get(arena, case):
    before = snapshot()
    response = arena.api().get(f"/api/games/{arena.game.pk}/", {"wait": "1"}, **HEADERS[case])
    assert_held(response, before)


AUTHORIZATIONS = ["Token " + "a" * 10_000, "Token ", "Token a b c", "Bearer abc", "Basic " + "=" * 40,
                  "Basic " + base64.b64encode(b"hostile-staff:Correct-Horse-42").decode(), "Token \x00abc",
                  "Token \u00e9\u00e9", "Token " + "1" * 40 + "\x00", "\x00" * 64, "Token" + " " * 5000]


@pytest.mark.parametrize("value", AUTHORIZATIONS, ids=lambda v: repr(v[:24]))
@pytest.mark.parametrize("url", ["/api/games/", "/api/games/{id}/", "/api/schema/"])
def test_junk_authorization_is_a_401(arena, url, value):
    """Junk credentials never pass and never crash: 401 (the schema is public: 200 or 401)."""
    client = arena.api()
    client.credentials(HTTP_AUTHORIZATION=value)
    response = client.get(url.format(id=arena.game.pk))
    assert response.status_code in ({200, 401} if "schema" in url else {401}), response.status_code


QUERY_JUNK = {
    "/api/games/{id}/": [{"wait": str(HUGE)}, {"wait": "1e308"}, {"wait": "NaN"}, {"wait": "-1"},
                         {"wait": "\x00"}],
    "/games/{id}/replay/": [{"step": str(HUGE)}, {"step": "\x00"}, {"step": "-" + "9" * 400}],
    "/games/{id}/live/": [{"v": "\x00" * 10}, {"v": "v" * 10_000}],
    "/api/tournaments/": [{"status": "\x00"}, {"status": "x" * 10_000}],
    "/api/leaderboard/": [{"game": "\x00"}, {"game": "../" * 100}],
    "/leaderboard/": [{"game": "\x00"}, {"game": "<script>"}],
}
QUERY_CASES = [(url, i) for url, values in QUERY_JUNK.items() for i in range(len(values))]


@pytest.mark.parametrize("url,i", QUERY_CASES)
def test_junk_query_parameters(arena, url, i):
    client = arena.api() if url.startswith("/api/") else arena.web()
    headers = {"HTTP_IF_NONE_MATCH": 'W/"stale"'} if "wait" in QUERY_JUNK[url][i] else {}
    before = snapshot()
    assert_held(client.get(url.format(id=arena.game.pk), QUERY_JUNK[url][i], **headers), before)


# --- wrong content types --------------------------------------------------------------------------------

CONTENT_TYPES = {
    "text/plain": ("text/plain", b"prompt=p&option=o"),
    "xml": ("application/xml", b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'a'>]><x>&a;</x>"),
    "form junk": ("application/x-www-form-urlencoded", b"%%%&&&=%ZZ"),
    "multipart without boundary": ("multipart/form-data", b"--x\r\n\r\n"),
    "multipart junk": ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: junk\r\n\r\n\x00--x--"),
    "json not UTF-8": ("application/json", b"\xff\xfe{\x00}"),
    "json UTF-7": ("application/json; charset=utf-7", b'+AHsAfQ-'),
    "json empty": ("application/json", b""),
    "json a string": ("application/json", b'"just a string"'),
    "json a number": ("application/json", b"1e400"),
    "json null": ("application/json", b"null"),
    "json with BOM": ("application/json", b"\xef\xbb\xbf{}"),
    "no content type": ("", b"{}"),
}


@pytest.mark.parametrize("case", CONTENT_TYPES)
@pytest.mark.parametrize("route", ["/api/games/", "/api/games/{id}/moves/", "/api/auth/register/",
                                   "/api/auth/token/"])
def test_wrong_content_types(arena, route, case):
    content_type, raw = CONTENT_TYPES[case]
    before = snapshot()
    response = arena.api().generic("POST", route.format(id=arena.game.pk), raw, content_type=content_type)
    assert_held(response, before, refused=True)


# --- every anymail webhook ----------------------------------------------------------------------------

# Every inbound webhook the URL conf mounts (the test settings mount every provider; games/mail/inbound_providers.py).
WEBHOOK_URLS = mounted_inbound_urls()
# Without ANYMAIL_WEBHOOK_SECRET every post is refused before anymail sees it; with it (and each provider's
# signing key) and the right basic auth, the junk reaches the provider's own checks and parser.
WEBHOOK_AUTH = {"no secret": ({}, {}),
                "right secret": ({"WEBHOOK_SECRET": WEBHOOK_SECRET, **PROVIDER_KEYS}, {"HTTP_AUTHORIZATION": RIGHT})}
WEBHOOK_BODIES = {
    "empty": ("application/json", b""),
    "open brace": ("application/json", b"{"),
    "empty list": ("application/json", b"[]"),
    "null": ("application/json", b"null"),
    "deep": ("application/json", b'{"a":' * 50_000),
    "bytes": ("application/octet-stream", bytes(range(256)) * 4),
    "form junk": ("application/x-www-form-urlencoded", b"mandrill_events=%5B&body-mime=%00&RawEmail=\x00"),
    "multipart junk": ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data; "
                       b"name=\"email\"\r\n\r\nnot a mail\x00\r\n--b--"),
    "wrong shape": ("application/json", b'{"Type": "Notification", "Message": "{", "RawEmail": 1}'),
}


@pytest.mark.parametrize("auth", WEBHOOK_AUTH)
@pytest.mark.parametrize("body", WEBHOOK_BODIES)
@pytest.mark.parametrize("url", WEBHOOK_URLS)
def test_junk_on_every_anymail_webhook(db, settings, url, body, auth):
    """A junk body on each anymail webhook (/mail/inbound/<esp>/...) is a 4xx, never a 5xx."""
    assert WEBHOOK_URLS, "no inbound webhook is mounted: this test would try nothing"
    content_type, raw = WEBHOOK_BODIES[body]
    anymail_settings, headers = WEBHOOK_AUTH[auth]
    settings.ANYMAIL = anymail_settings
    client = web_client(None)
    before = snapshot()
    response = client.post(url, raw, content_type=content_type, **headers)
    # A payload of the ESP's shape with nothing in it ("[]") may be acknowledged (200): the ESP would
    # retry a refusal forever. Either way no account, game, seat or pick comes of it.
    assert_held(response, before)
    after = snapshot()
    assert {k: v for k, v in after.items() if k != "inbound mails"} == \
        {k: v for k, v in before.items() if k != "inbound mails"}


# --- garbled raw mails to the inbound service (an unknown charset among them) ------------------------------

def _reply_to(arena: Arena) -> str:
    return reply_address(seat=Seat.objects.get(game=arena.game, position=0), prompt_pk=arena.prompt.pk)


def _mail(arena: Arena, *, headers: str = "", body: bytes = b"1\r\n", content_type: str = "text/plain") -> bytes:
    head = (f"From: {arena.users[0].email}\r\nTo: {_reply_to(arena)}\r\nSubject: Re: your turn\r\n"
            f"Message-ID: <hostile@client.example>\r\nContent-Type: {content_type}\r\n{headers}\r\n")
    return head.encode() + body


RAW_MAILS = {
    "empty": lambda a: b"",
    "NULs": lambda a: b"\x00" * 1000,
    "random bytes": lambda a: bytes(range(256)) * 64,
    "headers only": lambda a: _mail(a, body=b""),
    "unknown charset in body": lambda a: _mail(a, content_type='text/plain; charset="x-no-such-charset"'),
    "unknown charset in subject": lambda a: _mail(a, headers="X-Note: =?x-no-such?B?MQ==?=\r\n"),
    "utf-7 charset": lambda a: _mail(a, content_type='text/plain; charset="utf-7"', body=b"+ADE-\r\n"),
    "broken base64": lambda a: _mail(a, headers="Content-Transfer-Encoding: base64\r\n", body=b"!!!!====***"),
    "broken quoted-printable": lambda a: _mail(a, headers="Content-Transfer-Encoding: quoted-printable\r\n",
                                               body=b"=ZZ=\r\n=\r\n1"),
    "multipart without parts": lambda a: _mail(a, content_type='multipart/alternative; boundary="b"',
                                               body=b"no boundary here"),
    "deeply nested multipart": lambda a: _mail(
        a, content_type='multipart/mixed; boundary="b0"',
        body=b"".join(b'--b%d\r\nContent-Type: multipart/mixed; boundary="b%d"\r\n\r\n' % (i, i + 1)
                      for i in range(500)) + b"1\r\n"),
    "overlong header line": lambda a: _mail(a, headers="X-Long: " + "x" * 200_000 + "\r\n"),
    "overlong body": lambda a: _mail(a, body=b"1" + b"x" * 1_000_000),
    "NUL in headers": lambda a: _mail(a, headers="X-Nul: \x00\x00\r\nIn-Reply-To: <\x00@x>\r\n"),
    "malformed addresses": lambda a: _mail(a).replace(a.users[0].email.encode(), b"<<@@>>\x00"),
    "two reply addresses": lambda a: _mail(a).replace(b"To: ", b"To: " + _reply_to(a).encode() + b", "),
    "forged reply token": lambda a: _mail(a).replace(_reply_to(a).split("+")[1][:10].encode(), b"A" * 10),
    "html only junk": lambda a: _mail(a, content_type="text/html", body=b"<" * 10_000 + b"<script>1"),
    "8-bit junk in a header": lambda a: _mail(a).replace(b"Subject: Re: your turn", b"Subject: \xff\xfe\x80"),
}
# Odd but readable: these may well record the "1" they carry; they only must not raise.
READABLE_MAILS = {"malformed addresses", "unknown charset in body", "unknown charset in subject", "utf-7 charset",
                  "NUL in headers", "overlong header line", "two reply addresses", "deeply nested multipart",
                  "broken quoted-printable", "8-bit junk in a header"}


@pytest.mark.parametrize("case", RAW_MAILS)
def test_garbled_raw_mail(arena, case):
    """The receive_email service (games/mail/inbound.py) never raises, and garbage records no pick."""
    raw = RAW_MAILS[case](arena)
    picks = Submission.objects.count()
    with TestCase.captureOnCommitCallbacks(execute=True):
        inbound_message_process(raw=raw, recipient=None)
    if case not in READABLE_MAILS:
        assert Submission.objects.count() == picks, f"{case}: a pick was recorded from a garbled mail"


def test_a_reply_in_an_unknown_charset_is_answered(arena):
    """A reply in an unknown charset is not dropped silently: the sender gets an answer."""
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        inbound_message_process(raw=RAW_MAILS["unknown charset in body"](arena))
    answers = [m for m in mail.outbox if arena.users[0].email in m.to]
    assert answers, "no answer to a reply in an unknown charset"


# --- forged and tampered signed links --------------------------------------------------------------------

def _tampered(token: str, sep: str = ":") -> dict[str, str]:
    """``token`` altered every way we could think of; ``sep`` parts the signature off (":" for Django's
    signing, "-" for the verification link's ``<id>-<timestamp>-<hmac>``)."""
    value, sig = token.rsplit(sep, 1)
    return {
        "last char flipped": token[:-1] + ("A" if token[-1] != "A" else "B"),
        "first char flipped": ("x" if token[0] != "x" else "y") + token[1:],
        "truncated": token[:-1],
        "half": token[: len(token) // 2],
        "appended": token + "x",
        "signature swapped": value + sep + "A" * len(sig),
        "empty signature": value + sep,
        "no signature": value,
        "overlong": token + "A" * 10_000,
        "NUL": token[:5] + "%00" + token[5:],
        "dots": "..%2F..%2F..%2Fetc%2Fpasswd",
        "unicode": token[:5] + "\u00e9\u200b" + token[5:],
    }


def _link_cases():
    cases = []
    for route in ("mail-pick", "mail-unsubscribe", "web:invite", "verify-email"):
        for name in _tampered("eyJwIjoxfQ:1t0000:abcdefghijklmnopqrstuvwxyzABCDEFG"):
            for method in ("GET", "POST"):
                cases.append((route, name, method))
        for name in ("wrong key", "wrong purpose", "other payload"):
            for method in ("GET", "POST"):
                cases.append((route, name, method))
    return cases


def _real_token(route: str, arena: Arena) -> str:
    return {"mail-pick": lambda: pick_link_token(prompt_pk=arena.prompt.pk, option_id=arena.move()["option"],
                                                 generation=mailbox_for_seat(seat=arena.prompt.seat).generation),
            "mail-unsubscribe": lambda: unsubscribe_token(user_id=arena.users[0].pk),
            "web:invite": lambda: invite_token(game=arena.game),
            "verify-email": lambda: email_verification_token(user=arena.users[0])}[route]()


def _forged_verification(name: str, arena: Arena) -> str:
    """The verification link is a password-reset style token (accounts/verification.py), not a signing one."""
    user = arena.users[0]
    real = email_verification_token(user=user)
    if name == "wrong key":  # made as we make it, with a key that is not the server's
        generator = EmailVerificationTokenGenerator()
        generator.secret = "a" * 50
        return f"{int_to_base36(user.pk)}-{generator.make_token(user)}"
    if name == "wrong purpose":  # a genuine token of another kind
        return _real_token("mail-unsubscribe", arena)
    if name == "other payload":  # another account's id with this account's timestamp and HMAC
        return f"{int_to_base36(arena.users[1].pk)}-" + real.split("-", 1)[1]
    return _tampered(real, sep="-")[name]


def _forged(route: str, name: str, arena: Arena) -> str:
    if route == "verify-email":
        return _forged_verification(name, arena)
    real = _real_token(route, arena)
    if name == "wrong key":  # signed as we sign, with a key that is not the server's
        return signing.dumps(signing.loads(real, salt=_salt(route)), key="a" * 50, salt=_salt(route))
    if name == "wrong purpose":  # a genuine token of another kind (another salt)
        return _real_token("mail-unsubscribe" if route != "mail-unsubscribe" else "mail-pick", arena)
    if name == "other payload":  # the payload of one token with the signature of another
        return signing.dumps({"p": 1, "o": "x", "u": 1, "g": 1, "e": "x@example.org"}).rsplit(":", 1)[0] + \
            ":" + real.rsplit(":", 1)[1]
    return _tampered(real)[name]


def _salt(route: str) -> str:
    from games.mail import links
    from games import invites
    return {"mail-pick": links.PICK_SALT, "mail-unsubscribe": links.UNSUBSCRIBE_SALT, "web:invite": invites.SALT}[route]


@pytest.mark.parametrize("route,name,method", _link_cases())
def test_forged_and_tampered_links(arena, route, name, method):
    """A signed link altered in any way is refused (4xx) and changes nothing: no pick, no unsubscribe,
    no seat, no activation, no login."""
    token = _forged(route, name, arena)
    url = "/" + next(r.pattern for r in all_routes() if r.key == route).split("<str:token>")[0] + token + "/"
    outsider = User.objects.create_user("link-holder", "holder@example.org", "Correct-Horse-42")
    client = arena.web(outsider) if route == "web:invite" else arena.anon_web()
    prefs_before = arena.users[0].notification_preferences.email_prompts if hasattr(
        arena.users[0], "notification_preferences") else None
    before = snapshot()
    response = client.get(url) if method == "GET" else client.post(url)
    assert_held(response, before, refused=True)
    if prefs_before is not None:
        arena.users[0].notification_preferences.refresh_from_db()
        assert arena.users[0].notification_preferences.email_prompts == prefs_before
    assert "_auth_user_id" not in client.session or route == "web:invite", "a forged link logged someone in"


# --- usernames ------------------------------------------------------------------------------------------

BAD_USERNAMES = ["x/y", "ALICE", "alice\u200b", "<b>x</b>", "a\nb", "\uff21lice", "alice\u202e", "admin\x00",
                 " alice", "a" * 151, "", "x?y", "x#y", "..", "alice\r\nBcc: all@example.org"]


@pytest.mark.parametrize("name", BAD_USERNAMES, ids=repr)
def test_bad_usernames_through_the_api(arena, name):
    """API sign-up refuses these (accepted, they would make pages 500: NoReverseMatch, BadHeaderError)."""
    User.objects.create_user("alice", "alice@example.org", "Correct-Horse-42")
    client = arena.api()
    client.credentials()
    before = snapshot()
    response = _post_json(client, "/api/auth/register/", {"username": name, "email": "new@example.org",
                                                          "password": "Correct-Horse-42"})
    assert_held(response, before, refused=True)
    assert response.status_code == 400


@pytest.mark.parametrize("name", BAD_USERNAMES, ids=repr)
def test_bad_usernames_through_the_web_signup(arena, name):
    """One validator for web, API and admin; the web form is shown again, no account."""
    User.objects.create_user("alice", "alice@example.org", "Correct-Horse-42")
    client = arena.anon_web()
    before = snapshot()
    response = client.post("/accounts/signup/", {"username": name, "email": "new@example.org",
                                                 "password": "Correct-Horse-42", "timezone": "UTC"})
    assert_held(response, before)
    assert response.status_code == 200 and snapshot() == before, f"{name!r}: an account was made"


# --- brute force --------------------------------------------------------------------------------------

BRUTE_FORCE = {  # url -> the form or body of one failed attempt against the staff account
    "/api/auth/token/": {"username": "hostile-staff", "password": "wrong-password"},
    "/accounts/login/": {"username": "hostile-staff", "password": "wrong-password"},
    "/admin/login/": {"username": "hostile-staff", "password": "wrong-password"},
    "/accounts/password_reset/": {"email": "staff@example.org"},
}
ATTEMPTS = 30  # far above any sensible lockout threshold


@pytest.mark.parametrize("url", BRUTE_FORCE)
def test_repeated_failures_are_throttled(arena, url):
    """Repeated failures on the token endpoint, the logins and password reset end in a
    clear 429 (per account and per address), never a 5xx."""
    statuses = []
    for _ in range(ATTEMPTS):
        client = arena.api() if url.startswith("/api/") else arena.anon_web()
        if url.startswith("/api/"):
            client.credentials()
            statuses.append(_post_json(client, url, BRUTE_FORCE[url]).status_code)
        else:
            statuses.append(client.post(url, BRUTE_FORCE[url]).status_code)
    assert max(statuses) < 500, statuses
    assert 429 in statuses, f"{ATTEMPTS} failures in a row and no 429: {sorted(set(statuses))}"


# --- the count ----------------------------------------------------------------------------------------------

def test_count_of_hostile_inputs(request):
    """Print the number of hostile inputs tried (for docs/security.md): one per case of this file."""
    here = [item for item in request.session.items
            if item.path == request.node.path and item.name != request.node.name]
    print(f"\nhostile inputs tried: {len(here)}")
    assert len(here) > 0


# --- unbounded game options --------------------------------------------------------------------------------

BAD_OPTIONS = {
    "faltisia: a long string for a flag": ("faltisia", 2, {"choose_characters": "A" * 2000}, "choose_characters"),
    "faltisia: 0 for the expansion": ("faltisia", 2, {"expansion": 0}, "expansion"),
    "faltisia: an expansion that does not exist": ("faltisia", 2, {"expansion": "cthulhu"}, "expansion"),
    "faltisia: a difficulty that does not exist": ("faltisia", 1, {"solo": {"difficulty": "A" * 500}}, "solo"),
    "faltisia: an unknown option": ("faltisia", 2, {"house_rules": True}, "house_rules"),
    "faltisia: 1 for true": ("faltisia", 2, {"choose_characters": 1}, "choose_characters"),
    "mage knight: a hero that does not exist": ("mage_knight", 2, {"heroes": ["tovak", "A" * 900]}, "heroes"),
    "mage knight: more heroes than seats could hold": ("mage_knight", 2, {"heroes": ["tovak"] * 400}, "heroes"),
    "mage knight: a string for a flag": ("mage_knight", 2, {"elite_units": "yes"}, "elite_units"),
    "miskatonic: any option": ("miskatonic", 2, {"rounds": 3}, "rounds"),
    "tinygame: a string for a number": ("tinygame", 2, {"rounds": "1"}, "rounds"),
    "tinygame: true for a number": ("tinygame", 2, {"rounds": True}, "rounds"),
    "many options": ("tinygame", 2, {f"o{i}": i for i in range(500)}, "o0"),
}


@pytest.mark.parametrize("case", sorted(BAD_OPTIONS))
def test_options_outside_what_the_engine_declares_are_a_400_with_its_message(arena, case):
    """Every engine declares its options (name, allowed values); anything else is a 400
    naming the option, in the engine's words, and no game is created."""
    engine, seats, options, named = BAD_OPTIONS[case]
    before = snapshot()
    response = _post_json(arena.api(), "/api/games/", {"game": engine, "seats": seats, "options": options})
    assert_held(response, before, refused=True)
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["error"] == "invalid_settings" and named in body["detail"], body
    assert len(body["detail"]) < 600  # the message names the option; it does not echo a huge value


def test_a_create_body_beyond_its_bound_is_refused_unread(arena):
    """Faltisia {"choose_characters": "A" * 2_000_000} must not be a game whose every later view is 2 MB.
    The create body is bounded (GAME_CREATE_MAX_BYTES): 413, nothing created."""
    from games.api.parsers import GAME_CREATE_MAX_BYTES
    before = snapshot()
    body = {"game": "faltisia", "seats": 2, "options": {"choose_characters": "A" * 2_000_000}}
    response = _post_json(arena.api(), "/api/games/", body)
    assert_held(response, before, refused=True)
    assert response.status_code == 413 and response.json()["error"] == "body_too_large"
    # Just over the bound is refused too; a real create body is far under it.
    padded = {"game": "tinygame", "seats": 2, "options": {}, "pad": "x" * GAME_CREATE_MAX_BYTES}
    assert _post_json(arena.api(), "/api/games/", padded).status_code == 413
    assert snapshot() == before


@pytest.mark.parametrize("engine,seats,options", [
    ("faltisia", 2, {"choose_characters": True, "expansion": "battle_for_london"}),
    ("faltisia", 1, {"solo": {"difficulty": "hard"}}),
    ("faltisia", 1, {"solo": "nightmare"}),
    ("mage_knight", 2, {"heroes": ["goldyx", "tovak"], "elite_units": True}),
    ("tinygame", 2, {"rounds": 3, "ask_last_card": False}),
])
def test_allowed_options_are_stored_as_validated(arena, engine, seats, options):
    """The stored options are exactly the validated ones."""
    from games.models import Game
    response = _post_json(arena.api(), "/api/games/", {"game": engine, "seats": seats, "options": options})
    assert response.status_code == 201, response.content[:300]
    assert Game.objects.get(pk=response.json()["id"]).options == options


def test_the_web_form_refuses_options_the_engine_does_not_declare(arena):
    before = snapshot()
    response = arena.web().post("/games/new/", {"game": "tinygame", "seats": 2, "bots": 0, "clock": "fixed-48h",
                                                "is_public": "on", "extra_options": '{"rounds": "A"}'})
    assert response.status_code == 200 and b"rounds" in response.content
    assert snapshot() == before


# --- table talk (hostile inputs get clear errors and change nothing) ---------------------------------------

CHAT_TEXTS = {  # text -> (status, error code): each refused before anything is stored
    "1 MB of text": ("x" * 1_000_000, 413, "body_too_large"),
    "2,001 characters": ("x" * 2001, 400, "too_long"),
    "empty": ("", 400, "empty_message"),
    "blank lines only": ("\n \t\n", 400, "empty_message"),
    "NUL": ("a\x00b", 400, "parse_error"),
    "escape character": ("\x1b[31mred", 400, "bad_characters"),
    "C1 control": ("a\x85b", 400, "bad_characters"),
    **{f"bidi U+{c:04X}": (f"abc{chr(c)}cba.exe", 400, "bad_characters")
       for c in (0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)},
}


@pytest.mark.parametrize("case", CHAT_TEXTS)
def test_hostile_chat_text_is_refused_clearly_and_stores_nothing(arena, case):
    text, status, code = CHAT_TEXTS[case]
    before = snapshot()
    response = _post_json(arena.api(), f"/api/games/{arena.game.pk}/messages/", {"text": text})
    assert_held(response, before, refused=True)
    assert (response.status_code, response.json()["error"]) == (status, code)
    assert response.json()["detail"]


CHAT_RECIPIENTS = {"not a seat": [7], "negative": [-1], "a string": ["1"], "true": [True], "a list in a list": [[1]],
                   "an object": {"seat": 1}, "10,000 seats": list(range(10_000)), "a huge number": [HUGE],
                   "own seat in a full game": [0], "empty": []}


@pytest.mark.parametrize("case", CHAT_RECIPIENTS)
def test_hostile_recipients_are_a_clear_400(arena, case):
    from games.models import Game, Press
    Game.objects.filter(pk=arena.game.pk).update(press=Press.FULL)
    before = snapshot()
    response = _post_json(arena.api(), f"/api/games/{arena.game.pk}/messages/",
                          {"text": "psst", "to": CHAT_RECIPIENTS[case]})
    assert_held(response, before, refused=True)
    assert (response.status_code, response.json()["error"]) in {
        (400, "invalid"), (400, "bad_recipients"), (413, "body_too_large")}


@pytest.mark.parametrize("query", ["since=-1", f"since={HUGE}", "since=1e3", "since=%00", "wait=NaN", "wait=-5"])
def test_hostile_message_queries_are_a_clear_400(arena, query):
    before = snapshot()
    response = arena.api().get(f"/api/games/{arena.game.pk}/messages/?{query}")
    assert_held(response, before, refused=True)


def test_markup_is_stored_as_typed_and_shown_escaped_on_the_page_and_in_the_api(arena):
    markup = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    response = _post_json(arena.api(), f"/api/games/{arena.game.pk}/messages/", {"text": markup})
    assert response.status_code == 201 and response.json()["text"] == markup
    page = arena.web(arena.users[1]).get(f"/games/{arena.game.pk}/").content.decode()
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "<img src=x" not in page and "<script>alert(2)" not in page


def test_a_thousand_messages_a_minute_are_429s_after_the_rate_and_store_ten(arena):
    before = snapshot()
    client = arena.api()
    answers = [_post_json(client, f"/api/games/{arena.game.pk}/messages/", {"text": f"flood {i}"})
               for i in range(1000)]
    assert [r.status_code for r in answers].count(201) == 10
    assert {r.status_code for r in answers[10:]} == {429}
    assert all(r["Retry-After"] == "60" and r.json()["error"] == "rate_limited" for r in answers[10:])
    after = snapshot()
    assert after.pop("chat messages") == before.pop("chat messages") + 10 and after == before


CHAT_LINES = ["say " + "x" * 2001, "say a\u202eb", "say", "tell 9 hi", "tell 0 hi", "tell 99999999999999999999 hi",
              "say \x07bell", "tell 1 in a table game"]


@pytest.mark.parametrize("line", CHAT_LINES, ids=lambda line: repr(line[:20]))
def test_hostile_chat_lines_by_email_send_nothing(arena, line):
    from games.chat.models import ChatMessage
    from email.message import EmailMessage
    seat = Seat.objects.get(game=arena.game, position=0)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = arena.users[0].email, reply_address(seat=seat), "Re: game"
    msg["Message-ID"] = f"<hostile-{sorted(CHAT_LINES).index(line)}@client.example>"
    msg.set_content(line + "\n")  # UTF-8, as a mail client sends it
    raw = msg.as_bytes()
    with TestCase.captureOnCommitCallbacks(execute=True):
        result = inbound_message_process(raw=raw)
    assert not ChatMessage.objects.exists(), result


# --- every free text a person types: one rule (faltisia/free_text.py) ---------------------------------------

FREE_TEXT_FIELDS = {  # name -> (surface, method, url, who, a body that would be accepted, its free-text field)
    "web mute reason": ("web", "post", "/games/{id}/mute/", "creator", {"position": "1", "reason": "rude"}, "reason"),
    "web invite note": ("web", "post", "/games/{id}/invite/", "creator",
                        {"email": "friend@example.org", "note": "come"}, "note"),
    "web table talk": ("web", "post", "/games/{id}/chat/", "creator", {"text": "good luck"}, "text"),
    "web notes": ("web", "post", "/games/{id}/notes/", "creator", {"text": "my plan"}, "text"),
    "web tournament proposal": ("web", "post", "/tournaments/propose/", "creator",
                                {"name": "Cup", "game": "tinygame", "format": "swiss", "table_size": "2",
                                 "rounds": "1", "clock": "fixed-48h", "press": "none"}, "name"),
    "api message": ("api", "post", "/api/games/{id}/messages/", "creator", {"text": "good luck"}, "text"),
    "api notes": ("api", "put", "/api/games/{id}/notes/", "creator", {"text": "my plan"}, "text"),
    "api mute reason": ("api", "put", "/api/games/{id}/seats/1/mute/", "creator", {"reason": "rude"}, "reason"),
    "api tournament name": ("api", "post", "/api/tournaments/", "staff",
                            {"name": "Cup", "game": "tinygame", "format": "round_robin", "table_size": "2"}, "name"),
}
FORBIDDEN_CHARACTERS = {"NUL": "\x00", "bell": "\x07", "escape": "\x1b", "C1 NEL": "\x85", "RLO": "\u202e",
                        "LRI": "\u2066"}


@pytest.mark.parametrize("character", FORBIDDEN_CHARACTERS)
@pytest.mark.parametrize("case", FREE_TEXT_FIELDS)
def test_every_free_text_refuses_control_characters_and_bidirectional_overrides(arena, case, character, mailoutbox):
    """A NUL in the web mute reason was a 500 (PostgreSQL refuses it in text); every field that stores what a
    person typed refuses the same characters as table talk does, with a clear answer, and stores nothing."""
    from games.chat.models import ModerationAction
    surface, method, url, who, body, field = FREE_TEXT_FIELDS[case]
    body = dict(body)
    body[field] = f"ab{FORBIDDEN_CHARACTERS[character]}cd"
    user = arena.staff if who == "staff" else arena.users[0]
    client = arena.web(user) if surface == "web" else arena.api(user)
    before, log_before, mails_before = snapshot(), ModerationAction.objects.count(), len(mailoutbox)
    url = url.format(id=arena.game.pk)
    if surface == "web":
        response = getattr(client, method)(url, body)
    else:
        response = getattr(client, method)(url, json.dumps(body), content_type="application/json")
    assert_held(response, before)
    assert snapshot() == before and ModerationAction.objects.count() == log_before, (
        f"{case}: a text with {character} was stored ({response.status_code})")
    assert len(mailoutbox) == mails_before, f"{case}: a text with {character} was mailed"
    if surface == "api":
        assert response.status_code == 400 and response.json()["detail"]
