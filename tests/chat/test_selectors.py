"""Who reads which message: the table for every seat and for spectators of a public game, a
private thread for its seats only, messages belonging to the seat, hidden and blocked ones left out."""

from __future__ import annotations

import pytest
from django.test import TestCase

from games.chat.moderation import message_hide, user_block
from games.chat.selectors import (message_as_dict, messages_for, reader_for, unread_by_game, unread_count)
from games.chat.services import message_post, messages_read
from games.models import Press, Seat
from games.services.admin_actions import seat_replace_player
from tests.factories import UserFactory

from .helpers import chat_game, reader, spectator

pytestmark = pytest.mark.django_db


def texts(game, user, since=0):
    return [m.text for m in messages_for(reader=reader(game, user), since=since)]


def _staff():
    u = UserFactory()
    u.is_staff = True
    u.save()
    return u


def test_each_seat_reads_the_table_and_its_own_threads_only():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    message_post(game=game, user=alice, text="table 1")
    message_post(game=game, user=alice, text="alice to bob", to=[1])
    message_post(game=game, user=carol, text="carol to alice and bob", to=[0, 1])
    message_post(game=game, user=bob, text="table 2")
    assert texts(game, alice) == ["table 1", "alice to bob", "carol to alice and bob", "table 2"]
    assert texts(game, bob) == ["table 1", "alice to bob", "carol to alice and bob", "table 2"]
    assert texts(game, carol) == ["table 1", "carol to alice and bob", "table 2"]


def test_a_spectator_of_a_public_game_reads_the_table_only_and_a_private_game_is_closed_to_them():
    game, (alice, bob, _) = chat_game(press=Press.FULL)
    message_post(game=game, user=alice, text="for all")
    message_post(game=game, user=alice, text="for bob", to=[1])
    assert texts(game, spectator()) == ["for all"]
    assert texts(game, _staff()) == ["for all"]  # staff read what a spectator reads, no private thread
    private, (dave, _, _) = chat_game(public=False)
    message_post(game=private, user=dave, text="behind closed doors")
    assert reader_for(game=private, user=spectator()) is None


def test_since_gives_only_newer_messages_oldest_first():
    game, (alice, bob, _) = chat_game()
    first = message_post(game=game, user=alice, text="one")
    message_post(game=game, user=bob, text="two")
    message_post(game=game, user=alice, text="three")
    assert texts(game, bob, since=first.pk) == ["two", "three"]


def test_whoever_holds_the_seat_reads_its_threads_and_the_replaced_player_loses_them_at_once():
    """Messages belong to the seat: whoever holds it reads its threads, and the replaced player loses them."""
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    message_post(game=game, user=alice, text="secret plan for seat 2", to=[1])
    newcomer = UserFactory()
    with TestCase.captureOnCommitCallbacks(execute=True):
        seat_replace_player(game=game, position=1, user=newcomer, by=_staff())
    assert texts(game, newcomer) == ["secret plan for seat 2"]
    bob_now = reader_for(game=game, user=bob)  # a spectator now: the table only
    assert bob_now is not None and bob_now.seat is None
    assert [m.text for m in messages_for(reader=bob_now)] == []


def test_a_hidden_message_is_read_by_nobody_but_its_author_who_sees_it_marked():
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=alice, text="rude")
    message_hide(message=message, by=_staff(), reason="rude")
    assert texts(game, bob) == [] and texts(game, spectator()) == []
    [own] = messages_for(reader=reader(game, alice))
    assert message_as_dict(own)["hidden"] is True


def test_a_deactivated_accounts_messages_stay_hidden_from_others():
    game, (alice, bob, _) = chat_game()
    message_post(game=game, user=bob, text="before the ban")
    bob.is_active = False
    bob.save()
    assert texts(game, alice) == [] and texts(game, spectator()) == []


def test_a_blocked_users_messages_are_hidden_from_the_blocker_at_every_table():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    other, _ = chat_game(users=[bob, alice])
    user_block(blocker=alice, blocked=bob)
    message_post(game=game, user=bob, text="at table one")
    message_post(game=game, user=bob, text="privately", to=[0])
    message_post(game=other, user=bob, text="at table two")
    assert texts(game, alice) == [] and texts(other, alice) == []
    assert texts(game, carol) == ["at table one"]  # a block is the blocker's alone


def test_unread_counts_leave_out_ones_own_and_what_was_read():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    message_post(game=game, user=alice, text="one")
    message_post(game=game, user=alice, text="two")
    last = message_post(game=game, user=bob, text="to carol only", to=[2])
    assert unread_count(reader=reader(game, alice)) == 0
    assert unread_count(reader=reader(game, bob)) == 2
    assert unread_count(reader=reader(game, carol)) == 3
    messages_read(seat=reader(game, carol).seat, up_to=last.pk)
    assert unread_count(reader=reader(game, carol)) == 0


def test_unread_by_game_counts_each_table_of_a_player_in_a_few_queries(django_assert_max_num_queries):
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    other, _ = chat_game(users=[bob, alice], press=Press.FULL)
    quiet, _ = chat_game(users=[alice, carol])
    message_post(game=game, user=bob, text="hi alice")
    message_post(game=game, user=bob, text="to carol", to=[2])
    message_post(game=other, user=bob, text="there too")
    message_post(game=other, user=bob, text="and to you", to=[1])
    seats = list(Seat.objects.filter(user=alice))
    with django_assert_max_num_queries(3):
        counts = unread_by_game(user=alice, seats=seats)
    assert counts == {game.pk: 1, other.pk: 2}
