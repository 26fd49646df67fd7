"""Reminders go at the player's lead time, not up to a period later (games/mail/reminders.py look-ahead):
every due reminder is sent within one period of its due time.

With a worker, a run of the reminders task queues the reminders that fall due before the next run, each
stored with ``not_before`` = its lead time and its send task enqueued with a countdown to then. The send
skips one whose prompt was answered or whose deadline moved meanwhile; one queued ahead is withdrawn
when what it was planned from changes (the player's preferences, the seat's holder) and the new plan
queues it again if still wanted. In-process (eager) there is nothing to hold a countdown: no look-ahead.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.test import TestCase, override_settings
from django.utils import timezone

from accounts.models import NotificationPreferences
from games.mail import delivery, reminders
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.mail.send_tasks import send_notifications
from games.models import Prompt
from games.services.admin_actions import seat_replace_player
from tests.factories import UserFactory
from tests.games.helpers import pick
from tests.mail.helpers import start_game

pytestmark = pytest.mark.django_db

PERIOD = timedelta(minutes=5)


def run_ahead(now):
    """One run of the reminders task as a worker runs it (look-ahead one period), send tasks recorded
    (mail.send_notifications: a batch of ids each)."""
    with mock.patch.object(send_notifications, "apply_async") as enqueue, \
            TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_run(now=now, budget_seconds=0, ahead_seconds=PERIOD.total_seconds())
    return enqueue.call_args_list


def reminder_rows(prompt):
    return list(Notification.objects.filter(kind=NotificationKind.REMINDER, prompt=prompt).order_by("id"))


def alice_prompt(leads=(24, 2)):
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user=alice).update(reminder_lead_hours=list(leads))
    return game, alice, Prompt.objects.get(seat__user=alice, closed_at__isnull=True)


def test_the_look_ahead_is_one_period_with_a_worker_and_none_in_process():
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, MAIL_REMINDER_INTERVAL_SECONDS=300.0):
        assert reminders.lookahead_seconds() == 300.0
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        assert reminders.lookahead_seconds() == 0.0


def test_each_reminder_is_queued_in_the_run_before_its_lead_time_to_go_at_it():
    """Runs every period over the prompt's life: each lead's reminder is stored once, by the last run
    before its lead time, not before its lead time, its send task counting down to that moment."""
    game, alice, prompt = alice_prompt()
    t = prompt.deadline - timedelta(hours=24, minutes=12)
    queued_at, countdowns = {}, {}
    while t < prompt.deadline:
        real_now = timezone.now()
        for call in run_ahead(t):
            for pk in call.kwargs["args"][0]:
                countdowns[pk] = (call.kwargs["countdown"], real_now)
        for row in reminder_rows(prompt):
            queued_at.setdefault(row.lead_hours, t)
        t += PERIOD if t < prompt.deadline - timedelta(hours=23) or t > prompt.deadline - timedelta(hours=3) \
            else timedelta(hours=1)
    rows = reminder_rows(prompt)
    assert [(r.lead_hours, r.not_before) for r in rows] == [
        (24, prompt.deadline - timedelta(hours=24)), (2, prompt.deadline - timedelta(hours=2))]
    for row in rows:
        assert row.not_before - PERIOD <= queued_at[row.lead_hours] < row.not_before
    for row in rows:  # each enqueued once, counting down to its lead time
        countdown, real_now = countdowns[row.pk]
        assert abs(countdown - (row.not_before - real_now).total_seconds()) < 5


def test_a_reminder_queued_ahead_waits_for_its_time_and_is_skipped_if_the_prompt_was_answered():
    game, alice, prompt = alice_prompt(leads=[2])
    due = prompt.deadline - timedelta(hours=2)
    run_ahead(due - timedelta(minutes=2))
    (row,) = reminder_rows(prompt)
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.PENDING  # not yet its time
    pick(game, prompt.seat.position)  # alice decides before her lead time
    Notification.objects.filter(pk=row.pk).update(not_before=timezone.now() - timedelta(seconds=1))  # its time came
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SKIPPED


def test_a_reminder_whose_time_came_is_sent_at_once():
    game, alice, prompt = alice_prompt(leads=[2])
    run_ahead(prompt.deadline - timedelta(hours=2, minutes=2))
    (row,) = reminder_rows(prompt)
    Notification.objects.filter(pk=row.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SENT


def test_a_preference_change_withdraws_a_reminder_queued_ahead_and_the_new_plan_queues_it_again():
    game, alice, prompt = alice_prompt(leads=[2])
    at = prompt.deadline - timedelta(hours=2, minutes=2)
    run_ahead(at)
    assert [r.lead_hours for r in reminder_rows(prompt)] == [2]
    prefs = NotificationPreferences.objects.get(user=alice)
    prefs.reminder_lead_hours = [2, 1]  # a lead added, the 2-hour one kept
    prefs.save()
    assert reminder_rows(prompt) == []
    run_ahead(at)
    assert [(r.lead_hours, r.not_before) for r in reminder_rows(prompt)] == [(2, prompt.deadline - timedelta(hours=2))]
    prefs.email_prompts = False  # switched off: withdrawn, and nothing planned again
    prefs.save()
    run_ahead(at)
    assert reminder_rows(prompt) == []


def test_a_seat_that_changes_hands_withdraws_the_old_holders_reminder_queued_ahead():
    game, alice, prompt = alice_prompt(leads=[2])
    at = prompt.deadline - timedelta(hours=2, minutes=2)
    run_ahead(at)
    assert [r.address for r in reminder_rows(prompt)] == [alice.email]
    carol, boss = UserFactory(), UserFactory()
    boss.is_staff = True  # the factory's post-generation save would not keep it
    boss.save()
    with TestCase.captureOnCommitCallbacks(execute=True):
        seat_replace_player(game=game, by=boss, position=prompt.seat.position, user=carol)
    run_ahead(at)
    assert [r.address for r in reminder_rows(prompt)] == [carol.email]
