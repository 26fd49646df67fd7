"""Moderation: reports, staff hiding and restoring (logged, the author told), table mutes by the
creator or staff, and blocks."""

from __future__ import annotations

import pytest
from django.test import TestCase

from games.chat.errors import ChatError, ChatErrorCode
from games.chat.models import ChatReport, ModerationAction, ModerationKind, TableMute
from games.chat.moderation import (message_hide, message_report, message_restore, player_mute, player_unmute,
                                   user_block, user_unblock)
from games.chat.selectors import messages_for
from games.chat.services import message_post
from games.chat.signals import message_moderated
from games.models import Press
from tests.factories import UserFactory

from .helpers import chat_game, reader, spectator

pytestmark = pytest.mark.django_db


def _staff():
    u = UserFactory()
    u.is_staff = True
    u.save()
    return u


def test_a_reader_reports_a_message_once_and_a_second_report_updates_the_reason():
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=alice, text="spam spam")
    watcher = spectator()
    message_report(reader=reader(game, watcher), message_id=message.pk, reason="spam")
    message_report(reader=reader(game, watcher), message_id=message.pk, reason="advertising")
    assert list(ChatReport.objects.values_list("reason", flat=True)) == ["advertising"]


def test_nobody_reports_a_message_they_cannot_read():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    private = message_post(game=game, user=alice, text="for bob", to=[1])
    with pytest.raises(ChatError) as caught:
        message_report(reader=reader(game, carol), message_id=private.pk, reason="?")
    assert caught.value.code == ChatErrorCode.NO_SUCH_MESSAGE and not ChatReport.objects.exists()


def test_staff_hide_and_restore_a_message_each_logged_the_reports_settled_and_the_author_told():
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=alice, text="insult")
    message_report(reader=reader(game, bob), message_id=message.pk, reason="insulting")
    staff = _staff()
    told = []

    def receiver(sender, message, kind, actor, reason, **kwargs):
        told.append((message.author_id, kind, reason))

    message_moderated.connect(receiver)
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            message_hide(message=message, by=staff, reason="insults are not allowed")
            message_hide(message=message, by=staff, reason="twice")  # no second log line
        assert messages_for(reader=reader(game, bob)) == []
        with TestCase.captureOnCommitCallbacks(execute=True):
            message_restore(message=message, by=staff, reason="on appeal")
    finally:
        message_moderated.disconnect(receiver)
    assert [m.text for m in messages_for(reader=reader(game, bob))] == ["insult"]
    log = list(ModerationAction.objects.order_by("id").values_list("kind", "actor_id", "target_id", "reason"))
    assert log == [(ModerationKind.HIDE, staff.pk, alice.pk, "insults are not allowed"),
                   (ModerationKind.RESTORE, staff.pk, alice.pk, "on appeal")]
    assert told == [(alice.pk, "hide", "insults are not allowed"), (alice.pk, "restore", "on appeal")]
    assert ChatReport.objects.get().settled_at is not None


def test_only_staff_hide_messages():
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=bob, text="hm")
    with pytest.raises(ChatError) as caught:
        message_hide(message=message, by=alice, reason="I am the creator")
    assert caught.value.code == ChatErrorCode.NOT_MODERATOR and not ModerationAction.objects.exists()


def test_the_creator_and_staff_mute_and_unmute_and_nobody_else_does():
    game, (alice, bob, carol) = chat_game()
    with pytest.raises(ChatError) as caught:
        player_mute(game=game, position=2, by=bob)
    assert caught.value.code == ChatErrorCode.NOT_MODERATOR
    player_mute(game=game, position=2, by=alice, reason="shouting")
    player_mute(game=game, position=2, by=_staff())  # already muted: nothing more logged
    assert TableMute.objects.filter(game=game, user=carol).exists()
    player_unmute(game=game, position=2, by=_staff())
    assert not TableMute.objects.exists()
    assert list(ModerationAction.objects.order_by("id").values_list("kind", flat=True)) == ["mute", "unmute"]
    with pytest.raises(ChatError):
        player_mute(game=game, position=0, by=alice)  # not oneself


def test_a_mute_is_for_one_table_only():
    game, (alice, bob, _) = chat_game()
    other, _ = chat_game(users=[bob, alice])
    player_mute(game=game, position=1, by=alice)
    assert message_post(game=other, user=bob, text="free to talk here").pk


def test_unblocking_shows_the_messages_again():
    game, (alice, bob, _) = chat_game()
    message_post(game=game, user=bob, text="hello")
    user_block(blocker=alice, blocked=bob)
    user_block(blocker=alice, blocked=bob)
    assert messages_for(reader=reader(game, alice)) == []
    user_unblock(blocker=alice, blocked=bob)
    assert [m.text for m in messages_for(reader=reader(game, alice))] == ["hello"]
    with pytest.raises(ChatError):
        user_block(blocker=alice, blocked=alice)
