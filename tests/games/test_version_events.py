"""A blocking GET wakes when a write to its game commits (games/version_events.py), instead of polling
the database every 20-250 ms; without announcements it still sees every change by polling."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games import version_events
from games.api import conditional
from games.api.conditional import game_etag, game_version_wait
from games.models import Game
from games.services.version import game_touch
from tests.factories import make_started_game


def _wait_in_thread(game, user, seconds, result):
    etag = game_etag(game_id=game.pk, version=game.version, user_id=user.pk)

    def run():
        try:
            t0 = time.monotonic()
            result["version"] = game_version_wait(game_id=game.pk, user=user, if_none_match=etag, seconds=seconds)
            result["took"] = time.monotonic() - t0
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _counting_checks(monkeypatch) -> list[int]:
    checks = []
    real = conditional.game_version_for_user

    def counted(**kw):
        checks.append(1)
        return real(**kw)

    monkeypatch.setattr(conditional, "game_version_for_user", counted)
    return checks


def _touch(game_id: int) -> None:
    with transaction.atomic():
        game_touch(Game.objects.select_for_update().get(pk=game_id))


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_waiting_request_wakes_when_the_write_commits_and_reads_the_version_once_or_twice(monkeypatch, settings):
    settings.VERSION_EVENTS_REDIS_URL = settings.CELERY_BROKER_URL
    game, users = make_started_game(players=2)
    deadline = time.monotonic() + 5
    while not version_events.subscribed():  # the listener thread is up (first use starts it)
        assert time.monotonic() < deadline
        time.sleep(0.02)
    checks = _counting_checks(monkeypatch)
    result: dict = {}
    thread = _wait_in_thread(game, users[0], 10, result)
    time.sleep(1.0)  # a poll every 20-250 ms would have read the version ~10 times by now
    _touch(game.pk)
    thread.join(5)
    assert result["version"] == game.version + 1
    assert result["took"] < 1.6
    # one read before the write, one after it, and at most one fallback check per FALLBACK_CHECK_SECONDS waited
    assert len(checks) <= 2 + int(1.0 / version_events.FALLBACK_CHECK_SECONDS) + 1, checks


@pytest.mark.django_db(transaction=True)
def test_without_announcements_a_waiting_request_sees_the_write_by_polling(monkeypatch, settings):
    settings.VERSION_EVENTS_REDIS_URL = ""
    game, users = make_started_game(players=2)
    checks = _counting_checks(monkeypatch)
    result: dict = {}
    thread = _wait_in_thread(game, users[0], 10, result)
    time.sleep(0.5)
    _touch(game.pk)
    thread.join(5)
    assert result["version"] == game.version + 1 and result["took"] < 1.5
    assert len(checks) >= 5  # it polled: the case the announcements spare


def test_an_announcement_that_cannot_be_sent_is_not_an_error_and_is_not_retried_at_once(settings, monkeypatch):
    settings.VERSION_EVENTS_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    tries = []

    class Refusing:
        def publish(self, channel, message):
            tries.append(message)
            raise ConnectionError("refused")

    monkeypatch.setitem(version_events._state, "client", Refusing())
    monkeypatch.setitem(version_events._state, "down_until", 0.0)
    version_events.announce(1)  # logged, not raised: the waiters check on their own meanwhile
    version_events.announce(2)  # within RECONNECT_SECONDS: not tried (no write waits on a Redis that is away)
    assert tries == ["1"]
    monkeypatch.setitem(version_events._state, "down_until", 0.0)
    version_events.announce(3)
    assert tries == ["1", "3"]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_process_hears_only_the_games_its_requests_wait_on(settings):
    """One Redis channel a game: the listener subscribes to a game's channel while a request
    of its process waits on that game, and leaves it once none does; a write to any other game reaches no one."""
    import redis

    settings.VERSION_EVENTS_REDIS_URL = settings.CELERY_BROKER_URL
    watched, other = make_started_game(players=2)[0], make_started_game(players=2)[0]
    deadline = time.monotonic() + 5
    while not version_events.subscribed():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)

    def listeners(game) -> int:
        return dict(client.pubsub_numsub(version_events._channel(game.pk)))[version_events._channel(game.pk).encode()]

    with version_events.waiting_for(watched.pk) as changed:
        assert listeners(watched) == 1 and listeners(other) == 0  # subscribed before the wait began
        version_events.announce(other.pk)
        assert not changed.wait(0.3)
        version_events.announce(watched.pk)
        assert changed.wait(2)
    version_events.announce(watched.pk)  # the listener follows the waiters at its next message: none left
    deadline = time.monotonic() + 5
    while listeners(watched):
        assert time.monotonic() < deadline, "the listener kept the channel of a game nobody waits on"
        time.sleep(0.02)
