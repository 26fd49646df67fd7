"""A reminders run's mails are sent a batch per task, so reminders go on time at a million games.

One mail.send_notifications task sends the rows of a run's batch that fall due in the same second
(SEND_BATCH at most), none before its time and none more than a second after; a row whose send fails is
recorded and retried alone with its back-off while the others go; a redelivered batch sends nothing twice.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.test import TestCase
from django.utils import timezone

from games.mail import mail_sender, reminders, send_tasks
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.mail.priorities import NEWS, TIME_BOUND
from games.mail.send_tasks import send_notification, send_notifications
from games.models import Prompt
from tests.mail.helpers import start_game

pytestmark = pytest.mark.django_db


def _row(pk: int, *, kind=NotificationKind.REMINDER, not_before=None) -> Notification:
    return Notification(pk=pk, kind=kind, not_before=not_before)


def test_rows_due_now_go_together_in_batches_of_send_batch():
    rows = [_row(pk) for pk in range(1, send_tasks.SEND_BATCH + 6)]
    batches = send_tasks.send_batches(rows)
    assert [(len(pks), priority, due) for pks, priority, due in batches] == [
        (send_tasks.SEND_BATCH, TIME_BOUND, None), (5, TIME_BOUND, None)]
    assert sorted(pk for pks, _, _ in batches for pk in pks) == [r.pk for r in rows]


def test_rows_queued_ahead_go_by_the_second_they_fall_due_never_early_and_kinds_by_priority():
    at = timezone.now().replace(microsecond=0) + timedelta(minutes=3)
    rows = [_row(1, not_before=at + timedelta(milliseconds=100)), _row(2, not_before=at + timedelta(milliseconds=900)),
            _row(3, not_before=at + timedelta(seconds=1)), _row(4, not_before=at + timedelta(seconds=7, milliseconds=1)),
            _row(5, kind=NotificationKind.RESULT)]
    batches = {tuple(pks): (priority, due) for pks, priority, due in send_tasks.send_batches(rows)}
    assert batches == {(1, 2, 3): (TIME_BOUND, at + timedelta(seconds=1)),
                       (4,): (TIME_BOUND, at + timedelta(seconds=8)), (5,): (NEWS, None)}
    for pks, (_, due) in batches.items():
        for row in rows:
            if row.pk in pks and row.not_before is not None:
                assert row.not_before <= due < row.not_before + timedelta(seconds=1)


def _due_reminders(n_games: int) -> list[Notification]:
    """The reminders of ``n_games`` two-player games, stored by a run whose send tasks were held back."""
    games = [start_game(players=2, options={"rounds": 1})[0] for _ in range(n_games)]
    prompts = list(Prompt.objects.filter(game__in=games, closed_at__isnull=True))
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=min(p.deadline for p in prompts) - timedelta(hours=30))  # plan
    with mock.patch.object(send_notifications, "apply_async") as enqueue, \
            TestCase.captureOnCommitCallbacks(execute=True):
        assert reminders.reminders_due_queue(now=min(p.deadline for p in prompts) - timedelta(hours=1)) == 2 * n_games
    (call,) = enqueue.call_args_list  # one task for the run's whole batch, due now
    assert call.kwargs["countdown"] is None and call.kwargs["priority"] == TIME_BOUND
    rows = list(Notification.objects.filter(kind=NotificationKind.REMINDER).order_by("pk"))
    assert sorted(call.kwargs["args"][0]) == [r.pk for r in rows]
    return rows


def test_a_batch_task_sends_each_row_once_and_a_redelivery_sends_nothing_twice():
    rows = _due_reminders(2)
    mail.outbox.clear()
    ids = [r.pk for r in rows]
    assert send_notifications.apply(args=(ids,)).get() == 4
    assert sorted(m.to[0] for m in mail.outbox) == sorted(r.address for r in rows)
    assert send_notifications.apply(args=(ids,)).get() == 4  # acks_late redelivery after a crash: all sent
    assert len(mail.outbox) == 4
    assert set(Notification.objects.filter(pk__in=ids).values_list("status", flat=True)) == {NotificationStatus.SENT}


def test_a_row_that_fails_is_retried_alone_with_its_back_off_and_the_others_go():
    rows = _due_reminders(2)
    bad = rows[1]
    mail.outbox.clear()
    real_send = mail_sender.EmailMultiAlternatives.send

    def send(message, *args, **kwargs):
        if message.to == [bad.address] and message.extra_headers.get("Message-ID") == bad.message_id:
            raise ConnectionError("provider down")
        return real_send(message, *args, **kwargs)

    with mock.patch.object(mail_sender.EmailMultiAlternatives, "send", send), \
            mock.patch.object(send_notification, "apply_async") as retry:
        assert send_notifications.apply(args=([r.pk for r in rows],)).get() == 3
    assert len(mail.outbox) == 3 and all(m.extra_headers["Message-ID"] != bad.message_id for m in mail.outbox)
    bad.refresh_from_db()
    assert (bad.status, bad.attempts) == (NotificationStatus.PENDING, 1) and "provider down" in bad.last_error
    (call,) = retry.call_args_list
    assert call.kwargs["args"] == (bad.pk,) and call.kwargs["retries"] == 1
    assert call.kwargs["countdown"] > 0 and call.kwargs["priority"] == TIME_BOUND
    assert send_notification.apply(args=(bad.pk,), retries=1).get() == NotificationStatus.SENT  # the retry sends it
    assert len(mail.outbox) == 4


def test_a_row_answered_before_its_batch_runs_is_skipped():
    rows = _due_reminders(1)
    Prompt.objects.filter(pk=rows[0].prompt_id).update(closed_at=timezone.now())
    mail.outbox.clear()
    assert send_notifications.apply(args=([r.pk for r in rows],)).get() == 1
    assert Notification.objects.get(pk=rows[0].pk).status == NotificationStatus.SKIPPED
    assert len(mail.outbox) == 1
