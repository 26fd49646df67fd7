"""Wake the requests that wait for a game to change (``GET /api/games/{id}/?wait=N``) when it changes (issue 28).

A blocking GET used to check the game's version every 20-250 ms until it moved: under the load benchmark that
was ~9 small queries per wait (each with its share of the web process's CPU and a round trip). Now a
write that bumps a game's version announces it after its commit on a Redis channel, and each web process
keeps one thread subscribed to it that wakes the requests waiting on that game, which then read the version
once:

    turn_save / game_touch / lifecycle -> on commit: announce(game_id) -> PUBLISH game-versions:<db> <id>
    web process: listener thread (SUBSCRIBE) -> the waiters of <id> -> each reads the version once

Nothing depends on a message arriving: a waiter still reads the version every ``FALLBACK_CHECK_SECONDS``
(every write path bumps the version, announced or not), and with no Redis (the embedded default), or while
the subscription is down, ``game_version_wait`` polls as before. A lost message costs a quarter of a
second, never a wrong answer: the version in the database is the only truth.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import defaultdict
from contextlib import contextmanager
from typing import Iterator

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "game-versions:"  # + the database's name: servers that share a Redis do not wake each other
FALLBACK_CHECK_SECONDS = 0.25  # a waiter's own check while subscribed (a write that announced nothing)
RECONNECT_SECONDS = 2.0

_lock = threading.Lock()
_waiters: dict[int, set[threading.Event]] = defaultdict(set)
_state = {"client": None, "listener": None, "subscribed": False, "pid": None, "down_until": 0.0}


def _channel() -> str:
    return CHANNEL_PREFIX + str(settings.DATABASES["default"]["NAME"])


def _url() -> str | None:
    url = getattr(settings, "VERSION_EVENTS_REDIS_URL", "") or ""
    return url if url.startswith(("redis://", "rediss://", "unix://")) else None


def _client():
    if _state["client"] is None:
        import redis

        _state["client"] = redis.Redis.from_url(_url(), socket_connect_timeout=1, socket_timeout=1)
    return _state["client"]


def announce(game_id: int) -> None:
    """Tell every web process that game ``game_id`` changed (after the commit that changed it; never raises)."""
    if _url() is None or time.monotonic() < _state["down_until"]:
        return
    try:
        _client().publish(_channel(), str(game_id))
    except Exception:  # the waiters read the version on their own meanwhile
        # Not again for a while: a Redis that is away must not cost every write a connection timeout.
        _state["down_until"] = time.monotonic() + RECONNECT_SECONDS
        logger.debug("could not announce game %s", game_id, exc_info=True)


def announce_on_commit(game_id: int) -> None:
    transaction.on_commit(lambda: announce(game_id))


def _listen_forever() -> None:
    import redis

    while True:
        try:
            pubsub = redis.Redis.from_url(_url(), socket_connect_timeout=2, health_check_interval=30).pubsub(
                ignore_subscribe_messages=True)
            pubsub.subscribe(_channel())
            _state["subscribed"] = True
            for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                try:
                    game_id = int(message["data"])
                except (TypeError, ValueError):
                    continue
                with _lock:
                    events = list(_waiters.get(game_id, ()))
                for event in events:
                    event.set()
        except Exception:
            logger.warning("game version events: subscription lost; waiting requests poll meanwhile", exc_info=True)
        finally:
            _state["subscribed"] = False
            _wake_all()  # whoever waits reads the version now, and polls until the subscription is back
        threading.Event().wait(RECONNECT_SECONDS)


def _wake_all() -> None:
    with _lock:
        events = [e for waiting in _waiters.values() for e in waiting]
    for event in events:
        event.set()


def subscribed() -> bool:
    """Whether this process hears the announcements now (starting its listener thread on first use)."""
    if _url() is None:
        return False
    if _state["pid"] != os.getpid():  # first use, or a process forked from one that listened (no thread here)
        with _lock:
            if _state["pid"] != os.getpid():
                _state["subscribed"] = False
                thread = threading.Thread(target=_listen_forever, name="game-version-events", daemon=True)
                _state["listener"], _state["pid"] = thread, os.getpid()
                thread.start()
    return _state["subscribed"]


@contextmanager
def waiting_for(game_id: int) -> Iterator[threading.Event]:
    """An event set when game ``game_id`` is announced, for as long as the caller waits."""
    event = threading.Event()
    with _lock:
        _waiters[game_id].add(event)
    try:
        yield event
    finally:
        with _lock:
            waiting = _waiters.get(game_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del _waiters[game_id]
