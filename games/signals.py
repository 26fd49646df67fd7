"""Signals the notification layers (email, web push) hook. All but seat_changed_hands are sent after the
transaction commits."""

from typing import NamedTuple

from django.dispatch import Signal

from .models import Prompt

# kwargs: opened — the prompts one write opened and left open, a list of OpenedPrompt (sent once per write,
#   so a resolution that opens every seat's prompt is one notification, not one per seat)
prompts_opened = Signal()


class OpenedPrompt(NamedTuple):
    """A seat has a new decision to make."""

    prompt: Prompt
    # None, or the source ("api", "web", "email", "bot", ...) of the same seat's pick that opened it within
    # the same step: the next pick of a compound decision the player is making right now (an API or web
    # player already has it in the response or the page; an email player has only the mail)
    follow_up_of: str | None
# kwargs: game, phase (the resolved step number), events (list of games.models.Event)
phase_resolved = Signal()
# kwargs: game (with .result filled)
game_finished = Signal()
# kwargs: game — an admin ended the game without a result (games.services.admin_actions.game_abandon)
game_abandoned = Signal()

# kwargs: seat (the Seat row, already changed), previous_user_id (who held it before), reason ("replaced",
#   "to_bot", "from_bot", "reclaimed"). Unlike the signals above it is sent INSIDE the write's transaction:
#   whoever keeps a credential bound to the seat (the email layer's reply token and one-click links) revokes
#   it together with the change, so no moment exists where the old holder still acts for the seat.
seat_changed_hands = Signal()
