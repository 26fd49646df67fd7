"""What a seat is owed for one of its open prompts: the one rule behind every prompt email and webhook call.

    prompt_owed(seat, own_mode=...) -> PromptOwed(mail_mode, webhook)

    mail_mode  EVERY: an email due as soon as the prompt opens; AWAY: an email once the prompt delay has passed
               and only while the player is away from the game's page; None: no email (a bot's seat, no
               player, an inactive account, no confirmed address, or a mode that mails no prompts: the
               digest only, never)
    webhook    a call to the player's webhook (an active human player who set one), held back like a "when
               away" email unless the player wants every decision mailed (``away_only``)

Two places ask it and must not disagree: prompt_mails.prompt_mails_run, which queues the deliveries, and
owed.prompt_task_owed, which tells a write whether to enqueue the prompt task at all (a task is owed only for
a delivery due at once). Each applies it to rows it read its own way (one query each), so the rule takes a
seat with ``user`` and its preferences loaded and the game's own mode (``own_mode``, "" for none).
tests/mail/test_owed.py checks the two agree over every combination of the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Seat

from . import wants
from .recipients import loaded_preferences, mailable


@dataclass(frozen=True)
class PromptOwed:
    mail_mode: str | None  # wants.EVERY or wants.AWAY: an email; None: none
    webhook: bool

    @property
    def anything(self) -> bool:
        return self.mail_mode is not None or self.webhook

    @property
    def at_once(self) -> bool:
        """Due as soon as the prompt opens: not held for the prompt delay nor while the player is on the page."""
        return self.mail_mode == wants.EVERY

    @property
    def away_only(self) -> bool:
        """Sent only once the prompt delay has passed and while the player is away (the outbox row's flag)."""
        return not self.at_once


NOTHING = PromptOwed(mail_mode=None, webhook=False)


def prompt_owed(seat: Seat, *, own_mode: str) -> PromptOwed:
    """What the seat's player is owed for an open prompt of the seat (see the module's docstring)."""
    user = seat.user
    if user is None or seat.is_bot or not user.is_active:
        return NOTHING
    preferences = loaded_preferences(user)
    mode = wants.mode_with_own_choice(preferences, game_id=seat.game_id, own_mode=own_mode)
    mailed = mode in wants.WANTS_PROMPTS and mailable(seat) is not None
    return PromptOwed(mail_mode=mode if mailed else None, webhook=bool(preferences.webhook_url))
