"""Follow-up prompts within one step are not spammed to web and API players.

The rule (notify.prompt_not_before): a seat's FIRST prompt of a step is emailed at once; a follow-up
(the seat already answered a prompt in this step) is emailed at once only if that pick came by email,
otherwise only after MAIL_FOLLOWUP_DELAY_SECONDS, and not at all if it was answered meanwhile. The
tinygame's draft step is such a compound decision: play a card, then bet.
"""

from __future__ import annotations

import io
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.core.management import call_command
from django.db.models import F
from django.test import TestCase, override_settings

from games.mail import outbox, tasks
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.models import Prompt, SubmissionSource
from tests.games.helpers import open_prompt, pick
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny():
    return start_game(players=2, options={"rounds": 1})


def prompt_mails(user) -> list:
    return [m for m in mails_to(user.email) if "X-Faltisia-Prompt" in m.extra_headers]


def prompt_row(prompt: Prompt) -> Notification:
    return Notification.objects.get(prompt=prompt, kind=NotificationKind.PROMPT)


def minutes_pass(minutes: int) -> None:
    """Age every outbox row, as if ``minutes`` had passed since it was queued."""
    shift = timedelta(minutes=minutes)
    Notification.objects.update(created_at=F("created_at") - shift)
    Notification.objects.filter(not_before__isnull=False).update(not_before=F("not_before") - shift)


def sweep():
    """The beat sweep's outbox part, then the send tasks it enqueued (as the worker would run them)."""
    found: list[int] = []
    outbox.outbox_sweep(enqueue=found.append)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return found, [outbox.notification_send(notification_id=pk) for pk in found]


@contextmanager
def with_a_broker():
    """Send tasks go to a broker (mocked here) instead of running in-process; the queue_prompt task,
    which creates the row, runs here as a worker would run it."""
    conf = tasks.send_notification.app.conf
    eager = conf.task_always_eager
    conf.task_always_eager = False
    queue = tasks.queue_prompt_notification
    try:
        with mock.patch.object(tasks.send_notification, "apply_async") as send, \
                mock.patch.object(queue, "apply_async", side_effect=lambda args, **kw: queue.apply(args=args)):
            yield send
    finally:
        conf.task_always_eager = eager


def test_the_first_prompt_of_a_step_is_emailed_at_once(tiny):
    game, (alice, bob) = tiny
    for user in (alice, bob):
        row = prompt_row(Prompt.objects.get(seat__user=user, closed_at__isnull=True))
        assert row.status == NotificationStatus.SENT and row.not_before is None
        assert len(prompt_mails(user)) == 1


@pytest.mark.parametrize("source", [SubmissionSource.WEB, SubmissionSource.API])
def test_a_follow_up_after_a_web_or_api_pick_waits_and_the_sweep_does_not_send_it_early(tiny, source):
    game, (alice, bob) = tiny
    pick(game, 0, source=source)  # the card, clicked on the site: the bet prompt opens at once
    bet = open_prompt(game, 0)
    row = prompt_row(bet)
    assert len(prompt_mails(alice)) == 1  # no second email while the player is clicking through
    assert row.status == NotificationStatus.PENDING
    assert row.not_before == bet.opened_at + timedelta(seconds=600)
    # Neither the pending-row sweep (a minute after queueing it sweeps lost sends) nor a stray early
    # task sends it before it is due.
    minutes_pass(5)
    assert sweep() == ([], [])
    assert outbox.notification_send(notification_id=row.pk) == NotificationStatus.PENDING
    assert len(prompt_mails(alice)) == 1
    # Unanswered when due (the player left the site): it goes out, once.
    minutes_pass(7)
    assert sweep() == ([row.pk], [NotificationStatus.SENT])
    assert latest_prompt_mail(alice.email).extra_headers["X-Faltisia-Prompt"] == str(bet.pk)
    assert sweep() == ([], [])


def test_a_follow_up_answered_within_the_delay_is_never_sent(tiny):
    game, (alice, bob) = tiny
    pick(game, 0, source=SubmissionSource.WEB)
    row = prompt_row(open_prompt(game, 0))
    pick(game, 0, source=SubmissionSource.WEB)  # the bet, a few seconds later
    minutes_pass(12)
    assert sweep() == ([row.pk], [NotificationStatus.SKIPPED])
    assert len(prompt_mails(alice)) == 1


def test_a_follow_up_after_an_email_pick_is_emailed_at_once(tiny):
    game, (alice, bob) = tiny
    assert pipe(reply_bytes(latest_prompt_mail(alice.email), "1")).startswith("recorded")
    bet = open_prompt(game, 0)
    row = prompt_row(bet)
    assert row.not_before is None and row.status == NotificationStatus.SENT
    assert latest_prompt_mail(alice.email).extra_headers["X-Faltisia-Prompt"] == str(bet.pk)


def test_the_next_steps_first_prompt_is_emailed_at_once_even_after_web_picks(tiny):
    game, (alice, bob) = tiny
    for position in (0, 1, 0, 1):  # both seats: card then bet, on the site; the step resolves
        pick(game, position, source=SubmissionSource.WEB)
    take = open_prompt(game, 0)
    assert take.phase == 1
    row = prompt_row(take)
    assert row.not_before is None and row.status == NotificationStatus.SENT


@override_settings(MAIL_FOLLOWUP_DELAY_SECONDS=90)
def test_the_send_task_is_enqueued_with_the_delay_as_its_countdown(tiny):
    """With a real broker the worker holds the task until it is due (eager mode leaves it to the sweep)."""
    game, (alice, bob) = tiny
    with with_a_broker() as send:
        pick(game, 0, source=SubmissionSource.API)
    row = prompt_row(open_prompt(game, 0))
    send.assert_called_once()
    assert send.call_args.kwargs["args"] == (row.pk,)
    assert 80 <= send.call_args.kwargs["countdown"] <= 90
    assert row.not_before == open_prompt(game, 0).opened_at + timedelta(seconds=90)
    n = len(mail.outbox)
    with with_a_broker() as send:
        pipe(reply_bytes(latest_prompt_mail(bob.email), "1"))  # bob's follow-up: after an email pick
    bob_row = prompt_row(open_prompt(game, 1))
    assert any(c.kwargs["args"] == (bob_row.pk,) and c.kwargs["countdown"] is None for c in send.call_args_list)
    assert len(mail.outbox) == n  # the send task was mocked: nothing went out in this process


def test_in_the_embedded_mode_the_beat_stand_in_sends_a_held_back_follow_up_once_due(tiny):
    """Eager tasks cannot wait: the send runs at once, finds the row not yet due and leaves it; the
    embedded stand-in for beat (`manage.py beat_embedded`, started by run.sh) sends it when due."""
    game, (alice, bob) = tiny
    pick(game, 0, source=SubmissionSource.WEB)
    row = prompt_row(open_prompt(game, 0))
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("beat_embedded", "--once", stdout=io.StringIO())
    row.refresh_from_db()
    assert row.status == NotificationStatus.PENDING and len(prompt_mails(alice)) == 1
    minutes_pass(12)
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("beat_embedded", "--once", stdout=io.StringIO())
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT and len(prompt_mails(alice)) == 2
