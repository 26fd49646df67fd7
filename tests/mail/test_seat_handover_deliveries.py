"""A seat handed to another player (or a bot) withdraws everything still unsent to its old holder, on every channel,
and the new holder gets what the seat is owed.

The attack this pins: W sets a webhook and quiet hours; W's seat is given to another player; W's webhook for the
seat's open prompt stayed queued and, when W's quiet hours ended, posted the seat's turn (title, prompt, deadline,
link) to W's URL, while the new holder never got one (the webhook's dedupe key ignored who held the seat).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import TestCase
from django.utils import timezone

from accounts.models import NotificationPreferences
from games.mail import delivery, prompt_mails
from games.mail.models import Channel, Notification, NotificationKind, NotificationStatus
from games.models import Prompt
from games.services.admin_actions import seat_hand_to_bot, seat_replace_player
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt

pytestmark = pytest.mark.django_db

HOOK = "https://hooks.example.org/{}"  # never called: the sends below are judged before any network


def _webhooks(prompt: Prompt) -> list[Notification]:
    return list(Notification.objects.filter(prompt=prompt, channel=Channel.WEBHOOK).order_by("pk"))


def _queue_prompt_deliveries(prompt: Prompt) -> None:
    with TestCase.captureOnCommitCallbacks(execute=False):  # the sends are judged by the test
        prompt_mails.prompt_notifications_queue(prompt_ids=[prompt.pk], now=timezone.now() + timedelta(hours=1))


def _game_with_a_held_webhook():
    """W (seat 0) has a webhook; their delivery of the seat's open prompt waits in the outbox (quiet hours)."""
    cache.clear()
    with TestCase.captureOnCommitCallbacks(execute=False):
        game, (w, other) = make_started_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.update_or_create(user=w, defaults={"webhook_url": HOOK.format("w")})
    prompt = open_prompt(game, 0)
    _queue_prompt_deliveries(prompt)
    row, = _webhooks(prompt)
    Notification.objects.filter(pk=row.pk).update(quiet_held=True, not_before=timezone.now() + timedelta(hours=6))
    return game, w, prompt, row


def test_a_replaced_players_unsent_webhook_is_withdrawn_and_the_new_holder_gets_theirs():
    game, w, prompt, old_row = _game_with_a_held_webhook()
    newcomer = UserFactory()
    NotificationPreferences.objects.update_or_create(user=newcomer, defaults={"webhook_url": HOOK.format("n")})
    with TestCase.captureOnCommitCallbacks(execute=False):
        seat_replace_player(game=game, by=game.created_by, position=0, user=newcomer)
    old_row.refresh_from_db()
    assert old_row.status == NotificationStatus.SKIPPED  # withdrawn in the handover's transaction
    _queue_prompt_deliveries(prompt)  # what the prompt sweep does for the seat's open prompt
    owed = [r for r in _webhooks(prompt) if r.pk != old_row.pk]
    assert [(r.user_id, r.status) for r in owed] == [(newcomer.pk, NotificationStatus.PENDING)]


def test_a_webhook_left_pending_for_the_old_holder_is_not_sent_when_their_quiet_hours_end():
    """The send checks the holder again: a row the handover did not withdraw (any channel) still never goes."""
    game, w, prompt, old_row = _game_with_a_held_webhook()
    Notification.objects.filter(pk=old_row.pk).update(not_before=None, quiet_held=False)
    newcomer = UserFactory()
    with TestCase.captureOnCommitCallbacks(execute=False):
        seat_replace_player(game=game, by=game.created_by, position=0, user=newcomer)
    Notification.objects.filter(pk=old_row.pk).update(status=NotificationStatus.PENDING)  # as if missed
    assert delivery.notification_send(notification_id=old_row.pk) == NotificationStatus.SKIPPED


def test_a_seat_handed_to_a_bot_withdraws_its_players_unsent_prompt_deliveries():
    game, w, prompt, old_row = _game_with_a_held_webhook()
    with TestCase.captureOnCommitCallbacks(execute=False):
        seat_hand_to_bot(game=game, by=game.created_by, position=0)
    old_row.refresh_from_db()
    assert old_row.status == NotificationStatus.SKIPPED


def test_chat_mail_still_unsent_to_the_old_holder_is_withdrawn():
    game, w, prompt, _ = _game_with_a_held_webhook()
    seat = prompt.seat
    chat_row = Notification.objects.create(
        kind=NotificationKind.CHAT, dedupe_key=f"chat:{seat.pk}:99", user=w, game=game, seat=seat,
        address=w.email, subject="table talk", body_text="PRIVATE-THREAD-CANARY", message_id="<x@example.org>")
    with TestCase.captureOnCommitCallbacks(execute=False):
        seat_replace_player(game=game, by=game.created_by, position=0, user=UserFactory())
    chat_row.refresh_from_db()
    assert chat_row.status == NotificationStatus.SKIPPED
