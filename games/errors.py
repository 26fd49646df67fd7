"""Error codes the services raise and the API maps to HTTP statuses (body: {error, detail})."""

from enum import Enum


class ErrorCode(str, Enum):
    STALE_PROMPT = "stale_prompt"
    NOT_AN_OPTION = "not_an_option"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_GAME_ADMIN = "not_game_admin"
    GAME_NOT_ACTIVE = "game_not_active"
    GAME_NOT_OPEN = "game_not_open"
    GAME_FULL = "game_full"
    UNKNOWN_GAME = "unknown_game"
    INVALID_SETTINGS = "invalid_settings"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    UNKNOWN_ORDER = "unknown_order"
    RECLAIM_NEEDS_ADMIN = "reclaim_needs_admin"  # an admin handed the seat to a bot: only an admin gives it back
    INVITE_REQUIRED = "invite_required"
    ACCOUNT_DEACTIVATED = "account_deactivated"  # the seat's player is banned: it acts nowhere
    CANNOT_UNDO = "cannot_undo"  # nothing to take back, or a checkpoint is in the way

    @property
    def http_status(self) -> int:
        return _HTTP_STATUS[self]


_HTTP_STATUS = {
    ErrorCode.STALE_PROMPT: 409,
    ErrorCode.NOT_AN_OPTION: 400,
    ErrorCode.NOT_YOUR_SEAT: 403,
    ErrorCode.NOT_GAME_ADMIN: 403,
    ErrorCode.GAME_NOT_ACTIVE: 409,
    ErrorCode.GAME_NOT_OPEN: 409,
    ErrorCode.GAME_FULL: 409,
    ErrorCode.UNKNOWN_GAME: 400,
    ErrorCode.INVALID_SETTINGS: 400,
    ErrorCode.IDEMPOTENCY_KEY_REUSED: 409,
    ErrorCode.UNKNOWN_ORDER: 400,
    ErrorCode.RECLAIM_NEEDS_ADMIN: 403,
    ErrorCode.INVITE_REQUIRED: 403,
    ErrorCode.ACCOUNT_DEACTIVATED: 403,
    ErrorCode.CANNOT_UNDO: 409,
}


class GameError(Exception):
    """A refused request; ``code`` says why in a stable, machine-readable way."""

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class StalePrompt(GameError):
    def __init__(self, detail: str = "this prompt is no longer open; fetch the current one") -> None:
        super().__init__(ErrorCode.STALE_PROMPT, detail)


class NotAnOption(GameError):
    def __init__(self, detail: str = "that is not one of the offered options") -> None:
        super().__init__(ErrorCode.NOT_AN_OPTION, detail)
