"""Signals the notification layers (email, web push) hook.

All are sent after the transaction commits, except the ``*_in_write`` ones and ``seat_changed_hands``:
those are sent inside the write's transaction, so a receiver can record work the write owes (the email
layer's mail jobs, games/mail/jobs.py) or revoke a credential (a seat's reply token) atomically with it:
rolled back with the write, never lost once it commits.
"""

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
# The same two, sent inside the write's transaction (with ``send``, not ``send_robust``: a receiver that
# fails fails the write, rather than let it commit without the work it owes). A receiver must be cheap
# (one INSERT) and must not render, send or enqueue anything before the commit.
phase_resolved_in_write = Signal()
game_finished_in_write = Signal()
# kwargs: game — an admin ended the game without a result (games.services.admin_actions.game_abandon)
game_abandoned = Signal()

# kwargs: seat (the Seat row, already changed), previous_user_id (who held it before), reason ("replaced",
#   "to_bot", "from_bot", "reclaimed"). Unlike the signals above it is sent INSIDE the write's transaction:
#   whoever keeps a credential bound to the seat (the email layer's reply token and one-click links) revokes
#   it together with the change, so no moment exists where the old holder still acts for the seat.
seat_changed_hands = Signal()
