"""Old mail records are deleted once nothing can need them (games/mail/prune.py; at a million active
games the outbox alone grows by millions of rows a week).

Kept: a pending email, an email about a prompt still open (its dedupe key stops a second prompt mail or
reminder), anything younger than MAIL_KEEP_DAYS; a pending mail job; a used one-click link until its
link has expired. Deleted: everything else past its time, in batches, each row once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from django.test import TestCase, override_settings
from django.utils import timezone

from games.mail import prune, reminders
from games.mail.models import (InboundMessage, InboundOutcome, MailJob, MailJobStatus, Notification,
                               NotificationKind, NotificationStatus, UsedLink)
from games.mail.tasks import prune_mail_records
from games.models import Prompt
from tests.games.helpers import pick
from tests.mail.helpers import start_game

pytestmark = pytest.mark.django_db

DAYS = 30


def aged(queryset, field: str, days: float) -> None:
    queryset.update(**{field: F(field) - timedelta(days=days)})


def _note(key: str, *, status=NotificationStatus.SENT, prompt=None, game=None, kind=NotificationKind.RESULT):
    return Notification.objects.create(kind=kind, dedupe_key=key, address="a@example.org", subject="s",
                                       body_text="t", message_id=f"<{key}@x>", status=status, prompt=prompt,
                                       game=game)


@override_settings(MAIL_KEEP_DAYS=DAYS)
def test_old_settled_emails_go_and_pending_young_or_open_prompt_emails_stay():
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    open_prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    pick(game, open_prompt.seat.position)  # alice decides: her prompt closes (the step waits for bob)
    closed_prompt = Prompt.objects.get(pk=open_prompt.pk)
    still_open = Prompt.objects.get(seat__user=bob, closed_at__isnull=True)
    Notification.objects.all().delete()  # the game's own mails: these rows alone, oldest first as in life
    old = {
        "result": _note("old-result", game=game),
        "failed": _note("old-failed", status=NotificationStatus.FAILED, game=game),
        "closed prompt": _note("old-closed", prompt=closed_prompt, kind=NotificationKind.PROMPT),
        "pending": _note("old-pending", status=NotificationStatus.PENDING, game=game),
        "open prompt": _note("old-open", prompt=still_open, kind=NotificationKind.REMINDER),
    }
    aged(Notification.objects.filter(pk__in=[n.pk for n in old.values()]), "created_at", DAYS + 1)
    young = _note("young-result", game=game)
    before = set(Notification.objects.values_list("pk", flat=True))
    deleted = prune.mail_records_prune()
    left = set(Notification.objects.values_list("pk", flat=True))
    assert before - left == {old["result"].pk, old["failed"].pk, old["closed prompt"].pk}
    assert deleted["notifications"] == 3
    assert {old["pending"].pk, old["open prompt"].pk, young.pk} <= left


@override_settings(MAIL_KEEP_DAYS=DAYS)
def test_old_done_and_failed_mail_jobs_go_pending_and_young_ones_stay():
    game, _ = start_game(players=2, options={"rounds": 1})
    now = timezone.now()
    jobs = {status: MailJob.objects.create(kind="result", game=game, phase=1, status=status, due_at=now)
            for status in (MailJobStatus.DONE, MailJobStatus.FAILED, MailJobStatus.PENDING)}
    aged(MailJob.objects.filter(pk__in=[j.pk for j in jobs.values()]), "created_at", DAYS + 1)
    young = MailJob.objects.create(kind="result", game=game, phase=2, status=MailJobStatus.DONE, due_at=now)
    assert prune.mail_records_prune()["mail_jobs"] == 2
    assert set(MailJob.objects.values_list("pk", flat=True)) >= {jobs[MailJobStatus.PENDING].pk, young.pk}
    assert not MailJob.objects.filter(pk__in=[jobs[MailJobStatus.DONE].pk, jobs[MailJobStatus.FAILED].pk]).exists()


@override_settings(MAIL_KEEP_DAYS=DAYS, MAIL_LINK_MAX_AGE_SECONDS=14 * 24 * 3600)
def test_inbound_messages_after_the_keep_days_and_used_links_once_their_links_expired():
    game, (alice, _) = start_game(players=2, options={"rounds": 1})
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    inbound = [InboundMessage.objects.create(message_key=f"k{i}", outcome=InboundOutcome.IGNORED) for i in range(2)]
    aged(InboundMessage.objects.filter(pk=inbound[0].pk), "received_at", DAYS + 1)
    links = [UsedLink.objects.create(nonce=f"n{i}", prompt=prompt, option_id="x") for i in range(2)]
    aged(UsedLink.objects.filter(pk=links[0].pk), "used_at", 15)  # its link (issued before) is past 14 days
    deleted = prune.mail_records_prune()
    assert (deleted["inbound_messages"], deleted["used_links"]) == (1, 1)
    assert list(InboundMessage.objects.values_list("pk", flat=True)) == [inbound[1].pk]
    assert list(UsedLink.objects.values_list("pk", flat=True)) == [links[1].pk]


@override_settings(MAIL_KEEP_DAYS=DAYS)
def test_a_run_stops_at_its_budget_and_the_next_goes_on_each_row_deleted_once(monkeypatch):
    game, _ = start_game(players=2, options={"rounds": 1})
    Notification.objects.all().delete()
    rows = [_note(f"r{i}", game=game) for i in range(5)]
    aged(Notification.objects.all(), "created_at", DAYS + 1)
    monkeypatch.setattr(prune, "PRUNE_BATCH", 2)
    runs = [prune.mail_records_prune(budget_seconds=1e-9)["notifications"] for _ in range(4)]
    assert runs == [2, 2, 1, 0]
    assert not Notification.objects.filter(pk__in=[r.pk for r in rows]).exists()


@override_settings(MAIL_KEEP_DAYS=DAYS)
def test_a_pruned_reminder_of_a_closed_prompt_is_never_queued_again():
    """The dedupe key of a deleted row is never asked for again: its prompt is closed for good."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    at = prompt.deadline - timedelta(hours=1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=at - timedelta(hours=30))
        assert reminders.reminders_due_queue(now=at) == 2
    pick(game, prompt.seat.position)
    aged(Notification.objects.all(), "created_at", DAYS + 1)
    prune_mail_records.apply()
    assert not Notification.objects.filter(prompt=prompt).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=at + timedelta(minutes=5))
    assert not Notification.objects.filter(prompt=prompt).exists()
