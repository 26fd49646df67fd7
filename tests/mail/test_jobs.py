"""A mail whose task is lost is delayed, never lost, and never sent twice.

A resolution (and a game's finish) records its result (game-over) emails as a mail job in its own
transaction (games/mail/jobs.py); the task enqueued on commit runs it, and if that task is lost the job
sweep (beat) runs it once the sweep grace has passed. "Lost" here: the broker refuses the enqueue
(kombu's OperationalError), or the on-commit callbacks never run (the process died after the commit).
"""

from __future__ import annotations

import io
import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.db import connection, transaction
from django.test import TestCase, override_settings
from django.utils import timezone
from kombu.exceptions import OperationalError

from games.mail import jobs, result_mails, tasks
from games.mail.models import MailJob, MailJobKind, MailJobStatus, Notification, NotificationKind
from games.models import Game
from games.services import phase_resolve
from tests.games.helpers import play_step
from tests.mail.helpers import start_game

pytestmark = pytest.mark.django_db


def later(seconds: float = 0) -> timezone.datetime:
    """A time past the sweep grace (plus ``seconds``): when the sweep takes a task as lost."""
    return timezone.now() + timedelta(seconds=settings.MAIL_SWEEP_GRACE_SECONDS + 1 + seconds)


def broker_down():
    """The result and game-over tasks cannot be enqueued (the receivers log it and go on)."""
    down = OperationalError("broker down")
    stack = mock.patch.object(tasks.queue_result_notifications, "apply_async", side_effect=down)
    stack2 = mock.patch.object(tasks.queue_finished_notifications, "apply_async", side_effect=down)
    return stack, stack2


