"""Posting to a game's table and to private threads, and every refusal."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games.chat.errors import ChatError, ChatErrorCode
from games.chat.models import ChatMessage
from games.chat.moderation import player_mute
from games.chat.selectors import message_as_dict
from games.chat.services import message_post
from games.models import Game, GameStatus, Press

from .helpers import chat_game, spectator

pytestmark = pytest.mark.django_db


def _refused(code: ChatErrorCode, **kwargs) -> ChatError:
    with pytest.raises(ChatError) as caught:
        message_post(**kwargs)
    assert caught.value.code == code, caught.value.detail
    return caught.value


def test_a_table_message_is_stored_as_typed_with_its_seat_and_step():
    game, (alice, bob, carol) = chat_game(press=Press.TABLE)
    text = "  <b>hello</b> & good luck\nsecond line  "
    message = message_post(game=game, user=bob, text=text)
    body = message_as_dict(message)
    assert body["seat"] == 1 and body["to"] is None and body["text"] == text
    assert message.phase == game.phase and message.author == bob


def test_a_private_message_names_its_other_seats_in_to():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    message = message_post(game=game, user=alice, text="just us", to=[2, 1, 2])
    assert message_as_dict(message)["to"] == [1, 2]


def test_press_table_refuses_private_messages_and_press_none_refuses_all():
    """In a table game a private message is refused (403 press_off); with press none, all talk is."""
    game, (alice, bob, _) = chat_game(press=Press.TABLE)
    assert _refused(ChatErrorCode.PRESS_OFF, game=game, user=alice, text="psst", to=[1]).code.http_status == 403
    game, (alice, _, _) = chat_game(press=Press.NONE)
    _refused(ChatErrorCode.PRESS_OFF, game=game, user=alice, text="hello")
    assert not ChatMessage.objects.exists()


def test_spectators_staff_without_a_seat_and_deactivated_players_do_not_post():
    game, (alice, bob, _) = chat_game()
    _refused(ChatErrorCode.NOT_A_PLAYER, game=game, user=spectator(), text="hi")
    staff = spectator()
    staff.is_staff = True
    staff.save()
    _refused(ChatErrorCode.NOT_A_PLAYER, game=game, user=staff, text="hi")
    bob.is_active = False
    bob.save()
    _refused(ChatErrorCode.ACCOUNT_DEACTIVATED, game=game, user=bob, text="hi")
    assert not ChatMessage.objects.exists()


def test_a_muted_player_is_refused_and_others_still_post():
    game, (alice, bob, carol) = chat_game()
    player_mute(game=game, position=1, by=alice)
    _refused(ChatErrorCode.MUTED, game=game, user=bob, text="let me talk")
    assert message_post(game=game, user=carol, text="I can").pk


@pytest.mark.parametrize("text, code", [
    ("", ChatErrorCode.EMPTY),
    ("   \n\t ", ChatErrorCode.EMPTY),
    ("x" * 2001, ChatErrorCode.TOO_LONG),
    ("nul \x00 inside", ChatErrorCode.BAD_CHARACTERS),
    ("bell \x07", ChatErrorCode.BAD_CHARACTERS),
    ("evil \u202e txt.exe", ChatErrorCode.BAD_CHARACTERS),
    ("isolate \u2066x\u2069", ChatErrorCode.BAD_CHARACTERS),
])
def test_text_that_cannot_be_shown_as_typed_is_refused_with_a_clear_error(text, code):
    game, (alice, _, _) = chat_game()
    error = _refused(code, game=game, user=alice, text=text)
    assert error.code.http_status == 400 and error.detail
    assert not ChatMessage.objects.exists()


def test_the_longest_message_and_markup_are_kept_exactly():
    game, (alice, _, _) = chat_game()
    assert message_post(game=game, user=alice, text="é" * 2000).text == "é" * 2000
    markup = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    assert message_post(game=game, user=alice, text=markup).text == markup


@pytest.mark.parametrize("to", [[], [3], [-1], [0], ["1"], [True], [1.5]])
def test_recipients_must_be_other_seats_of_the_game(to):
    game, (alice, _, _) = chat_game(press=Press.FULL)
    _refused(ChatErrorCode.BAD_RECIPIENTS, game=game, user=alice, text="to whom?", to=to)


def test_a_game_that_is_over_takes_no_more_talk():
    game, (alice, _, _) = chat_game()
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    game.refresh_from_db()
    assert _refused(ChatErrorCode.GAME_OVER, game=game, user=alice, text="gg").code.http_status == 409


@override_settings(CHAT_MESSAGES_PER_MINUTE=3, CHAT_MESSAGES_PER_DAY=200)
def test_past_the_rate_a_post_is_a_429_with_retry_after_and_stores_nothing():
    game, (alice, bob, _) = chat_game()
    for i in range(3):
        message_post(game=game, user=alice, text=f"message {i}")
    error = _refused(ChatErrorCode.RATE_LIMITED, game=game, user=alice, text="one too many")
    assert error.code.http_status == 429 and error.retry_after == 60
    assert ChatMessage.objects.count() == 3
    assert message_post(game=game, user=bob, text="the rate is per user").pk


@override_settings(CHAT_MESSAGES_PER_MINUTE=100, CHAT_MESSAGES_PER_DAY=4)
def test_the_daily_rate_counts_every_table_together():
    game, (alice, bob, carol) = chat_game()
    other, _ = chat_game(users=[alice, spectator()])
    for table in (game, other, game, other):
        message_post(game=table, user=alice, text="hi")
    error = _refused(ChatErrorCode.RATE_LIMITED, game=game, user=alice, text="over the day")
    assert error.retry_after == 24 * 3600 and ChatMessage.objects.filter(author=alice).count() == 4
