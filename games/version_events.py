"""Wake the requests that wait for a game to change (``GET /api/games/{id}/?wait=N``) when it changes.

A blocking GET that only checked the game's version every 20-250 ms until it moved would make ~9 small queries
per wait under the load benchmark (each with its share of the web process's CPU and a round trip). Instead a
write that bumps a game's version announces it after its commit on the game's Redis channel, and each web
process keeps one thread subscribed to the channels of the games its requests wait on, which wakes those
requests; they then read the version once:

    turn_save / game_touch / lifecycle -> on commit: announce(game_id) -> PUBLISH game-versions:<db>:<id> <id>
    web process: listener thread (SUBSCRIBE to the games waited on) -> the waiters of <id> -> each reads once

One channel a game, not one for the whole database: with one channel every web process would hear every
write of every game, ~40 us of its listener's CPU each (2% of the load benchmark's CPU in all), though a
request waits on hardly any of them. Only the listener thread touches its Redis
subscription (redis-py's is not thread-safe): a request that starts waiting on a game nobody in the process
waits on yet publishes a word on the listener's own channel, which wakes it to subscribe; the request goes on
once Redis has confirmed the subscription (at most SUBSCRIBE_WAIT_SECONDS), so no write committed after its
first read goes unheard. The listener drops a game's channel once no request waits on it.

Nothing depends on a message arriving: a waiter still reads the version every ``FALLBACK_CHECK_SECONDS``
(every write path bumps the version, announced or not), and with no Redis (the embedded default), or while
the subscription is down, ``game_version_wait`` polls (every 20-250 ms). A lost message costs a quarter of a
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
SUBSCRIBE_WAIT_SECONDS = 1.0  # at most this long a new waiter waits for its game's subscription (then: it polls)
RECONNECT_SECONDS = 2.0

_lock = threading.Lock()
_waiters: dict[int, set[threading.Event]] = defaultdict(set)
# game id -> set once the listener's subscription to the game's channel is confirmed; made by a waiter, dropped by the
# listener (under _lock) once nobody waits on the game. A waiter that finds it not set wakes the listener.
_ready: dict[int, threading.Event] = {}
_state = {"client": None, "listener": None, "subscribed": False, "pid": None, "down_until": 0.0, "wake": None}


def _channel(name: int | str) -> str:
    """A game's channel (``name`` its id), or a listener's own."""
    return f"{CHANNEL_PREFIX}{settings.DATABASES['default']['NAME']}:{name}"


def _game_of(channel: bytes | str) -> int | None:
    """The game id of a game's channel (None for the listener's own channel)."""
    name = channel.decode() if isinstance(channel, bytes) else channel
    try:
        return int(name.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return None


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
        _client().publish(_channel(game_id), str(game_id))
    except Exception:  # the waiters read the version on their own meanwhile
        # Not again for a while: a Redis that is away must not cost every write a connection timeout.
        _state["down_until"] = time.monotonic() + RECONNECT_SECONDS
        logger.debug("could not announce game %s", game_id, exc_info=True)


def announce_on_commit(game_id: int) -> None:
    transaction.on_commit(lambda: announce(game_id))


def _listen_forever() -> None:
    import uuid

    import redis

    while True:
        subscribed_games: set[int] = set()
        try:
            pubsub = redis.Redis.from_url(_url(), socket_connect_timeout=2, health_check_interval=30).pubsub()
            wake = _channel(f"wake-{os.getpid()}-{uuid.uuid4().hex}")  # the listener's own: see _listener_wake
            pubsub.subscribe(wake)
            _state["wake"] = wake
            for message in pubsub.listen():
                kind = message.get("type")
                if kind == "subscribe":
                    if message["channel"].decode() == wake:
                        _state["subscribed"] = True
                        _subscriptions_follow(pubsub, subscribed_games)  # the games waited on meanwhile
                    else:
                        _subscription_confirmed(_game_of(message["channel"]))
                    continue
                if kind != "message":
                    continue
                game_id = _game_of(message["channel"])
                if game_id is not None:
                    with _lock:
                        events = list(_waiters.get(game_id, ()))
                    for event in events:
                        event.set()
                _subscriptions_follow(pubsub, subscribed_games)
        except Exception:
            logger.warning("game version events: subscription lost; waiting requests poll meanwhile", exc_info=True)
        finally:
            _state["subscribed"], _state["wake"] = False, None
            with _lock:
                for ready in _ready.values():
                    ready.set()  # a request waiting for its game's subscription goes on at once, and polls
                _ready.clear()  # the next waiter of each game asks the next subscription again
            _wake_all()  # whoever waits reads the version now, and polls until the subscription is back
        threading.Event().wait(RECONNECT_SECONDS)


def _subscriptions_follow(pubsub, subscribed_games: set[int]) -> None:
    """Subscribe to the games waited on and not yet subscribed, unsubscribe from those nobody waits on (the
    listener thread only)."""
    with _lock:
        wanted = set(_waiters)
        dropped = subscribed_games - wanted
        for game_id in set(_ready) - wanted:
            del _ready[game_id]  # under the lock: a new waiter of the game asks again
    added = wanted - subscribed_games
    if added:
        pubsub.subscribe(*[_channel(game_id) for game_id in sorted(added)])
        subscribed_games |= added
    if dropped:
        pubsub.unsubscribe(*[_channel(game_id) for game_id in sorted(dropped)])
        subscribed_games -= dropped


def _subscription_confirmed(game_id: int | None) -> None:
    with _lock:
        ready = _ready.get(game_id)
    if ready is not None:
        ready.set()


def _listener_wake() -> bool:
    """Ask the listener to follow the games waited on now (it reads only its subscription); False if it cannot."""
    wake = _state["wake"]
    if wake is None or time.monotonic() < _state["down_until"]:
        return False
    try:
        _client().publish(wake, "")
        return True
    except Exception:
        _state["down_until"] = time.monotonic() + RECONNECT_SECONDS
        logger.debug("could not wake the version listener", exc_info=True)
        return False


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
    """An event set when game ``game_id`` is announced, for as long as the caller waits. With the listener up, the
    game's channel is subscribed before this returns (or SUBSCRIBE_WAIT_SECONDS have passed)."""
    event = threading.Event()
    with _lock:
        _waiters[game_id].add(event)
        ready = _ready.get(game_id)
        if ready is None:
            ready = _ready[game_id] = threading.Event()
    try:
        if subscribed() and (ready.is_set() or _listener_wake()):
            ready.wait(SUBSCRIBE_WAIT_SECONDS)
        yield event
    finally:
        with _lock:
            waiting = _waiters.get(game_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del _waiters[game_id]
