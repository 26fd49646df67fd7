"""Game-over emails: one per player of a finished game who takes any game email.

Run by the finish's mail job (jobs.py); safe to run twice (the outbox's dedupe key). The email says what
happened since the player's last prompt email, so no result email is sent once the game is over.
"""

from __future__ import annotations

from games.models import Game, Seat

from . import compose
from .models import NotificationKind
from .outbox import notification_queue
from .recipients import loaded_preferences, mailable


def finished_notifications_queue(*, game_id: int) -> int:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    sent = 0
    for seat in Seat.objects.filter(game=game).select_related("user", "user__notification_preferences", "game"):
        user = mailable(seat)
        if user is None:
            continue
        prefs = loaded_preferences(user)
        if not (prefs.email_prompts or prefs.email_results or prefs.digest):
            continue  # unsubscribed from everything
        if notification_queue(kind=NotificationKind.FINISHED, dedupe_key=f"finished:{game.pk}:user{user.pk}",
                              address=user.email, user_id=user.pk, game=seat.game, seat=seat,
                              render=lambda s=seat, u=user: compose.render_finished(game=s.game, seat=s, user=u)):
            sent += 1
    return sent
