"""The mail layer's periodic jobs cost what is due, not what exists.

Each job reads its due work through a stored time or flag and a partial index: the reminders task
(each open prompt's ``next_reminder_at``), the digest task (each reader's ``next_digest_at``) and the
prompt sweep (``mail_pending``). These tests count the rows and queries a run reads with more and more
work that is not due, and pin when reminders go and what moves them.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import NotificationPreferences, Vacation
from games.mail import digests, prompt_mails, reminders
from games.mail.models import Notification, NotificationKind
from games.models import Prompt
from tests.mail.helpers import start_game

pytestmark = pytest.mark.django_db


@contextmanager
def loaded(model):
    """Count the ``model`` instances built from database rows inside the block (rows a job read)."""
    counter = {"rows": 0}

    def count(sender, instance, **kwargs):
        counter["rows"] += 1

    post_init.connect(count, sender=model, weak=False)
    try:
        with CaptureQueriesContext(connection) as queries:
            yield counter
    finally:
        post_init.disconnect(count, sender=model)
    counter["queries"] = len(queries)


def run(fn, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return fn(**kwargs)


def reminders_of(prompt):
    return list(Notification.objects.filter(kind=NotificationKind.REMINDER, prompt=prompt)
                .order_by("id").values_list("lead_hours", flat=True))


def test_a_reminder_run_reads_no_prompt_that_is_not_due_however_many_are_open():
    """With every open prompt planned and none due, a run reads no prompt row and runs the same queries
    with 2 or 10 open prompts (not every prompt due within a week)."""
    start_game(players=2, options={"rounds": 1})
    now = timezone.now()
    run(reminders.reminders_due_queue, now=now)  # plans the new prompts
    with loaded(Prompt) as few:
        run(reminders.reminders_due_queue, now=now)
    for _ in range(4):
        start_game(players=2, options={"rounds": 1})
    run(reminders.reminders_due_queue, now=now)
    assert Prompt.objects.filter(closed_at__isnull=True).count() == 10
    with loaded(Prompt) as many:
        run(reminders.reminders_due_queue, now=now)
    assert few["rows"] == many["rows"] == 0
    assert few["queries"] == many["queries"]


def test_the_reminders_task_plans_each_new_prompt_once():
    """A new prompt is planned by the next run, then read again only when due."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    assert not prompt.reminder_planned
    now = timezone.now()
    run(reminders.reminders_due_queue, now=now)
    prompt.refresh_from_db()
    assert prompt.reminder_planned and prompt.next_reminder_at == prompt.deadline - timedelta(hours=24)
    with loaded(Prompt) as second:
        run(reminders.reminders_due_queue, now=now)
    assert second["rows"] == 0


def test_reminders_go_once_at_each_lead_time_when_the_task_runs_every_period():
    """The task run every 5 minutes over the prompt's life sends each lead's reminder
    exactly once, within one period after its lead time."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user=alice).update(reminder_lead_hours=[24, 2])
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    period = timedelta(minutes=5)
    t = prompt.deadline - timedelta(hours=24, minutes=12)
    sent_at = {}
    while t < prompt.deadline:
        run(reminders.reminders_due_queue, now=t)
        for lead in reminders_of(prompt):
            sent_at.setdefault(lead, t)
        t += period if t < prompt.deadline - timedelta(hours=23) or t > prompt.deadline - timedelta(hours=3) \
            else timedelta(hours=1)  # the quiet hours in between, faster
    assert reminders_of(prompt) == [24, 2]
    for lead, at in sent_at.items():
        lead_time = prompt.deadline - timedelta(hours=lead)
        assert lead_time <= at < lead_time + period


def test_a_preference_change_moves_the_next_reminder():
    """Saving other lead times plans the open prompts again: the next reminder moves."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    now = timezone.now()
    run(reminders.reminders_due_queue, now=now)
    prefs, _ = NotificationPreferences.objects.get_or_create(user=alice)
    prefs.reminder_lead_hours = [36]
    prefs.save()
    prompt.refresh_from_db()
    assert not prompt.reminder_planned
    run(reminders.reminders_due_queue, now=now)
    prompt.refresh_from_db()
    assert prompt.next_reminder_at == prompt.deadline - timedelta(hours=36)
    run(reminders.reminders_due_queue, now=prompt.deadline - timedelta(hours=35))
    assert reminders_of(prompt) == [36]
    prefs.email_prompts = False  # and switching prompt emails off leaves no reminder planned
    prefs.save()
    run(reminders.reminders_due_queue, now=now)
    prompt.refresh_from_db()
    assert prompt.reminder_planned and prompt.next_reminder_at is None


