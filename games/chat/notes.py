"""A seat's private notes: written by its player for themselves, at most NOTES_MAX characters."""

from __future__ import annotations

from accounts.models import User
from games.models import Seat

from .limits import NOTES_MAX, text_problem
from .models import SeatNote


def note_save(*, seat: Seat, user: User, text: str) -> SeatNote:
    """Replace the player's notes at this seat (empty text keeps an empty note). The caller checked that
    ``user`` holds ``seat``; notes stay after the game and after the seat changes hands, theirs alone."""
    problem = text_problem(text, limit=NOTES_MAX, allow_empty=True)
    if problem is not None:
        raise problem
    note, _ = SeatNote.objects.update_or_create(seat=seat, user=user, defaults={"text": text})
    return note
