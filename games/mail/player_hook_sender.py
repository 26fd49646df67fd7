"""The webhook channel's sender: one outbox row as a signed call to the player's hook, at the URL the player has
set now (read and checked again at each call: player_hook_calls.py)."""

from __future__ import annotations

from datetime import datetime

from accounts.models import User

from . import player_hook_calls
from .models import Notification
from .recipients import loaded_preferences
from .relevance import Moot


def send(row: Notification, now: datetime) -> None:
    """Call the hook; Moot when the player has none any more (or their account is off), WebhookFailed to retry,
    WebhookRefused when it must not be tried again."""
    user = User.objects.filter(pk=row.user_id).select_related("notification_preferences").first()
    url = loaded_preferences(user).webhook_url if user is not None and user.is_active else ""
    if not url:
        raise Moot("the player removed their webhook")
    player_hook_calls.webhook_post(url=url, body=row.body_text.encode(), user_id=row.user_id, delivery_id=row.pk)
