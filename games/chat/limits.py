"""How much may be said, in which characters, and how often (issue 23, "Moderation and safety").

The rate is counted per user in Django's cache, with the counter the sign-up and mail-request throttles
use (accounts/throttle.py): set CACHE_URL to Redis in production so every web process counts together.
"""

from __future__ import annotations

import re

from django.conf import settings

from accounts.throttle import throttle_hit

from .errors import ChatError, ChatErrorCode

TEXT_MAX = 2000  # characters of one message
NOTES_MAX = 20_000  # characters of one seat's notes
REPORT_REASON_MAX = 500

# Refused, not stripped, so a message is always shown exactly as its author typed it: NUL and the other C0
# and C1 control characters but tab and line breaks (PostgreSQL refuses NUL in text; the others hide in a
# page), and the bidirectional embeddings, overrides and isolates U+202A-U+202E, U+2066-U+2069, which can make
# a message (or a link in it) read as something else than what it says.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def text_problem(text: str, *, limit: int = TEXT_MAX, allow_empty: bool = False) -> ChatError | None:
    """Why ``text`` cannot be stored as a message (or notes, with their ``limit``), or None."""
    if not allow_empty and not text.strip():
        return ChatError(ChatErrorCode.EMPTY, "the message is empty")
    if len(text) > limit:
        return ChatError(ChatErrorCode.TOO_LONG, f"at most {limit:,} characters ({len(text):,} given)")
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        return ChatError(ChatErrorCode.BAD_CHARACTERS,
                         f"the character U+{ord(bad.group()):04X} is not allowed (control characters and "
                         "bidirectional overrides are refused; tabs and line breaks are fine)")
    return None


def post_rate_check(*, user_id: int) -> None:
    """Count one message of this user; a ChatError (429, with ``retry_after``) past either limit."""
    for scope, limit, window in (("chat:minute", settings.CHAT_MESSAGES_PER_MINUTE, 60),
                                 ("chat:day", settings.CHAT_MESSAGES_PER_DAY, 24 * 3600)):
        if not throttle_hit(scope=scope, key=str(user_id), limit=limit, window_seconds=window):
            raise ChatError(ChatErrorCode.RATE_LIMITED,
                            f"at most {limit} messages per {'minute' if window == 60 else 'day'}; try again later",
                            retry_after=window)
