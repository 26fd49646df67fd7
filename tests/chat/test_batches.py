"""The chat mail's batches: a message starts each other seat's window; what was read
on the page is not mailed; a mailed batch closes the window and the next message opens a new one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from games.chat.batches import batch_mailed, batch_settled, due_seats_claim, unmailed_messages
from games.chat.models import SeatChat
from games.chat.services import message_post, messages_read
from games.models import Press, Seat

from .helpers import chat_game

pytestmark = pytest.mark.django_db


def seat_of(game, position):
    return Seat.objects.select_related("game", "user").get(game=game, position=position)


def claimed(now):
    with transaction.atomic():
        return {c.seat_id for c in due_seats_claim(now=now)}


@override_settings(CHAT_MAIL_BATCH_SECONDS=1800)
def test_the_first_unread_message_starts_the_window_of_the_seats_it_is_for_and_later_ones_keep_it():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    before = timezone.now()
    message_post(game=game, user=alice, text="to bob", to=[1])
    due = SeatChat.objects.get(seat=seat_of(game, 1)).mail_due_at
    assert before + timedelta(seconds=1800) <= due <= timezone.now() + timedelta(seconds=1800)
    assert not SeatChat.objects.filter(seat=seat_of(game, 2), mail_due_at__isnull=False).exists()
    assert not SeatChat.objects.filter(seat=seat_of(game, 0), mail_due_at__isnull=False).exists()  # the author
    message_post(game=game, user=alice, text="to all")
    assert SeatChat.objects.get(seat=seat_of(game, 1)).mail_due_at == due  # the window is not pushed back
    assert claimed(due - timedelta(seconds=1)) == set()
    assert claimed(due) == {seat_of(game, 1).pk}


def test_a_batch_carries_what_was_neither_read_nor_mailed_and_its_mail_closes_the_window():
    game, (alice, bob, _) = chat_game()
    first = message_post(game=game, user=alice, text="one")
    messages_read(seat=seat_of(game, 1), up_to=first.pk)  # read on the page
    second = message_post(game=game, user=alice, text="two")
    bob_seat = seat_of(game, 1)
    assert [m.text for m in unmailed_messages(seat=bob_seat)] == ["two"]
    batch_mailed(seat=bob_seat, up_to=second.pk)
    assert unmailed_messages(seat=bob_seat) == []
    assert SeatChat.objects.get(seat=bob_seat).mail_due_at is None
    message_post(game=game, user=alice, text="three")
    assert SeatChat.objects.get(seat=bob_seat).mail_due_at is not None
    assert [m.text for m in unmailed_messages(seat=bob_seat)] == ["three"]


def test_a_window_whose_messages_were_all_read_is_settled_without_mail():
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=alice, text="seen live")
    bob_seat = seat_of(game, 1)
    messages_read(seat=bob_seat, up_to=message.pk)
    assert unmailed_messages(seat=bob_seat) == []
    batch_settled(seat=bob_seat)
    assert bob_seat.pk not in claimed(timezone.now() + timedelta(days=1))
