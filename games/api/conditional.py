"""Conditional and blocking reads of ``GET /api/games/{id}/``: its ETag, ``If-None-Match`` and ``?wait=N``.

The ETag stands for the game's version (``Game.version``, bumped by every write that can change what any
caller sees) and the caller, since the body differs per seat. It is opaque (``version_tag``): a keyed hash,
not the counter itself, so a client that reads the game once a step cannot tell how many picks (and
sub-picks, which may depend on hidden choices) were made in between; and a tag sent by another user
never matches.

A client that holds the current tag gets ``304 Not Modified`` for the cost of its token and one small
query. With ``?wait=N`` the server holds the request until the version moves (then the full body, 200)
or N seconds pass (then 304): a client waiting for a step's resolution asks once instead of polling.
"""

from __future__ import annotations

import time
from typing import Callable

from rest_framework.exceptions import ValidationError

from accounts.models import User
from games import version_events
from games.selectors import game_version_for_user

from .version_tag import version_tag

WAIT_MAX_SECONDS = 30
# The version is checked every CHECK_MIN_SECONDS at first, then less often the longer nothing moves (a
# twentieth of the time waited, at most CHECK_MAX_SECONDS): a step's resolution, usually within a second,
# is seen within ~20-50 ms, while a client waiting on a player for minutes (one wait=30 after another)
# costs ~170 tiny queries per 30 s instead of 1,500.
CHECK_MIN_SECONDS = 0.02
CHECK_MAX_SECONDS = 0.25
CHECK_FRACTION_OF_WAITED = 0.05


def game_etag(*, game_id: int, version: int, user_id: int) -> str:
    return f'W/"{version_tag("api", game_id, version, user_id)}"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Whether ``etag`` is among the tags of an If-None-Match header (weak comparison, RFC 9110 13.1.2)."""
    if if_none_match.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == opaque for tag in if_none_match.split(","))


def wait_seconds(raw: str | None) -> int:
    """The ``wait`` query parameter: whole seconds, 0 when absent, at most WAIT_MAX_SECONDS (larger is
    clamped); anything else is a 400 with the contract's error shape."""
    if raw is None or raw == "":
        return 0
    if not raw.isascii() or not raw.isdigit():
        raise ValidationError({"wait": [f"a whole number of seconds from 0 to {WAIT_MAX_SECONDS}"]})
    return min(int(raw), WAIT_MAX_SECONDS)


def check_interval(waited: float) -> float:
    return min(CHECK_MAX_SECONDS, max(CHECK_MIN_SECONDS, waited * CHECK_FRACTION_OF_WAITED))


def game_version_wait(*, game_id: int, user: User, if_none_match: str, seconds: float,
                      clock: Callable[[], float] = time.monotonic,
                      sleep: Callable[[float], None] = time.sleep) -> int | None:
    """Check the caller's version of the game until its ETag is not among ``if_none_match`` any more, or
    ``seconds`` have passed (0: check once). Returns the last version read; None if the game is gone or
    not visible to the caller.

    Each check is one small autocommit query (no transaction stays open while waiting, so on SQLite and
    PostgreSQL alike every check sees the latest commit). Between checks it sleeps until a write to the game is
    announced (games/version_events.py), or polls where nothing announces. The request holds its server
    thread meanwhile.
    """
    start = clock()
    with version_events.waiting_for(game_id) as changed:
        while True:
            version = game_version_for_user(game_id=game_id, user=user)
            if version is None or not etag_matches(if_none_match, game_etag(game_id=game_id, version=version,
                                                                             user_id=user.pk)):
                return version
            waited = clock() - start
            if waited >= seconds:
                return version
            if version_events.subscribed():
                # Woken when a write to the game commits; a check of its own now and then all the same.
                changed.wait(min(seconds - waited, version_events.FALLBACK_CHECK_SECONDS))
                changed.clear()  # the next read sees the write: it was announced after its commit
            else:
                sleep(min(seconds - waited, check_interval(waited)))
