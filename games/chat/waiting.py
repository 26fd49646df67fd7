"""``?wait=N`` for a game's messages: hold a reader's request until a message for them arrives.

Like the game view's blocking GET (games/api/conditional.py): each check is one small autocommit query, the
newest message id of the game through the index chat_message_game, so no transaction stays open and every
check sees the latest commit on SQLite and PostgreSQL alike; only when that id moves are the reader's
messages read (a private message to other seats moves it too, and the reader waits on). Checks run every
20 ms at first, then every twentieth of the time waited, at most every 250 ms: a message is seen within
a quarter of a second however long the wait, well within the target of 1 s to wake a waiting reader.
"""

from __future__ import annotations

import time
from typing import Callable

from .models import ChatMessage
from .selectors import Reader, latest_message_id, messages_for

WAIT_MAX_SECONDS = 30
CHECK_MIN_SECONDS = 0.02
CHECK_MAX_SECONDS = 0.25
CHECK_FRACTION_OF_WAITED = 0.05


def check_interval(waited: float) -> float:
    return min(CHECK_MAX_SECONDS, max(CHECK_MIN_SECONDS, waited * CHECK_FRACTION_OF_WAITED))


def messages_wait(*, reader: Reader, since: int, seconds: float,
                  clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep) -> list[ChatMessage]:
    """The reader's messages after ``since``; if there are none yet, wait up to ``seconds`` for one."""
    start = clock()
    seen = latest_message_id(game_id=reader.game.pk)
    while True:
        if seen > since:
            found = messages_for(reader=reader, since=since)
            if found:
                return found
            since = seen  # those were for others (or from someone the reader blocked): wait past them
        waited = clock() - start
        if waited >= seconds:
            return []
        sleep(min(seconds - waited, check_interval(waited)))
        seen = latest_message_id(game_id=reader.game.pk)
