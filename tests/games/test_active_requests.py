"""At most WEB_ACTIVE_REQUESTS requests of a web process run at once (games/active_requests.py, issue 28).

The others wait their turn; a turn is given back whatever the request does (an answer, an error); a request that
waits on a game (?wait=) gives its turn back while it sleeps, so waits never keep another request out.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import RequestFactory
from rest_framework.authtoken.models import Token

from games.active_requests import ActiveRequestLimit, turn_given_back
from tests.factories import make_started_game
from tests.games.helpers import open_prompt


class _Recording:
    """A WSGI app that stays inside for ``hold`` seconds and records how many requests were inside at once."""

    def __init__(self, hold: float = 0.05, fail: bool = False) -> None:
        self.hold, self.fail = hold, fail
        self.inside = self.most = self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.inside += 1
            self.calls += 1
            self.most = max(self.most, self.inside)
        try:
            time.sleep(self.hold)
            if self.fail:
                raise RuntimeError("the view failed")
            start_response("200 OK", [])
            return [b"ok"]
        finally:
            with self.lock:
                self.inside -= 1


def _call_from_threads(app, n: int) -> list[BaseException]:
    errors: list[BaseException] = []

    def one():
        try:
            app({}, lambda status, headers: None)
        except BaseException as e:  # noqa: BLE001  (collected for the assertions)
            errors.append(e)

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return errors


@pytest.mark.parametrize("turns", [1, 3])
def test_no_more_requests_run_at_once_than_the_process_has_turns(turns):
    inner = _Recording()
    errors = _call_from_threads(ActiveRequestLimit(inner, turns), 12)
    assert not errors and inner.calls == 12  # every request ran, in turn
    assert inner.most == turns


def test_no_limit_with_zero_turns():
    inner = _Recording(hold=0.2)
    limit = ActiveRequestLimit(inner, 0)
    assert limit.turns is None
    _call_from_threads(limit, 6)
    assert inner.most == 6


def test_a_request_that_fails_gives_its_turn_back():
    failing = _Recording(hold=0.0, fail=True)
    limit = ActiveRequestLimit(failing, 1)
    errors = _call_from_threads(limit, 3)
    assert len(errors) == 3 and failing.calls == 3  # each failed in its turn; none waits for ever
    assert limit.turns.acquire(timeout=0.1)  # the one turn is free again


def test_a_request_gives_its_turn_back_while_it_sleeps_and_takes_one_again_after():
    """With one turn: request A sleeps inside ``turn_given_back`` until request B has run; B must get in meanwhile,
    and A goes on only with a turn again (B's given back)."""
    b_ran, order = threading.Event(), []

    def app(environ, start_response):
        if environ.get("who") == "A":
            order.append("A in")
            with turn_given_back():
                assert b_ran.wait(5), "B never ran while A slept"
            order.append("A on")
        else:
            order.append("B")
            b_ran.set()
        start_response("200 OK", [])
        return [b""]

    limit = ActiveRequestLimit(app, 1)
    a = threading.Thread(target=limit, args=({"who": "A"}, lambda s, h: None))
    a.start()
    while not order:
        time.sleep(0.01)
    limit({"who": "B"}, lambda s, h: None)
    a.join(5)
    assert order == ["A in", "B", "A on"]
    assert limit.turns.acquire(timeout=0.1)  # both turns accounted for: the one is free


def test_outside_a_limited_request_giving_the_turn_back_does_nothing():
    with turn_given_back():
        pass  # no turn held (a test client, a management command): no error, nothing released


@pytest.mark.django_db(transaction=True)
def test_a_waiting_request_keeps_no_turn_from_the_pick_that_wakes_it():
    """With one turn in the process, a blocking GET (?wait=10) waits while the other player's pick runs, and answers
    the new view as soon as the pick commits: the wait held no turn (else the pick would wait the 10 s out)."""
    game, (a, b) = make_started_game(players=2)
    tokens = {u: Token.objects.get_or_create(user=u)[0].key for u in (a, b)}
    app, factory = ActiveRequestLimit(WSGIHandler(), 1), RequestFactory()

    def call(request):
        status = []
        body = b"".join(app(request.environ, lambda s, h, e=None: status.append((s, dict(h)))))
        return status[0], body

    (status, headers), _ = call(factory.get(f"/api/games/{game.pk}/", HTTP_AUTHORIZATION=f"Token {tokens[a]}"))
    etag, prompt = headers["ETag"], open_prompt(game, 1)
    answered = {}

    def waiting_player():
        try:
            answered["get"] = call(factory.get(f"/api/games/{game.pk}/", {"wait": "10"},
                                               HTTP_AUTHORIZATION=f"Token {tokens[a]}", HTTP_IF_NONE_MATCH=etag))
            answered["at"] = time.monotonic()
        finally:
            connection.close()

    waiting = threading.Thread(target=waiting_player)
    t0 = time.monotonic()
    waiting.start()
    time.sleep(0.3)  # the GET is waiting now
    (pick_status, _), _ = call(factory.post(f"/api/games/{game.pk}/moves/", {"prompt": prompt.prompt_id,
                                                                              "option": prompt.options[0]["id"]},
                                            content_type="application/json", HTTP_AUTHORIZATION=f"Token {tokens[b]}"))
    waiting.join(15)
    assert pick_status.startswith("201")
    (get_status, get_headers), _ = answered["get"]
    assert get_status.startswith("200") and get_headers["ETag"] != etag
    assert answered["at"] - t0 < 3, answered["at"] - t0  # woken by the pick, not by the 10 s passing


@pytest.mark.django_db
@pytest.mark.parametrize("wait", ["game view", "table talk"])
def test_both_blocking_gets_sleep_without_a_turn(wait, settings):
    """The two ?wait=N reads (a game's view, its table talk) give their turn back each time they sleep."""
    from games.api.conditional import game_etag, game_version_wait
    from games.chat.selectors import Reader
    from games.chat.waiting import messages_wait

    settings.VERSION_EVENTS_REDIS_URL = ""  # no announcements: the view's wait polls, sleeping between its reads
    game, (a, _) = make_started_game(players=2)
    limit, free_while_asleep = ActiveRequestLimit(None, 1), []

    def sleep(seconds):
        free_while_asleep.append(limit.turns.acquire(blocking=False))
        limit.turns.release()

    def app(environ, start_response):
        if wait == "game view":
            etag = game_etag(game_id=game.pk, version=game.version, user_id=a.pk)
            game_version_wait(game_id=game.pk, user=a, if_none_match=etag, seconds=0.05, sleep=sleep)
        else:
            messages_wait(reader=Reader(game=game, user=a, seat=game.seats.get(position=0)), since=0, seconds=0.05,
                          sleep=sleep)
        return [b""]

    limit.app = app
    limit({}, lambda s, h: None)
    assert free_while_asleep and all(free_while_asleep)
    assert limit.turns.acquire(blocking=False)  # and the request's own turn was given back at its end
