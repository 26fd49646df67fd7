"""The scale benchmark's COPY seeding (benchmarks/scale_seed.py) writes rows the server reads as its
own, with the due work it promises: the periodic jobs find exactly that work."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from benchmarks.scale_seed import DUE, seed
from games.mail import digests, jobs, outbox, prompt_mails, reminders
from games.mail.models import Notification, NotificationKind
from games.models import Game, Prompt
from games.services.sweep import due_phases

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_seeded_due_work_is_what_each_periodic_job_finds():
    now = timezone.now()
    counts = seed(games=500, now=now)  # 25 digest readers, 20 of them due
    assert counts["games"] == Game.objects.filter(status="active").count() == 500
    assert Prompt.objects.filter(closed_at__isnull=False).count() == 2000  # the history
    assert len(due_phases(now=now + timedelta(seconds=5))) == DUE["deadline_games"]
    with TestCase.captureOnCommitCallbacks(execute=False):
        assert reminders.reminders_due_queue(now=now) == DUE["reminders"]
        assert reminders.reminders_due_queue(now=now) == 0  # once
        # 4 of the 40 new prompts' players have prompt emails off (one user in ten)
        assert 0 < prompt_mails.due_prompt_notifications_queue(now=now) <= DUE["new_prompts"]
        assert digests.digests_queue(now=now) == DUE["digests"]
        assert outbox.outbox_sweep(now=now, enqueue=lambda pk, kind: None) == DUE["outbox"]
        assert jobs.jobs_sweep(now=now, budget_seconds=0) == DUE["mail_jobs"]  # every job, however busy the machine
    assert Notification.objects.filter(kind=NotificationKind.REMINDER).count() == DUE["reminders"]


def _schema() -> list[tuple]:
    """Every index and constraint definition of the public schema, sorted."""
    from django.db import connection

    with connection.cursor() as c:
        c.execute("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
        indexes = c.fetchall()
        c.execute("SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), condeferrable, condeferred "
                  "FROM pg_constraint WHERE connamespace = 'public'::regnamespace")
        constraints = c.fetchall()
    return sorted(indexes) + sorted(constraints)


def test_seeding_with_deferred_indexes_leaves_the_schema_as_migrated():
    """The seeding drops (or defers) the seeded tables' secondary indexes and constraints before the COPY
    and rebuilds them after: the rebuilt keys, indexes and foreign keys (deferrable, as Django makes
    them) are exactly the migrated ones, and they hold for the seeded rows."""
    before = _schema()
    counts = seed(games=200)
    assert counts["seconds"]["rebuilt"]["indexes"] > 20 and counts["seconds"]["rebuilt"]["foreign_keys"] > 20
    assert _schema() == before
    from games.models import Seat

    with pytest.raises(Exception, match="duplicate key"):  # the unique (game, position) is back
        Seat.objects.create(game_id=1, position=0)


def test_rearmed_reminders_fall_due_over_the_span_and_are_found_once_due():
    """The run under load re-dates the seeded due reminders: "every due reminder sent within one
    period" needs their due times inside the run; each is found by the reminders job once due, and
    nothing else falls due meanwhile (the other seeded reminders are an hour or more away)."""
    from benchmarks.scale_seed import rearm_due_work

    seed(games=200, now=timezone.now() - timedelta(minutes=30))  # seeded before the run
    now = timezone.now()
    due = rearm_due_work(start=now, span_seconds=100)
    assert len(due) == DUE["reminders"]
    assert min(due.values()) == now and max(due.values()) == now + timedelta(seconds=100)
    with TestCase.captureOnCommitCallbacks(execute=False):
        assert reminders.reminders_due_queue(now=now + timedelta(seconds=50)) == 40  # due by then: the first 40 (100 s over 79 gaps)
        assert reminders.reminders_due_queue(now=now + timedelta(seconds=100)) == DUE["reminders"] - 40


def test_a_seed_used_long_after_it_ran_is_moved_to_the_runs_start_with_its_designed_due_work():
    """A database seeded 45 minutes before the run would have tens of thousands of reminders due at
    1M games (the lead times are crossed meanwhile). shift_to moves the seeded times to the run's
    start: then the due work is the designed one again, as if seeded at that moment."""
    from benchmarks.scale_seed import seeded_now, shift_to
    from games.mail import reminders

    now = timezone.now()
    seeded_at = now - timedelta(minutes=45)
    seed(games=500, now=seeded_at)
    assert seeded_now() == seeded_at
    crossed = reminders.due_prompts(now=now).count()
    assert crossed > DUE["reminders"]  # without the shift: the 80 plus what 45 minutes crossed
    seeded_deadlines = Prompt.objects.filter(closed_at__isnull=True).values("deadline").distinct().count()
    moved = shift_to(start=now, games=500, vacuum=False)
    assert moved["shifted_s"] == 45 * 60 and moved["rows"]["prompts"] + moved["rows"]["prompts_spread"] == 2000
    assert seeded_now() == now
    # the 97 seeded deadline values are spread (each game past the due work's by its own amount)
    spread = Prompt.objects.filter(closed_at__isnull=True).values("deadline").distinct().count()
    assert seeded_deadlines <= 100 < 300 < spread
    from benchmarks.scale_seed import leads_of, next_reminder

    planned = 0
    for prompt in Prompt.objects.filter(closed_at__isnull=True, game_id__gt=100).select_related("seat"):
        # planned again from the moved deadline, as the reminders task plans (the next lead time ahead)
        assert prompt.next_reminder_at == next_reminder(prompt.deadline, prompt.opened_at,
                                                        leads_of(prompt.seat.user_id), now)
        planned += prompt.next_reminder_at is not None
    assert planned > 1000
    assert reminders.due_prompts(now=now).count() == DUE["reminders"]
    assert len(due_phases(now=now + timedelta(seconds=5))) == DUE["deadline_games"]
    with TestCase.captureOnCommitCallbacks(execute=False):
        assert reminders.reminders_due_queue(now=now) == DUE["reminders"]
        assert digests.digests_queue(now=now) == DUE["digests"]
        assert outbox.outbox_sweep(now=now, enqueue=lambda pk, kind: None) == DUE["outbox"]
        assert jobs.jobs_sweep(now=now, budget_seconds=0) == DUE["mail_jobs"]  # every job, however busy the machine
    assert shift_to(start=now, games=500, vacuum=False)["shifted_s"] == 0.0  # moved already: nothing to do


def test_the_prompts_whose_reminder_fell_due_during_the_shift_move_on_as_long():
    """load_bench.py: a shift that takes minutes (1M games) leaves the reminders crossed meanwhile due at
    once; those prompts move on by the shift's duration (deadline, opening and next reminder alike), the
    others stay."""
    from benchmarks.scale_seed import reminders_crossed_meanwhile_move
    from tests.mail.helpers import start_game

    start_game(players=2, options={"rounds": 1})
    start_game(players=2, options={"rounds": 1})
    since = timezone.now()
    crossed, before, *_ = Prompt.objects.filter(closed_at__isnull=True).order_by("id")
    Prompt.objects.filter(pk=crossed.pk).update(next_reminder_at=since + timedelta(seconds=10))
    Prompt.objects.filter(pk=before.pk).update(next_reminder_at=since - timedelta(seconds=10))
    moved_before = {p.pk: (p.deadline, p.opened_at, p.next_reminder_at) for p in Prompt.objects.all()}
    assert reminders_crossed_meanwhile_move(since=since, until=since + timedelta(seconds=60)) == 1
    for p in Prompt.objects.all():
        expected = moved_before[p.pk]
        if p.pk == crossed.pk:
            expected = tuple(t + timedelta(seconds=60) for t in expected)
        assert (p.deadline, p.opened_at, p.next_reminder_at) == expected
