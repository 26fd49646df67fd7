"""Stacked vacations cannot stretch a game without end: at most
VACATION_MAX_DAYS_PER_YEAR days away in any 365 days, and one game's deadlines stretched by at most
VACATION_MAX_DAYS_PER_GAME days per player over the game's life."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import Vacation
from accounts.services import vacation_create
from games.models import Seat
from games.services import clock
from tests.factories import UserFactory, make_started_game
from tests.mail.helpers import latest_prompt_mail, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOUR_CLOCK = {"type": "fixed", "step_seconds": 3600}


def test_four_back_to_back_90_day_vacations_cannot_be_booked():
    user, now = UserFactory(), timezone.now()
    with pytest.raises(ValueError, match="in any 365 days"):  # VacationLimitError
        vacation_create(user=user, starts=now + DAY, ends=now + 91 * DAY)
    assert not Vacation.objects.exists()


def test_the_yearly_cap_counts_every_365_day_window():
    user, now = UserFactory(), timezone.now()
    cap = settings.VACATION_MAX_DAYS_PER_YEAR
    vacation_create(user=user, starts=now + DAY, ends=now + (1 + cap - 10) * DAY)
    vacation_create(user=user, starts=now + 100 * DAY, ends=now + 110 * DAY)  # exactly the cap in all
    for starts in [now + 200 * DAY, now + 300 * DAY, now - 200 * DAY]:  # any window holding both is full
        with pytest.raises(ValueError, match=f"{cap} days in any 365 days"):  # VacationLimitError
            vacation_create(user=user, starts=starts, ends=starts + DAY)
    vacation_create(user=user, starts=now + 480 * DAY, ends=now + 485 * DAY)  # a year after the first ended
    assert Vacation.objects.filter(user=user).count() == 3


def test_stacked_vacations_stretch_a_one_hour_clock_by_at_most_the_per_game_cap():
    """The attack: four back-to-back 90-day vacations (however recorded) stretched a 1-hour deadline by a year."""
    game, (alice, _) = make_started_game(players=2, clock=HOUR_CLOCK)
    now = timezone.now()
    for n in range(4):
        Vacation.objects.create(user=alice, starts=now + n * 90 * DAY, ends=now + (n + 1) * 90 * DAY)
    seat = Seat.objects.get(game=game, user=alice)
    deadline = clock.prompt_deadline(game=game, seat=seat, now=now)
    assert deadline == now + timedelta(days=settings.VACATION_MAX_DAYS_PER_GAME, hours=1)


def test_vacation_already_spent_in_a_game_counts_against_its_cap():
    game, (alice, _) = make_started_game(players=2, clock=HOUR_CLOCK)
    now = timezone.now()
    cap = settings.VACATION_MAX_DAYS_PER_GAME
    type(game).objects.filter(pk=game.pk).update(started_at=now - 60 * DAY)
    game.refresh_from_db()
    Vacation.objects.create(user=alice, starts=now - 50 * DAY, ends=now - (50 - cap + 1) * DAY)  # cap - 1 days
    Vacation.objects.create(user=alice, starts=now + timedelta(minutes=30), ends=now + 10 * DAY)
    seat = Seat.objects.get(game=game, user=alice)
    assert clock.prompt_deadline(game=game, seat=seat, now=now) == now + timedelta(days=1, hours=1)
    # And the wait for a player whose deadline passes while away is capped alike.
    assert clock.vacation_stretch_left(game=game, user_id=alice.pk, now=now) == DAY


def test_the_vacation_page_states_the_caps_and_refuses_a_booking_over_them(client):
    user = UserFactory(timezone="UTC")
    client.force_login(user)
    page = client.get("/accounts/vacations/").content.decode()
    assert (f"{settings.VACATION_MAX_DAYS_PER_YEAR} days in any 365 days" in page
            and f"{settings.VACATION_MAX_DAYS_PER_GAME} days</strong> over the whole game" in page)
    start, fmt = timezone.now() + 2 * DAY, "%Y-%m-%dT%H:%M"
    r = client.post("/accounts/vacations/", {"starts": start.strftime(fmt),
                                             "ends": (start + 40 * DAY).strftime(fmt)})
    assert r.status_code == 200 and b"in any 365 days" in r.content and not Vacation.objects.exists()


def test_a_vacation_under_way_cannot_be_cancelled_to_win_its_days_back(client):
    user = UserFactory()
    client.force_login(user)
    now = timezone.now()
    under_way = vacation_create(user=user, starts=now - DAY, ends=now + 5 * DAY)
    ahead = vacation_create(user=user, starts=now + 10 * DAY, ends=now + 12 * DAY)
    client.post(f"/accounts/vacations/{under_way.pk}/cancel/")
    client.post(f"/accounts/vacations/{ahead.pk}/cancel/")
    assert list(Vacation.objects.values_list("pk", flat=True)) == [under_way.pk]


def test_the_email_vacation_command_obeys_the_yearly_cap():
    game, (alice, _) = start_game(players=2, options={"rounds": 1})
    now, cap = timezone.now(), settings.VACATION_MAX_DAYS_PER_YEAR
    vacation_create(user=alice, starts=now + 40 * DAY, ends=now + (40 + cap - 5) * DAY)  # 5 days left this year
    m = latest_prompt_mail(alice.email)
    assert pipe(reply_bytes(m, "vacation 6")).startswith("refused vacation-cap")
    assert pipe(reply_bytes(m, "vacation 5")).startswith("command vacation")
    assert Vacation.objects.filter(user=alice).count() == 2