def test_a_vacation_booked_or_cancelled_plans_the_players_reminders_again():
    """A vacation changes when the player can act: their open prompts are planned again."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    now = timezone.now()
    run(reminders.reminders_due_queue, now=now)
    vacation = Vacation.objects.create(user=alice, starts=now + timedelta(days=5), ends=now + timedelta(days=6))
    assert list(Prompt.objects.filter(closed_at__isnull=True, reminder_planned=False)
                .values_list("seat__user", flat=True)) == [alice.pk]
    run(reminders.reminders_due_queue, now=now)
    vacation.delete()
    assert Prompt.objects.filter(closed_at__isnull=True, reminder_planned=False).count() == 1


def test_a_paused_games_prompts_get_no_reminder_until_the_resume_plans_them_again():
    """A due prompt of a paused game is dropped from the due index, not re-read each run."""
    from games.services.lifecycle import game_pause, game_resume

    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    run(reminders.reminders_due_queue, now=timezone.now())
    game_pause(game=game, by=alice)
    run(reminders.reminders_due_queue, now=prompt.deadline - timedelta(hours=1))
    prompt.refresh_from_db()
    assert reminders_of(prompt) == [] and prompt.next_reminder_at is None
    game_resume(game=game, by=alice)
    prompt.refresh_from_db()
    assert not prompt.reminder_planned


def test_only_the_digests_due_this_hour_are_read():
    """One query finds a batch of due readers; readers whose digest is not due cost nothing (no query per
    reader on every hourly run)."""
    game, users = start_game(players=4, options={"rounds": 1})
    NotificationPreferences.objects.filter(user__in=users).update(digest=True)
    now = timezone.now()
    run(digests.digests_queue, now=now)  # every reader's first digest (or first look): next one in a day
    assert not NotificationPreferences.objects.filter(digest=True, next_digest_at__lte=now).exists()
    with loaded(NotificationPreferences) as none_due:
        assert run(digests.digests_queue, now=now + timedelta(hours=1)) == 0
    assert none_due["rows"] == 0 and none_due["queries"] <= 6  # two claims (never read; due), savepoints
    # One reader due again: only that one is read.
    NotificationPreferences.objects.filter(user=users[0]).update(next_digest_at=now)
    with loaded(NotificationPreferences) as one_due:
        run(digests.digests_queue, now=now + timedelta(hours=1))
    assert one_due["rows"] == 1


def test_a_digest_reader_with_nothing_new_keeps_the_window_for_the_next_day():
    """Nothing to tell is looked at again in a day (not every hour), from the same start."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user=alice).update(digest=True)
    now = timezone.now() + timedelta(days=2)  # the game's start events are older than a day by then
    assert run(digests.digests_queue, now=now) == 0
    prefs = NotificationPreferences.objects.get(user=alice)
    assert prefs.digest_since is None and prefs.next_digest_at == now + digests.DIGEST_EVERY


def test_the_prompt_sweep_reads_only_prompts_whose_email_is_not_settled():
    """Prompts emailed by their write's task leave the sweep's index; a sweep then reads no prompt however
    many are open (not every open prompt of the last day)."""
    for _ in range(3):
        start_game(players=2, options={"rounds": 1})
    assert not Prompt.objects.filter(closed_at__isnull=True, mail_pending=True).exists()
    with loaded(Prompt) as sweep:
        assert run(prompt_mails.due_prompt_notifications_queue, now=timezone.now() + timedelta(minutes=15)) == 0
    assert sweep["rows"] == 0
