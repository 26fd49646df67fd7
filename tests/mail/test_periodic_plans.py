"""On PostgreSQL, every periodic job's query reads its partial index, and two workers never take one
row.

The plans are asked with sequential scans off: the test tables are tiny, so the question is which
index the query *can* use (its predicate must match the index's word for word); at scale the
partial index is also by far the smallest.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test import TestCase
from django.utils import timezone

from accounts.models import NotificationPreferences
from games.mail import digests, jobs, outbox, prompt_mails, prune, reminders
from games.mail.models import InboundMessage, InboundOutcome, MailJob, Notification, NotificationKind, UsedLink
from games.models import Prompt
from games.tournaments.services import tournaments_due
from tests.mail.helpers import start_game

pytestmark = pytest.mark.postgres


def plan_of(queryset) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        return queryset.explain()


@pytest.mark.django_db
@pytest.mark.parametrize(("job", "query", "index"), [
    ("reminders: plan", lambda now: reminders.unplanned_prompts().order_by("opened_at")[:200],
     "prompt_reminder_unplanned"),
    ("reminders: send", lambda now: reminders.due_prompts(now=now).order_by("next_reminder_at")[:200],
     "prompt_reminder_due"),
    ("digests", lambda now: digests.due_digest_readers(now=now)[:200], "prefs_digest_due"),
    ("digests never read", lambda now: digests.due_digest_readers(now=now, never_read=True)[:200],
     # Either partial index answers it: with a handful of rows the planner may pick prefs_digest_due with
     # "next_digest_at IS NULL" as its index condition, which reads only the never-read digest readers too.
     ("prefs_digest_never_read", "prefs_digest_due")),
    ("prompt sweep", lambda now: prompt_mails.prompts_due_without_mail(now=now)[:200], "prompt_mail_pending"),
    ("outbox", lambda now: outbox.lost_notifications(now=now)[:500], "mail_notification_due"),
    ("mail jobs", lambda now: jobs.due_jobs(now=now)[:200], "mail_job_pending"),
    ("tournaments", lambda now: tournaments_due(now=now)[:200], "tournament_registration_due"),
])
def test_each_periodic_query_reads_its_partial_index(job, query, index):
    """The query behind each beat task is answered by a partial index of due work."""
    start_game(players=2, options={"rounds": 1})
    plan = plan_of(query(timezone.now()))
    indexes = (index,) if isinstance(index, str) else index
    assert any(name in plan for name in indexes), f"{job}: {plan}"
    assert "Seq Scan" not in plan, f"{job}: {plan}"
    # A due time is an index condition, not a filter over every row of the index (rows not due yet).
    due = {"reminders: send": "next_reminder_at <=", "digests": "next_digest_at <=",
           "outbox": "COALESCE(not_before, created_at) <=",
           "mail jobs": "due_at <=", "tournaments": "registration_closes <=",
           }.get(job)
    if due:
        assert f"Index Cond: ({due}" in plan, f"{job}: {plan}"


@pytest.mark.django_db
@pytest.mark.parametrize("table", ["notifications", "mail_jobs", "inbound_messages", "used_links"])
def test_the_prune_walks_the_primary_key_and_reads_a_prompt_by_its_key(table):
    """The daily prune (games/mail/prune.py) reads its old rows up the primary key from the lowest and
    looks up each one's prompt by key: never a scan, a hash of every open prompt or a NOT IN over them."""
    game, _ = start_game(players=2, options={"rounds": 1})
    prompt = Prompt.objects.filter(game=game).first()
    # One young row in each table: the old rows are those below its key (ids grow with time).
    MailJob.objects.create(kind="result", game=game, phase=1, due_at=timezone.now())
    InboundMessage.objects.create(message_key="k", outcome=InboundOutcome.IGNORED)
    UsedLink.objects.create(nonce="n", prompt=prompt, option_id="x")
    plan = plan_of(prune.prunable(table, now=timezone.now())[:1000])
    assert "Index Cond: (id <" in plan, plan
    assert "_pkey" in plan, plan
    assert "Seq Scan" not in plan and "Hash" not in plan and "SubPlan" not in plan, plan


@pytest.mark.django_db(transaction=True)
def test_a_due_reminder_another_worker_holds_is_skipped_and_sent_once_later():
    """Two reminder workers at once: the prompt one holds is skipped (SKIP LOCKED), not
    waited for; the other's reminders go; the held one goes by the next run, each exactly once."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    alice_prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    at = alice_prompt.deadline - timedelta(hours=1)  # both seats' 2-hour reminders are due
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=alice_prompt.deadline - timedelta(hours=30))  # planned
    holding, release = threading.Event(), threading.Event()

    def other_worker():
        from django.db import connection as own

        try:
            with transaction.atomic():
                Prompt.objects.select_for_update().get(pk=alice_prompt.pk)
                holding.set()
                release.wait(20)
        finally:
            own.close()

    worker = threading.Thread(target=other_worker)
    worker.start()
    try:
        assert holding.wait(20)
        started = timezone.now()
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert reminders.reminders_due_queue(now=at) == 1  # bob's; alice's prompt is held
        assert (timezone.now() - started).total_seconds() < 5
    finally:
        release.set()
        worker.join(20)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert reminders.reminders_due_queue(now=at) == 1  # alice's
        assert reminders.reminders_due_queue(now=at) == 0
    sent = Notification.objects.filter(kind=NotificationKind.REMINDER)
    assert sorted(sent.values_list("user_id", flat=True)) == sorted([alice.pk, bob.pk])


@pytest.mark.django_db(transaction=True)
def test_a_digest_reader_another_worker_holds_is_skipped():
    """The digest batch claims its readers with SKIP LOCKED."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user__in=[alice, bob]).update(digest=True)
    holding, release = threading.Event(), threading.Event()

    def other_worker():
        from django.db import connection as own

        try:
            with transaction.atomic():
                NotificationPreferences.objects.select_for_update().get(user=alice)
                holding.set()
                release.wait(20)
        finally:
            own.close()

    worker = threading.Thread(target=other_worker)
    worker.start()
    try:
        assert holding.wait(20)
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert digests.digests_queue() == 1
    finally:
        release.set()
        worker.join(20)
    assert list(Notification.objects.filter(kind=NotificationKind.DIGEST).values_list("user_id", flat=True)) == [bob.pk]
