"""Private notes: per seat and player, at most 20,000 characters, nobody else's."""

from __future__ import annotations

import pytest

from games.chat.errors import ChatError, ChatErrorCode
from games.chat.notes import note_save
from games.chat.selectors import note_text
from games.models import Seat
from tests.factories import UserFactory

from .helpers import chat_game

pytestmark = pytest.mark.django_db


def test_notes_are_the_players_own_at_their_seat():
    game, (alice, bob, _) = chat_game()
    seat = Seat.objects.get(game=game, user=alice)
    note_save(seat=seat, user=alice, text="bob bluffs on high bets")
    assert note_text(seat=seat, user=alice) == "bob bluffs on high bets"
    assert note_text(seat=seat, user=UserFactory()) == ""  # a newcomer at the seat starts with none
    note_save(seat=seat, user=alice, text="")
    assert note_text(seat=seat, user=alice) == ""


@pytest.mark.parametrize("text, code", [("x" * 20_001, ChatErrorCode.TOO_LONG),
                                        ("a\x00b", ChatErrorCode.BAD_CHARACTERS)])
def test_notes_too_long_or_with_a_nul_are_refused_and_the_old_ones_kept(text, code):
    game, (alice, _, _) = chat_game()
    seat = Seat.objects.get(game=game, user=alice)
    note_save(seat=seat, user=alice, text="keep me")
    with pytest.raises(ChatError) as caught:
        note_save(seat=seat, user=alice, text=text)
    assert caught.value.code == code
    assert note_text(seat=seat, user=alice) == "keep me"
    assert note_save(seat=seat, user=alice, text="y" * 20_000).text == "y" * 20_000
