"""How much may be said, in which characters, and how often: no player can flood a table or fill the database,
and no message can hide text or read as something else than what it says (faltisia/free_text.py).

The rate is counted per user in Django's cache, with the counter the sign-up and mail-request throttles
use (accounts/throttle.py): set CACHE_URL to Redis in production so every web process counts together.
"""

from __future__ import annotations

from django.conf import settings

from accounts.throttle import throttle_hit
from faltisia.free_text import forbidden_character

from .errors import ChatError, ChatErrorCode

TEXT_MAX = 2000  # characters of one message
NOTES_MAX = 20_000  # characters of one seat's notes
REPORT_REASON_MAX = 500


def text_problem(text: str, *, limit: int = TEXT_MAX, allow_empty: bool = False) -> ChatError | None:
    """Why ``text`` cannot be stored as a message (or notes, with their ``limit``), or None."""
    if not allow_empty and not text.strip():
        return ChatError(ChatErrorCode.EMPTY, "the message is empty")
    if len(text) > limit:
        return ChatError(ChatErrorCode.TOO_LONG, f"at most {limit:,} characters ({len(text):,} given)")
    bad = forbidden_character(text)  # the rule of every free text (faltisia/free_text.py)
    if bad is not None:
        return ChatError(ChatErrorCode.BAD_CHARACTERS, bad)
    return None


def post_rate_check(*, user_id: int) -> None:
    """Count one message of this user; a ChatError (429, with ``retry_after``) past either limit."""
    for scope, limit, window in (("chat:minute", settings.CHAT_MESSAGES_PER_MINUTE, 60),
                                 ("chat:day", settings.CHAT_MESSAGES_PER_DAY, 24 * 3600)):
        if not throttle_hit(scope=scope, key=str(user_id), limit=limit, window_seconds=window):
            raise ChatError(ChatErrorCode.RATE_LIMITED,
                            f"at most {limit} messages per {'minute' if window == 60 else 'day'}; try again later",
                            retry_after=window)
