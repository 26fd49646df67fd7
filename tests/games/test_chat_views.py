"""Table talk's API: GET/POST /api/games/{id}/messages/ and GET/PUT /api/games/{id}/notes/."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from games.chat.models import ChatMessage, SeatNote
from games.chat.services import message_post
from games.models import Press

from tests.chat.helpers import chat_game, spectator

pytestmark = pytest.mark.django_db


def client(user) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return c


def url(game, what="messages"):
    return f"/api/games/{game.pk}/{what}/"


def test_a_player_posts_to_the_table_and_privately_and_each_reads_what_is_theirs():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    r = client(alice).post(url(game), {"text": "hello <all>", "to": None}, format="json")
    assert r.status_code == 201, r.content
    assert set(r.json()) == {"id", "seat", "to", "text", "created_at", "hidden"}
    assert (r.json()["seat"], r.json()["to"], r.json()["text"]) == (0, None, "hello <all>")
    r = client(alice).post(url(game), {"text": "just bob", "to": [1]}, format="json")
    assert r.status_code == 201 and r.json()["to"] == [1]
    assert [m["text"] for m in client(bob).get(url(game)).json()] == ["hello <all>", "just bob"]
    assert [m["text"] for m in client(carol).get(url(game)).json()] == ["hello <all>"]
    assert [m["text"] for m in client(spectator()).get(url(game)).json()] == ["hello <all>"]
    first = client(bob).get(url(game)).json()[0]["id"]
    assert [m["text"] for m in client(bob).get(url(game) + f"?since={first}").json()] == ["just bob"]


def test_the_creation_body_takes_press_and_the_game_shows_it():
    alice = spectator()
    r = client(alice).post("/api/games/", {"game": "tinygame", "seats": 2, "press": "none"}, format="json")
    assert r.status_code == 201 and r.json()["press"] == "none"
    r = client(alice).post("/api/games/", {"game": "tinygame", "seats": 2}, format="json")
    assert r.json()["press"] == "table"
    r = client(alice).post("/api/games/", {"game": "tinygame", "seats": 2, "press": "loud"}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "invalid"


def test_refusals_answer_their_status_and_code_and_store_nothing():
    game, (alice, bob, _) = chat_game(press=Press.TABLE)
    cases = [
        (client(alice), {"text": "psst", "to": [1]}, 403, "press_off"),
        (client(spectator()), {"text": "hi"}, 403, "not_a_player"),
        (client(alice), {"text": ""}, 400, "empty_message"),
        (client(alice), {"text": "x" * 2001}, 400, "too_long"),
        (client(alice), {"text": "a\u202eb"}, 400, "bad_characters"),
        (client(alice), {"text": "a\x00b"}, 400, "parse_error"),
        (client(alice), {"text": "hi", "to": [99]}, 400, "invalid"),
        (client(alice), {}, 400, "invalid"),
    ]
    for c, body, status, code in cases:
        r = c.post(url(game), body, format="json")
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.content)
    assert not ChatMessage.objects.exists()


def test_a_private_game_is_a_404_to_outsiders_on_both_routes_as_an_unknown_id_is():
    game, (alice, _, _) = chat_game(public=False)
    outsider = client(spectator())
    unknown = outsider.get("/api/games/987654321/messages/")
    for path in (url(game), url(game, "notes")):
        r = outsider.get(path)
        assert (r.status_code, r.json()) == (404, unknown.json())
    assert outsider.post(url(game), {"text": "knock knock"}, format="json").status_code == 404


@override_settings(CHAT_MESSAGES_PER_MINUTE=10)
def test_a_thousand_messages_a_minute_get_10_through_then_429s_with_retry_after():
    """Hostile inputs (1,000 messages a minute) get clear errors and change nothing."""
    game, (alice, _, _) = chat_game()
    c = client(alice)
    statuses = [c.post(url(game), {"text": f"spam {i}"}, format="json") for i in range(1000)]
    assert [r.status_code for r in statuses].count(201) == 10
    refused = statuses[-1]
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert refused["Retry-After"] == "60"
    assert ChatMessage.objects.count() == 10


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_wait_holds_the_request_until_a_message_for_the_caller_arrives():
    """With real threads, so on PostgreSQL only: the SQLite test database lives in memory with a shared cache,
    which answers "table is locked" to a read while another thread's post is writing, where a file database
    (the embedded mode) waits. test_waiting.py times the loop on any database; benchmarks/chat_bench.py runs
    this on a SQLite file too."""
    game, (alice, bob, _) = chat_game()
    errors = []

    def later():
        try:
            time.sleep(0.5)
            message_post(game=game, user=alice, text="there you are")
        except Exception as e:  # reported by the assertion below
            errors.append(e)
        finally:
            connection.close()

    poster = threading.Thread(target=later)
    start = time.monotonic()
    poster.start()
    r = client(bob).get(url(game) + "?wait=10")
    elapsed = time.monotonic() - start
    poster.join()
    assert not errors
    assert [m["text"] for m in r.json()] == ["there you are"]
    assert 0.5 <= elapsed < 5, elapsed  # woken by the message (within a quarter second when idle), not after 10 s


def test_wait_with_nothing_new_answers_an_empty_list_and_garbage_is_a_400():
    game, (alice, bob, _) = chat_game()
    assert client(bob).get(url(game) + "?wait=1").json() == []
    assert client(bob).get(url(game) + "?wait=soon").status_code == 400
    assert client(bob).get(url(game) + "?since=-1").status_code == 400


def test_notes_are_read_and_written_by_the_seats_player_only():
    game, (alice, bob, _) = chat_game()
    assert client(alice).get(url(game, "notes")).json() == {"text": ""}
    r = client(alice).put(url(game, "notes"), {"text": "bob always bets high"}, format="json")
    assert r.status_code == 200 and r.json() == {"text": "bob always bets high"}
    assert client(alice).get(url(game, "notes")).json() == {"text": "bob always bets high"}
    assert client(bob).get(url(game, "notes")).json() == {"text": ""}
    staff = spectator()
    staff.is_staff = True
    staff.save()
    assert client(staff).get(url(game, "notes")).status_code == 403
    r = client(alice).put(url(game, "notes"), {"text": "x" * 20_001}, format="json")
    assert (r.status_code, r.json()["error"]) == (400, "too_long")
    assert SeatNote.objects.get().text == "bob always bets high"
