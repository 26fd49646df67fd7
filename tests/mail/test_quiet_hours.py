"""Quiet hours: a player may set hours (in their time zone) when no mail is sent; what falls due then goes in
one mail when they end. Deadlines are unaffected. Across a daylight-saving change: Europe/Berlin moves
its clocks on the last Sunday of March (02:00 CET -> 03:00 CEST, 01:00 UTC) and of October (03:00 CEST ->
02:00 CET, 01:00 UTC); 22:00 to 07:00 stays 22:00 to 07:00 on the wall clock. The clock is injected (the
``now`` of quiet_until and notification_send), no freezegun or time-machine is in the requirements.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone as dt_timezone

import pytest
from django.core import mail
from django.test import TestCase

from accounts.models import NotificationPreferences
from accounts.quiet_hours import quiet_until
from games.mail import delivery, prompt_mails, reminders
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.mail.outbox import thread_id
from games.models import Prompt
from tests.factories import make_started_game
from tests.mail.helpers import mails_to

pytestmark = pytest.mark.django_db

UTC = dt_timezone.utc
BERLIN = "Europe/Berlin"


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def prefs(start: time, end: time) -> NotificationPreferences:
    return NotificationPreferences(quiet_start=start, quiet_end=end)


NIGHT = prefs(time(22, 0), time(7, 0))


@pytest.mark.parametrize("now, ends", [
    # A winter night: 22:00-07:00 CET is 21:00-06:00 UTC.
    (at(2026, 1, 10, 21, 30), at(2026, 1, 11, 6, 0)),
    # The night of the spring change (Sun 29 March 2026): it began at 22:00 CET and ends at 07:00 CEST, 05:00 UTC.
    (at(2026, 3, 28, 21, 30), at(2026, 3, 29, 5, 0)),  # Saturday 22:30 CET
    (at(2026, 3, 28, 23, 30), at(2026, 3, 29, 5, 0)),  # Sunday 00:30 CET, before the change
    (at(2026, 3, 29, 1, 30), at(2026, 3, 29, 5, 0)),   # Sunday 03:30 CEST, after it
    # The night of the autumn change (Sun 25 October 2026): began 22:00 CEST, ends 07:00 CET, 06:00 UTC.
    (at(2026, 10, 24, 20, 30), at(2026, 10, 25, 6, 0)),  # Saturday 22:30 CEST
    (at(2026, 10, 25, 0, 30), at(2026, 10, 25, 6, 0)),   # 02:30 CEST, the first of the two 02:30s
    (at(2026, 10, 25, 1, 30), at(2026, 10, 25, 6, 0)),   # 02:30 CET, the second
    # A summer night: 22:00-07:00 CEST is 20:00-05:00 UTC.
    (at(2026, 7, 1, 20, 30), at(2026, 7, 2, 5, 0)),
])
def test_quiet_hours_end_at_seven_on_the_players_wall_clock_across_a_clock_change(now, ends):
    assert quiet_until(NIGHT, tz_name=BERLIN, now=now) == ends


@pytest.mark.parametrize("now", [
    at(2026, 3, 29, 5, 0),    # 07:00 CEST: over (an hour earlier in UTC than the night before the change)
    at(2026, 3, 28, 20, 59),  # Saturday 21:59 CET: not begun
    at(2026, 10, 25, 6, 0),   # 07:00 CET: over
    at(2026, 10, 24, 19, 59),  # Saturday 21:59 CEST: not begun
    at(2026, 7, 1, 12, 0),
])
def test_outside_the_quiet_hours_nothing_is_held(now):
    assert quiet_until(NIGHT, tz_name=BERLIN, now=now) is None


def test_quiet_hours_that_end_in_the_skipped_hour_end_after_it():
    """Ending at 02:30 on the spring night, an hour that does not exist in Berlin: they end once the clocks
    have jumped (03:30 CEST), never before the jump and never a day late."""
    ends = quiet_until(prefs(time(23, 0), time(2, 30)), tz_name=BERLIN, now=at(2026, 3, 28, 23, 0))
    assert at(2026, 3, 29, 1, 0) <= ends <= at(2026, 3, 29, 1, 30)


def test_an_unknown_zone_is_utc_and_equal_times_are_no_quiet_hours():
    assert quiet_until(NIGHT, tz_name="Mars/Olympus", now=at(2026, 1, 10, 23, 0)) == at(2026, 1, 11, 7, 0)
    assert quiet_until(prefs(time(7, 0), time(7, 0)), tz_name=BERLIN, now=at(2026, 1, 10, 23, 0)) is None


def test_mail_held_through_the_spring_change_goes_in_one_mail_at_seven_berlin_time():
    """Alice (Berlin, quiet 22:00-07:00) has a decision and a reminder fall due on the night the clocks go
    forward (Sun 28 March 2027): both are held, and at 07:00 CEST (05:00 UTC, not 06:00) one mail carries them,
    in the game's thread. Before 07:00 nothing goes."""
    with TestCase.captureOnCommitCallbacks(execute=False):
        game, (alice, bob) = make_started_game(players=2, options={"rounds": 1})
    alice.timezone = BERLIN
    alice.save(update_fields=["timezone"])
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"quiet_start": time(22), "quiet_end": time(7)})
    prompt = Prompt.objects.get(game=game, seat__user=alice, closed_at__isnull=True)
    with TestCase.captureOnCommitCallbacks(execute=False):  # the send tasks do not run: the clock is ours
        prompt_mails.prompt_notifications_queue(prompt_ids=[prompt.pk])
        reminders.reminders_due_queue(now=prompt.deadline - timedelta(hours=1, minutes=30))
    rows = list(Notification.objects.filter(user=alice, kind__in=[NotificationKind.PROMPT, NotificationKind.REMINDER])
                .order_by("pk"))
    assert [r.kind for r in rows] == [NotificationKind.PROMPT, NotificationKind.REMINDER]
    mail.outbox.clear()
    night = [at(2027, 3, 27, 22, 30), at(2027, 3, 28, 0, 30)]  # 23:30 CET Saturday; 01:30 CET Sunday
    for row, now in zip(rows, night):
        assert delivery.notification_send(notification_id=row.pk, now=now) == delivery.POSTPONED
    for row in rows:
        row.refresh_from_db()
        assert row.quiet_held and row.not_before == at(2027, 3, 28, 5, 0), row.not_before
    # 06:59 CEST: still quiet.
    assert delivery.notification_send(notification_id=rows[0].pk, now=at(2027, 3, 28, 4, 59)) != NotificationStatus.SENT
    assert mails_to(alice.email) == []
    # 07:00 CEST: one mail with both.
    assert delivery.notification_send(notification_id=rows[0].pk, now=at(2027, 3, 28, 5, 0)) == NotificationStatus.SENT
    box = mails_to(alice.email)
    assert len(box) == 1, [m.subject for m in box]
    m = box[0]
    assert m.subject == f"Tiny Game #{game.pk}: 2 mails from your quiet hours" or \
        m.subject.endswith(": 2 mails from your quiet hours"), m.subject
    for row in rows:
        row.refresh_from_db()
        assert row.status == NotificationStatus.SENT
        assert row.subject in m.body
    assert m.extra_headers["References"] == thread_id(game_id=game.pk, user_id=alice.pk)
    # The reminder's own send later finds it sent: never twice.
    assert delivery.notification_send(notification_id=rows[1].pk, now=at(2027, 3, 28, 5, 1)) == NotificationStatus.SENT
    assert len(mails_to(alice.email)) == 1
    # Deadlines are unaffected by quiet hours.
    assert Prompt.objects.get(pk=prompt.pk).deadline == prompt.deadline
