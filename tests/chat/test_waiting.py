"""``?wait`` for messages: a reader waiting is woken by the first message for them, not by
private messages to others; with none, the wait ends empty after its seconds."""

from __future__ import annotations

import pytest

from games.chat.services import message_post
from games.chat.waiting import CHECK_MAX_SECONDS, check_interval, messages_wait
from games.models import Press

from .helpers import chat_game, reader

pytestmark = pytest.mark.django_db


class FakeTime:
    """A clock that moves only when the wait sleeps; ``at`` runs a callback once that time is reached."""

    def __init__(self, events=()):
        self.now, self.events, self.sleeps = 0.0, sorted(events, key=lambda e: e[0]), []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        while self.events and self.events[0][0] <= self.now:
            self.events.pop(0)[1]()


def test_a_message_already_there_is_answered_at_once():
    game, (alice, bob, _) = chat_game()
    message_post(game=game, user=alice, text="hi")
    fake = FakeTime()
    found = messages_wait(reader=reader(game, bob), since=0, seconds=30, clock=fake.clock, sleep=fake.sleep)
    assert [m.text for m in found] == ["hi"] and fake.sleeps == []


def test_the_wait_wakes_within_a_quarter_second_of_the_message_for_this_reader_and_not_for_others():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    fake = FakeTime([(2.0, lambda: message_post(game=game, user=alice, text="to carol", to=[2])),
                     (5.0, lambda: message_post(game=game, user=alice, text="to bob", to=[1]))])
    found = messages_wait(reader=reader(game, bob), since=0, seconds=30, clock=fake.clock, sleep=fake.sleep)
    assert [m.text for m in found] == ["to bob"]
    assert 5.0 <= fake.now <= 5.0 + CHECK_MAX_SECONDS


def test_with_nothing_new_the_wait_ends_empty_after_its_seconds():
    game, (alice, bob, _) = chat_game()
    fake = FakeTime()
    assert messages_wait(reader=reader(game, bob), since=0, seconds=3, clock=fake.clock, sleep=fake.sleep) == []
    assert fake.now == pytest.approx(3.0)


def test_checks_start_often_and_slow_down_to_a_quarter_second():
    assert check_interval(0) == 0.02 and check_interval(1) == 0.05 and check_interval(30) == CHECK_MAX_SECONDS
