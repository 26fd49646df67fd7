"""A player's webhook for their turns: a delivery of the outbox on the webhook channel, sent by delivery.py.

    prompt opened -> prompt_mails.prompt_mails_run -> prompt_webhook_queue: a Notification about the
    prompt on the webhook channel (dedupe key per prompt and seat holder), its JSON in body_text, owed by
    prompt_owed.py's rule (an active human player who set a URL) and timed as the prompt mail is (not before
    the delay, only while the player is away, unless they want every decision mailed; held by quiet hours)
    -> delivery: the URL read and checked again at send time, one signed POST (player_hook_calls.py),
       retried with the send task's back-off on a 5xx or a timeout, never sent twice (the row lock)

The JSON is Discord- and Slack-compatible: ``content`` (Discord) and ``text`` (Slack) carry the same
message: the game, what is asked, the link; ``faltisia`` has the same as fields for other receivers.
Nothing secret goes in it: no reply address, no option list, just what the player is asked and where.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.urls import reverse

from accounts.models import User
from games.models import Prompt

from . import compose
from .models import Channel, Notification, NotificationKind
from .outbox import notification_queue
from .tokens import holder_generation_suffix


def decision_url(game_id: int) -> str:
    return settings.MAIL_BASE_URL.rstrip("/") + reverse("web:game", args=[game_id])


def prompt_payload(*, prompt: Prompt) -> dict:
    title = compose.game_name_number(prompt.game)
    url = decision_url(prompt.game_id)
    message = f"{title}: your turn. {prompt.text} {url}"
    return {"content": message, "text": message, "username": "Faltisia",
            "faltisia": {"game": prompt.game_id, "title": title, "asked": prompt.text, "url": url,
                         "prompt": prompt.pk, "deadline": prompt.deadline.isoformat() if prompt.deadline else None}}


def dedupe_key(prompt: Prompt, user: User) -> str:
    """One call per prompt and holder of the seat: a player given the seat is owed the call its old holder got
    (or had withdrawn), and the same player taking it back from a bot is asked again at its new credentials."""
    return f"webhook:{prompt.pk}:seat{prompt.seat_id}:user{user.pk}" + holder_generation_suffix(prompt.seat)


def prompt_webhook_queue(*, prompt: Prompt, user: User, away_only: bool) -> Notification | None:
    """The prompt's call to the player's hook, in the outbox on the webhook channel (its URL is read at send)."""
    body = json.dumps(prompt_payload(prompt=prompt), separators=(",", ":"))
    return notification_queue(
        kind=NotificationKind.PROMPT, channel=Channel.WEBHOOK, dedupe_key=dedupe_key(prompt, user), address="",
        user_id=user.pk, game=prompt.game, seat=prompt.seat, prompt=prompt, away_only=away_only,
        render=lambda: compose.Rendered(subject=compose.game_name_number(prompt.game), text=body, html="",
                                        reply_to=""))
