"""Table talk in the Django admin (issue 23): reported messages first with their logged actions; hiding and
restoring from the list; a private message's text stays hidden from staff until reported or the game is over;
notes are not in the admin."""

from __future__ import annotations

import pytest
from django.core import mail
from django.contrib import admin
from django.test import Client, TestCase
from django.urls import reverse

from games.chat.models import ChatMessage, ModerationAction, SeatNote
from games.chat.moderation import message_report
from games.chat.notes import note_save
from games.chat.services import message_post
from games.models import Game, GameStatus, Press, Seat
from tests.factories import UserFactory

from .helpers import chat_game, reader

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client():
    staff = UserFactory()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    c = Client()
    c.force_login(staff)
    return c, staff


def test_reported_messages_come_first_and_private_text_shows_only_once_reported(staff_client):
    c, _ = staff_client
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    quiet = message_post(game=game, user=alice, text="a table message")
    secret = message_post(game=game, user=alice, text="PRIVATE-CANARY plan", to=[1])
    reported = message_post(game=game, user=bob, text="a rude table message")
    message_report(reader=reader(game, carol), message_id=reported.pk, reason="rude")
    listing = c.get(reverse("admin:chat_chatmessage_changelist")).content.decode()
    row = lambda m: listing.index(reverse("admin:chat_chatmessage_change", args=[m.pk]))  # noqa: E731
    assert row(reported) < row(secret) < row(quiet)
    assert "PRIVATE-CANARY" not in listing
    assert "PRIVATE-CANARY" not in c.get(reverse("admin:chat_chatmessage_change", args=[secret.pk])).content.decode()
    message_report(reader=reader(game, bob), message_id=secret.pk, reason="threat")
    assert "PRIVATE-CANARY" in c.get(reverse("admin:chat_chatmessage_change", args=[secret.pk])).content.decode()
    other, (dave, erin, _) = chat_game(press=Press.FULL)
    after = message_post(game=other, user=dave, text="OVER-CANARY", to=[1])
    Game.objects.filter(pk=other.pk).update(status=GameStatus.FINISHED)
    assert "OVER-CANARY" in c.get(reverse("admin:chat_chatmessage_change", args=[after.pk])).content.decode()


def test_hiding_and_restoring_from_the_list_is_logged_and_the_author_told(staff_client):
    c, staff = staff_client
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=bob, text="spam")
    url = reverse("admin:chat_chatmessage_changelist")
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = c.post(url, {"action": "hide_messages", "_selected_action": [message.pk]})
    assert r.status_code == 302
    message.refresh_from_db()
    assert message.hidden_at is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        c.post(url, {"action": "restore_messages", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert message.hidden_at is None
    assert list(ModerationAction.objects.order_by("id").values_list("kind", "actor_id", "reason")) == [
        ("hide", staff.pk, "against the site's rules (reported)"), ("restore", staff.pk, "")]
    page = c.get(reverse("admin:chat_chatmessage_change", args=[message.pk])).content.decode()
    assert "hide" in page and "restore" in page  # the logged actions, with the message


def test_the_moderator_gives_the_reason_the_author_is_told(staff_client):
    c, staff = staff_client
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=bob, text="buy gold at ...")
    url = reverse("admin:chat_chatmessage_changelist")
    assert 'name="reason"' in c.get(url).content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        c.post(url, {"action": "hide_messages", "_selected_action": [message.pk], "reason": "  advertising  "})
    message.refresh_from_db()
    assert message.hidden_reason == "advertising"
    assert ModerationAction.objects.get().reason == "advertising"
    told = [m for m in mail.outbox if bob.email in m.to]
    assert len(told) == 1 and "advertising" in told[0].body


def test_notes_have_no_admin_page():
    assert SeatNote not in admin.site._registry
    game, (alice, _, _) = chat_game()
    note_save(seat=Seat.objects.get(game=game, user=alice), user=alice, text="NOTES-CANARY")
    assert ChatMessage not in (m for m in admin.site._registry if "note" in m._meta.model_name)
