"""Why table talk refuses a request: stable codes, each with its HTTP status (body: {error, detail}).

``ChatError`` is a ``GameError``, so the API's one error handler answers it like any other refusal; the
codes are chat's own, as its rules are.
"""

from __future__ import annotations

from enum import Enum

from games.errors import GameError


class ChatErrorCode(str, Enum):
    PRESS_OFF = "press_off"  # the game's press setting does not allow this message
    NOT_A_PLAYER = "not_a_player"  # only the seats of a game post to it (spectators read)
    MUTED = "muted"  # the game's creator or staff muted this player at this table
    ACCOUNT_DEACTIVATED = "account_deactivated"
    GAME_OVER = "game_over"  # a finished or abandoned game's talk is its record: nothing is added
    EMPTY = "empty_message"
    TOO_LONG = "too_long"
    BAD_CHARACTERS = "bad_characters"  # NUL and the other control characters, bidirectional overrides
    BAD_RECIPIENTS = "bad_recipients"
    RATE_LIMITED = "rate_limited"
    NO_SUCH_MESSAGE = "no_such_message"  # not one the caller may read
    NOT_MODERATOR = "not_moderator"

    @property
    def http_status(self) -> int:
        return _HTTP_STATUS[self]


_HTTP_STATUS = {
    ChatErrorCode.PRESS_OFF: 403,
    ChatErrorCode.NOT_A_PLAYER: 403,
    ChatErrorCode.MUTED: 403,
    ChatErrorCode.ACCOUNT_DEACTIVATED: 403,
    ChatErrorCode.GAME_OVER: 409,
    ChatErrorCode.EMPTY: 400,
    ChatErrorCode.TOO_LONG: 400,
    ChatErrorCode.BAD_CHARACTERS: 400,
    ChatErrorCode.BAD_RECIPIENTS: 400,
    ChatErrorCode.RATE_LIMITED: 429,
    ChatErrorCode.NO_SUCH_MESSAGE: 404,
    ChatErrorCode.NOT_MODERATOR: 403,
}


class ChatError(GameError):
    """A refused chat request; ``retry_after``: seconds until a rate-limited caller may post again."""

    def __init__(self, code: ChatErrorCode, detail: str, *, retry_after: int | None = None) -> None:
        super().__init__(code, detail)  # type: ignore[arg-type]  # GameError reads .value and .http_status only
        self.retry_after = retry_after
