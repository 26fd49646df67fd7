"""Outbound mail: one email per notification (dedupe key + row lock), reminders at the player's lead
times, results/digest by preference, threading and unsubscribe headers, deadlines in local time."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.test import TestCase
from django.utils import timezone

from accounts.models import NotificationPreferences
from games.mail import delivery, outbox, prompt_mails, reminders, unsubscribe
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.mail.send_tasks import send_notification
from games.mail.tasks import send_digests
from games.models import Prompt
from games.services.admin_actions import deadline_extend
from tests.games.helpers import pick, play_step
from tests.mail.helpers import as_email, latest_prompt_mail, mails_to, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny():
    return start_game(players=2, options={"rounds": 1})


def run_on_commit(fn, *args, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return fn(*args, **kwargs)


def test_a_prompt_email_has_text_and_html_threading_reply_to_and_unsubscribe(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    wire = as_email(m)
    assert wire.get_body(("plain",)) is not None and wire.get_body(("html",)) is not None
    assert wire["Message-ID"] and wire["In-Reply-To"] == wire["References"] == f"<game{game.pk}.user{alice.pk}@localhost>"
    assert wire["Reply-To"].startswith("play+") and wire["Reply-To"].endswith(f".{wire['X-Faltisia-Prompt']}@localhost")
    assert wire["List-Unsubscribe"].strip().startswith("<http") and wire["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert wire["Auto-Submitted"] == "auto-generated"
    assert "YOUR DECISION" in m.body and "Deadline:" in m.body
    # The text has one link, to the decision's page; the HTML part keeps a button per option.
    assert "/mail/l/" not in m.body and f"Or decide on the page: http://127.0.0.1:8000/games/{game.pk}/" in m.body
    assert m.alternatives[0][0].count("/mail/l/") == m.body.count("  [")


def test_the_deadline_is_shown_in_the_players_time_zone(db):
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    alice.timezone = "Asia/Tokyo"
    alice.save()
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    local = prompt.deadline.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    text = __import__("games.mail.compose", fromlist=["x"]).render_prompt(prompt=prompt, user=alice).text
    assert f"{local:%H:%M} (Asia/Tokyo)" in text and f"{prompt.deadline:%H:%M} (UTC)" not in text


def test_the_same_notification_is_never_sent_twice(tiny):
    game, (alice, bob) = tiny
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    n = len(mail.outbox)
    assert run_on_commit(prompt_mails.prompt_notifications_queue, prompt_ids=[prompt.pk]) == []  # task delivered again
    row = Notification.objects.get(prompt=prompt, kind=NotificationKind.PROMPT)
    assert send_notification.apply(args=(row.pk,)).get() == NotificationStatus.SENT  # a duplicate task
    assert len(mail.outbox) == n


def test_a_prompt_email_is_skipped_if_the_prompt_was_answered_before_it_went_out(tiny):
    game, (alice, bob) = tiny
    pick(game, 0, commit=False)  # opens the bet prompt; its email is not queued yet (no commit)
    bet = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    due = timezone.now() + prompt_mails.followup_delay()  # the sweep, once the follow-up's delay has passed
    with TestCase.captureOnCommitCallbacks(execute=False):  # queued, but the send task has not run yet
        (row,) = prompt_mails.prompt_notifications_queue(prompt_ids=[bet.pk], now=due)
    pick(game, 0, commit=False)  # the bet is answered (on the web, say) before the email task runs
    n = len(mail.outbox)
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SKIPPED
    assert len(mail.outbox) == n


def test_a_failing_backend_is_retried_then_marked_failed_and_never_sent_twice(tiny):
    from celery.exceptions import Retry

    game, (alice, bob) = tiny
    prompt = Prompt.objects.get(seat__user=bob, closed_at__isnull=True)
    Notification.objects.filter(prompt=prompt).delete()
    with TestCase.captureOnCommitCallbacks(execute=False):
        (row,) = prompt_mails.prompt_notifications_queue(prompt_ids=[prompt.pk])
    with mock.patch("django.core.mail.message.EmailMessage.send", side_effect=OSError("smtp down")):
        for attempt in range(delivery.MAX_ATTEMPTS):  # what the worker does with the task's retries
            try:
                send_notification.apply(args=(row.pk,), retries=attempt)
            except Retry:
                assert attempt < delivery.MAX_ATTEMPTS - 1
    row.refresh_from_db()
    assert row.status == NotificationStatus.FAILED and row.attempts == delivery.MAX_ATTEMPTS
    assert "smtp down" in row.last_error
    n = len(mail.outbox)
    assert send_notification.apply(args=(row.pk,)).get() == NotificationStatus.FAILED  # never resent
    assert len(mail.outbox) == n


def test_reminders_at_the_players_lead_times_once_each_and_fresh_after_a_moved_deadline(tiny):
    game, (alice, bob) = tiny
    NotificationPreferences.objects.filter(user=alice).update(reminder_lead_hours=[24, 2])
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    deadline = prompt.deadline  # two days after opening (the default clock)

    def reminder_rows():
        return list(Notification.objects.filter(kind=NotificationKind.REMINDER, prompt=prompt).order_by("id"))

    run_on_commit(reminders.reminders_due_queue, now=deadline - timedelta(hours=30))
    assert reminder_rows() == []
    run_on_commit(reminders.reminders_due_queue, now=deadline - timedelta(hours=23))
    run_on_commit(reminders.reminders_due_queue, now=deadline - timedelta(hours=22))
    assert [r.lead_hours for r in reminder_rows()] == [24]
    run_on_commit(reminders.reminders_due_queue, now=deadline - timedelta(hours=1))
    run_on_commit(reminders.reminders_due_queue, now=deadline - timedelta(minutes=30))
    assert [r.lead_hours for r in reminder_rows()] == [24, 2]
    assert "REMINDER: about 2 hours left" in mails_to(alice.email)[-1].body
    # The deadline moves (an admin's extension of alice's seat): the new deadline gets its own reminders.
    deadline_extend(game=game, by=alice, hours=24, position=prompt.seat.position)
    run_on_commit(reminders.reminders_due_queue, now=deadline + timedelta(hours=23))
    assert [r.lead_hours for r in reminder_rows()] == [24, 2, 2]
    # Bob (default leads [24, 2]) had the old deadline: his reminders came once each, none for the move.
    assert sorted(Notification.objects.filter(kind=NotificationKind.REMINDER, seat__user=bob)
                  .values_list("lead_hours", flat=True)) == [2, 24]


def test_no_reminder_once_the_player_decided(tiny):
    game, (alice, bob) = tiny
    deadline = Prompt.objects.get(seat__user=alice, closed_at__isnull=True).deadline
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)  # both decide the draft step
    run_on_commit(reminders.reminders_due_queue, now=deadline - timedelta(hours=1))
    old = Notification.objects.filter(kind=NotificationKind.REMINDER, prompt__closed_at__isnull=False)
    assert not old.exists()


def test_results_go_to_result_readers_and_digest_readers_get_one_digest_a_day(db):
    # Three players: after the draft only alice is asked something (her prompt email carries the results).
    game, (alice, bob, carol) = start_game(players=3, options={"rounds": 1})
    NotificationPreferences.objects.filter(user=bob).update(digest=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)
    # Alice is asked the take (her prompt email carries the result); bob reads a digest; carol gets it.
    assert Notification.objects.filter(kind=NotificationKind.RESULT, user=carol).count() == 1
    assert not Notification.objects.filter(kind=NotificationKind.RESULT, user__in=[alice, bob]).exists()
    result = [m for m in mails_to(carol.email) if "resolved" in m.body.splitlines()[0]][0]
    assert "What happened:" in result.body
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert send_digests.apply().get() == 1
        assert send_digests.apply().get() == 0  # not twice a day
    digest = mails_to(bob.email)[-1]
    assert "daily digest" in digest.body and "played" in digest.body


def test_unsubscribed_players_get_no_prompt_emails(db):
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    unsubscribe.preferences_unsubscribe(user_id=alice.pk)
    n = len(mails_to(alice.email))
    with TestCase.captureOnCommitCallbacks(execute=True):
        pick(game, 0)
    assert len(mails_to(alice.email)) == n


def test_lost_send_tasks_are_found_by_the_outbox_sweep(tiny):
    game, (alice, bob) = tiny
    row = Notification.objects.filter(seat__user=alice).first()
    Notification.objects.filter(pk=row.pk).update(status=NotificationStatus.PENDING,
                                                  created_at=timezone.now() - timedelta(minutes=5))
    found = []
    assert outbox.outbox_sweep(enqueue=lambda *task: found.append(task)) == 1 and found == [(row.pk, row.kind)]
