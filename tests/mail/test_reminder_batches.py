"""The reminders task renders and stores a batch at a time and works within a time budget.

A batch of due reminders costs the same statements whatever its size (no query per reminder); a run
stops at its budget and the next run (the task's continuation) goes on in due order, each reminder
queued exactly once; a seat without a mailbox gets one, the same as the one-at-a-time path makes.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test import TestCase, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.mail import reminders, tokens
from games.mail.models import Notification, NotificationKind, SeatMailbox
from games.mail.tasks import send_due_reminders
from games.models import Prompt, Seat
from tests.mail.helpers import start_game

pytestmark = pytest.mark.django_db


def _planned_games(n: int) -> list[Prompt]:
    """``n`` two-player games, their open prompts planned; returns those prompts."""
    games = [start_game(players=2, options={"rounds": 1})[0] for _ in range(n)]
    prompts = list(Prompt.objects.filter(game__in=games, closed_at__isnull=True).order_by("id"))
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=min(p.deadline for p in prompts) - timedelta(hours=30))
    return prompts


def _due_at(prompts) -> timezone.datetime:
    return min(p.deadline for p in prompts) - timedelta(hours=1)  # every default 2-hour lead crossed


def _reminder_keys() -> list[str]:
    return list(Notification.objects.filter(kind=NotificationKind.REMINDER).values_list("dedupe_key", flat=True))


def test_a_batch_of_reminders_costs_the_same_statements_for_two_or_six():
    """One query for the sent leads, one for the dedupe keys, the mailboxes, one INSERT: the statements
    of a run do not grow with the reminders in its batch (they were ~10 per reminder)."""
    few = _planned_games(1)
    with TestCase.captureOnCommitCallbacks(execute=False), CaptureQueriesContext(connection) as q_few:
        assert reminders.reminders_due_queue(now=_due_at(few)) == 2
    many = _planned_games(3)
    with TestCase.captureOnCommitCallbacks(execute=False), CaptureQueriesContext(connection) as q_many:
        assert reminders.reminders_due_queue(now=_due_at(many)) == 6
    assert len(q_few) == len(q_many)
    assert sum("INSERT INTO \"mail_notification\"" in q["sql"] for q in q_many.captured_queries) == 1


def test_a_run_stops_at_its_budget_and_the_next_runs_go_on_each_reminder_once(monkeypatch):
    """A run that is past its budget after a batch stops there (done=False) and leaves the rest, in due
    order, to the next run; every due reminder is queued exactly once over the runs."""
    prompts = _planned_games(3)  # 6 due prompts
    monkeypatch.setattr(reminders, "REMINDER_BATCH", 2)
    at = _due_at(prompts)
    results = []
    with TestCase.captureOnCommitCallbacks(execute=True):
        for _ in range(5):
            results.append(reminders.reminders_due_run(now=at, budget_seconds=1e-9))
    assert [(r.queued, r.done) for r in results] == [(2, False), (2, False), (2, False), (0, True), (0, True)]
    keys = _reminder_keys()
    assert len(keys) == len(set(keys)) == 6
    assert sorted(Notification.objects.filter(kind=NotificationKind.REMINDER).values_list("prompt_id", flat=True)) \
        == sorted(p.pk for p in prompts)
    assert not Notification.objects.filter(kind=NotificationKind.REMINDER, status="pending").exists()  # all sent


def test_without_a_budget_a_run_goes_until_no_reminder_is_due(monkeypatch):
    prompts = _planned_games(2)
    monkeypatch.setattr(reminders, "REMINDER_BATCH", 2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        result = reminders.reminders_due_run(now=_due_at(prompts), budget_seconds=0)
    assert (result.queued, result.done) == (4, True)


def test_the_task_enqueues_its_continuation_only_when_stopped_by_the_budget():
    """Stopped at the budget with work left: a beat run starts MAIL_REMINDER_PARALLEL_RUNS continuations
    (a backlog shared by that many mail processes), a continuation enqueues one (its chain goes on; no
    outbox sweep in a continuation); done, or in the eager mode (the next beat run goes on): nothing."""
    conf = send_due_reminders.app.conf
    eager = conf.task_always_eager
    try:
        conf.task_always_eager = False
        for continued, done, expected in ((False, False, 3), (True, False, 1), (False, True, 0), (True, True, 0)):
            with override_settings(MAIL_REMINDER_PARALLEL_RUNS=3), \
                    mock.patch.object(reminders, "reminders_due_run",
                                      return_value=reminders.RunResult(queued=3, done=done)), \
                    mock.patch.object(send_due_reminders, "apply_async") as again:
                send_due_reminders.run(continued=continued)
            assert again.call_count == expected
            assert all(call.kwargs["kwargs"] == {"continued": True} for call in again.call_args_list)
        for done, expected in ((False, 2), (True, 0)):  # the default: two chains
            with mock.patch.object(reminders, "reminders_due_run",
                                   return_value=reminders.RunResult(queued=3, done=done)), \
                    mock.patch.object(send_due_reminders, "apply_async") as again, \
                    mock.patch("games.mail.outbox.outbox_sweep") as sweep:
                assert send_due_reminders.run() == 3
                assert again.call_count == expected
                if expected:
                    assert again.call_args.kwargs["kwargs"] == {"continued": True}
                assert sweep.call_count == 1
            with mock.patch.object(reminders, "reminders_due_run",
                                   return_value=reminders.RunResult(queued=1, done=done)), \
                    mock.patch.object(send_due_reminders, "apply_async"), \
                    mock.patch("games.mail.outbox.outbox_sweep") as sweep:
                send_due_reminders.run(continued=True)
                assert sweep.call_count == 0
        conf.task_always_eager = True
        with mock.patch.object(reminders, "reminders_due_run", return_value=reminders.RunResult(queued=3, done=False)), \
                mock.patch.object(send_due_reminders, "apply_async") as again:
            send_due_reminders.run()
        assert again.call_count == 0
    finally:
        conf.task_always_eager = eager


def test_a_seat_without_a_mailbox_gets_one_and_the_reminder_carries_its_address():
    prompts = _planned_games(1)
    seat = Seat.objects.get(pk=prompts[0].seat_id)
    SeatMailbox.objects.filter(seat=seat).delete()
    Seat.objects.filter(pk=seat.pk).update(email_token_hash="")
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert reminders.reminders_due_queue(now=_due_at(prompts)) == 2
    box = SeatMailbox.objects.get(seat=seat)
    seat.refresh_from_db()
    assert seat.email_token_hash == box.token_hash
    row = Notification.objects.get(kind=NotificationKind.REMINDER, seat=seat)
    assert row.headers["Reply-To"] == tokens.reply_address(seat=seat, prompt_pk=prompts[0].pk)
    assert row.status == "sent" and "REMINDER: about 2 hours left" in row.body_text


def test_mailboxes_for_seats_keeps_existing_ones_and_creates_the_missing_once():
    prompts = _planned_games(1)
    seats = sorted({p.seat_id for p in prompts})
    existing = tokens.mailbox_for_seat(seat=Seat.objects.get(pk=seats[0]))
    SeatMailbox.objects.filter(seat_id=seats[1]).delete()
    boxes = tokens.mailboxes_for_seats(seats)
    assert boxes[seats[0]].pk == existing.pk and boxes[seats[0]].token_hash == existing.token_hash
    again = tokens.mailboxes_for_seats(seats)
    assert {k: b.pk for k, b in again.items()} == {k: b.pk for k, b in boxes.items()}
    assert SeatMailbox.objects.filter(seat_id__in=seats).count() == 2
