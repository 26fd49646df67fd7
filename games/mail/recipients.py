"""Who may get game mail, and what they asked for: the rules every kind of email applies first.

Shared by the prompt, result, game-over and digest emails (prompt_owed.py, result_mails.py, finished_mails.py,
digests.py) and the deadline reminders (reminders.py), so it sits below them all: none reaches into another
for them.
"""

from __future__ import annotations

from accounts.models import NotificationPreferences, User
from games.models import Seat


def address_confirmed(user: User) -> bool:
    """Game mail goes only to an active account's confirmed address (an unconfirmed one may be mistyped or
    someone else's)."""
    return bool(user.email) and user.is_active and user.email_verified_at is not None


def mailable(seat: Seat) -> User | None:
    """The seat's player if game mail may go to them at all (a human seat, a confirmed address), else None."""
    user = seat.user
    if user is None or seat.is_bot or not address_confirmed(user):
        return None
    return user


def loaded_preferences(user: User) -> NotificationPreferences:
    """The preferences select_related with the user (defaults if the player never saved any)."""
    try:
        return user.notification_preferences
    except NotificationPreferences.DoesNotExist:
        return NotificationPreferences(user=user)


def reads_results(seat: Seat) -> bool:
    """Whether the seat's player is mailed a result email per step (email_results, not a digest)."""
    user = mailable(seat)
    if user is None:
        return False
    preferences = loaded_preferences(user)
    return preferences.email_results and not preferences.digest