def sweep(now=None) -> int:
    """The job sweep as the mail worker runs it: its send tasks run after its commits."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return jobs.jobs_sweep(now=now or later())


def rows(user, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind).order_by("id"))


def sent_messages(row: Notification) -> list:
    """The messages the mail backend sent for this outbox row (by its Message-ID)."""
    return [m for m in mail.outbox if m.extra_headers.get("Message-ID") == row.message_id]


def test_a_resolution_whose_result_task_is_lost_is_mailed_by_the_sweep_once_to_each_player():
    game, users = start_game(players=3, options={"rounds": 1})
    result_down, finished_down = broker_down()
    with result_down:
        play_step(game)  # the draft (card and bet per seat), resolved in-process; its result task is lost
    game.refresh_from_db()
    assert game.phase == 1
    assert not Notification.objects.filter(kind=NotificationKind.RESULT).exists()
    (job,) = MailJob.objects.filter(game=game)
    assert (job.kind, job.phase, job.status) == (MailJobKind.RESULT, 0, MailJobStatus.PENDING) and job.event_ids
    # Within the grace its own task may still come: the sweep leaves it alone.
    assert sweep(now=timezone.now()) == 0
    assert not Notification.objects.filter(kind=NotificationKind.RESULT).exists()
    assert sweep() == 1
    # Seat 0 is asked the take: its prompt email carries the result; the others get one.
    assert rows(users[0], NotificationKind.RESULT) == []
    for user in users[1:]:
        (row,) = rows(user, NotificationKind.RESULT)
        assert row.status == "sent" and row.dedupe_key == f"result:{game.pk}:0:user{user.pk}"
        assert len(sent_messages(row)) == 1
        assert "step 0 resolved" in row.body_text  # the same email the task renders
    job.refresh_from_db()
    assert job.status == MailJobStatus.DONE and job.done_at is not None and job.attempts == 1
    # A second sweep, and the lost task arriving late after all: nothing more is queued or sent.
    sent = len(mail.outbox)
    assert sweep(now=later(3600)) == 0
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert tasks.queue_result_notifications.apply(args=(game.pk, 0, job.event_ids)).get() == 0
    assert len(mail.outbox) == sent
    assert Notification.objects.filter(kind=NotificationKind.RESULT).count() == len(users) - 1


def test_a_sweep_works_a_tenth_of_its_period_and_the_next_one_goes_on():
    """Under a burst the due jobs are mostly waiting in the mail queue, not lost: one sweep stops after
    the job that takes it past its budget (a twentieth of MAIL_JOB_SWEEP_SECONDS: with that job it stays
    under a tenth), the next takes the rest."""
    games = [start_game(players=2, options={"rounds": 1})[0] for _ in range(3)]
    result_down, finished_down = broker_down()
    with result_down:
        for game in games:
            play_step(game)
    assert MailJob.objects.filter(status=MailJobStatus.PENDING).count() == 3
    with override_settings(MAIL_JOB_SWEEP_SECONDS=60):
        assert jobs.sweep_budget_seconds() == 3
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert [jobs.jobs_sweep(now=later(), budget_seconds=1e-9) for _ in range(4)] == [1, 1, 1, 0]
    assert not MailJob.objects.filter(status=MailJobStatus.PENDING).exists()


def test_in_the_embedded_mode_the_beat_stand_in_mails_results_and_game_over_whose_tasks_never_ran():
    """The job sweep is in CELERY_BEAT_SCHEDULE, so `celery beat` and `manage.py beat_embedded` run it."""
    assert {"task": "mail.sweep_mail_jobs", "schedule": settings.MAIL_JOB_SWEEP_SECONDS} in \
        settings.CELERY_BEAT_SCHEDULE.values()
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    with override_settings(MAIL_SWEEP_GRACE_SECONDS=0):
        for _ in range(2):  # the draft and the takes: two resolutions, the second ends the game
            # The picks' on-commit work runs (the resolutions among it) but the mail tasks are lost.
            result_down, finished_down = broker_down()
            with result_down, finished_down:
                play_step(game)
        game.refresh_from_db()
        assert game.status == "finished"
        assert not Notification.objects.filter(kind__in=["result", "finished"]).exists()
        for _ in range(2):
            with TestCase.captureOnCommitCallbacks(execute=True):
                call_command("beat_embedded", "--once", stdout=io.StringIO(), stderr=io.StringIO())
    # Both jobs ran after the game ended: the game-over email tells what happened since each player's last
    # prompt email, so no result email follows it (one mail per step, in order).
    for user in (alice, bob):
        assert rows(user, NotificationKind.RESULT) == []
        (finished,) = rows(user, NotificationKind.FINISHED)
        assert finished.status == "sent" and len(sent_messages(finished)) == 1
    assert set(MailJob.objects.filter(game=game).values_list("kind", "phase", "status")) == {
        ("result", 0, "done"), ("result", 1, "done"), ("finished", None, "done")}


def test_the_mail_job_is_written_in_the_resolutions_transaction(settings):
    settings.RESOLVE_IN_PICK = False  # the worker's resolve task, as for a step no pick completes
    """Rolled back with the resolution; committed with it (then its task runs it at once)."""
    game, users = start_game(players=2, options={"rounds": 1})
    play_step(game, commit=False)  # the draft is complete; its resolution not yet run

    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        assert phase_resolve(game_id=game.pk, phase=0)
        assert MailJob.objects.filter(game=game, kind=MailJobKind.RESULT, phase=0).exists()
        raise Boom  # anything failing later in the write's transaction
    assert Game.objects.get(pk=game.pk).phase == 0
    assert not MailJob.objects.exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert phase_resolve(game_id=game.pk, phase=0)
    assert MailJob.objects.get(game=game).status == MailJobStatus.DONE  # its on-commit task ran it
    # Seat 0 is asked the take (its prompt email carries the result); seat 1 gets one.
    assert [len(rows(u, NotificationKind.RESULT)) for u in users] == [0, 1]


def test_the_game_over_job_is_written_in_the_finishing_transaction(settings):
    settings.RESOLVE_IN_PICK = False  # the worker's resolve task, as for a step no pick completes
    game, users = start_game(players=2, options={"rounds": 1})
    play_step(game)
    play_step(game, commit=False)  # the takes are complete: resolving them ends the game
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        assert phase_resolve(game_id=game.pk, phase=1)
        assert MailJob.objects.filter(game=game, kind=MailJobKind.FINISHED).exists()
        1 / 0
    assert not MailJob.objects.filter(kind=MailJobKind.FINISHED).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert phase_resolve(game_id=game.pk, phase=1)
    assert all(len(rows(u, NotificationKind.FINISHED)) == 1 for u in users)


def test_a_failing_job_is_rolled_back_retried_with_back_off_and_given_up_without_stopping_others():
    game, users = start_game(players=2, options={"rounds": 1})
    other, other_users = start_game(players=2, options={"rounds": 1})
    result_down, _ = broker_down()
    with result_down:
        play_step(game)
        play_step(other)
    broken, fine = MailJob.objects.get(game=game), MailJob.objects.get(game=other)
    real = result_mails.result_notifications_queue

    def render_fails_for_game(**kwargs):
        if kwargs["game_id"] == game.pk:
            real(**kwargs)  # queues its rows, then fails: they must be rolled back with the job
            raise RuntimeError("template broke")
        return real(**kwargs)

    with mock.patch.object(result_mails, "result_notifications_queue", side_effect=render_fails_for_game):
        assert sweep() == 1  # the other game's job ran
        broken.refresh_from_db()
        assert broken.status == MailJobStatus.PENDING and broken.attempts == 1 and "template broke" in broken.last_error
        assert broken.due_at > later()  # backed off beyond the next sweep
        assert not Notification.objects.filter(game=game, kind=NotificationKind.RESULT).exists()
        assert Notification.objects.filter(game=other, kind=NotificationKind.RESULT).count() == 1  # seat 0 is asked
        for _ in range(jobs.MAX_JOB_ATTEMPTS - 1):
            sweep(now=later(30 * 24 * 3600))
    broken.refresh_from_db()
    assert broken.status == MailJobStatus.FAILED and broken.attempts == jobs.MAX_JOB_ATTEMPTS
    assert sweep(now=later(60 * 24 * 3600)) == 0  # given up: not retried forever
    fine.refresh_from_db()
    assert fine.status == MailJobStatus.DONE


def test_the_sweep_reads_only_pending_due_jobs_in_batches():
    game, users = start_game(players=2, options={"rounds": 1})
    result_down, _ = broker_down()
    with result_down:
        play_step(game)
    job = MailJob.objects.get(game=game)
    assert list(jobs.due_jobs(now=timezone.now())) == []
    assert list(jobs.due_jobs(now=later())) == [job]
    sql = str(jobs.due_jobs(now=later()).query)
    assert '"status" = pending' in sql.replace("'", "") and '"due_at" <=' in sql  # the partial index's rows
    with mock.patch.object(jobs, "SWEEP_BATCH", 0):
        assert sweep() == 0
    assert sweep() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_job_another_worker_holds_is_skipped_not_waited_for_nor_run_twice():
    """Several mail workers (or a late task and the sweep) never run one job at once: SKIP LOCKED."""
    game, users = start_game(players=2, options={"rounds": 1})
    result_down, _ = broker_down()
    with result_down:
        play_step(game)
    job = MailJob.objects.get(game=game)
    holding, release, done = threading.Event(), threading.Event(), []

    def other_worker():
        from django.db import connection as own

        try:
            with transaction.atomic():
                MailJob.objects.select_for_update().get(pk=job.pk)
                holding.set()
                release.wait(20)
        finally:
            own.close()
            done.append(True)

    worker = threading.Thread(target=other_worker)
    worker.start()
    try:
        assert holding.wait(20)
        started = timezone.now()
        assert sweep() == 0  # skipped at once, not blocked behind the lock
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert tasks.queue_result_notifications.apply(args=(game.pk, 0, job.event_ids)).get() == 0
        assert (timezone.now() - started).total_seconds() < 5
        assert not Notification.objects.filter(kind=NotificationKind.RESULT).exists()
    finally:
        release.set()
        worker.join(20)
    assert sweep() == 1
    assert Notification.objects.filter(kind=NotificationKind.RESULT).count() == 1  # seat 0 is asked: no result email


@pytest.mark.postgres
def test_on_postgresql_the_sweep_query_uses_the_partial_index_of_pending_jobs():
    """Its cost grows with pending jobs only, however many done ones pile up (a million games' worth)."""
    game, _ = start_game(players=2, options={"rounds": 1})
    play_step(game)
    qs = jobs.due_jobs(now=later()).values_list("pk", flat=True)[:jobs.SWEEP_BATCH]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = qs.explain()
    assert "mail_job_pending" in plan, plan
