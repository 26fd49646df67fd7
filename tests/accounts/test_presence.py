"""Presence on the game's page (accounts/presence.py) and prompt mail: a prompt is mailed only to a player
who is away from the game's page and has not answered within MAIL_PROMPT_DELAY_SECONDS; "every decision" /
"when I'm away" / "digest only" / "never", per account and per game; the reminder still reaches an away
player; the outbox keeps its guarantees (the delay is the row's not_before, re-checked at send time: nothing
lost, nothing sent twice)."""

from __future__ import annotations

from datetime import timedelta

from unittest import mock

import pytest
from django.core import mail
from django.core.cache import cache
from django.db.models import F
from django.test import TestCase
from django.utils import timezone

from accounts.models import GamePresence, GamePromptMail, NotificationPreferences
from accounts.presence import forget, presence_record
from games.mail import delivery, prompt_mails, reminders
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.models import Prompt, Submission, SubmissionSource
from tests.factories import make_started_game
from tests.games.helpers import open_prompt, pick
from tests.mail.helpers import mails_to

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _delay_and_fresh_cache(settings):
    settings.MAIL_PROMPT_DELAY_SECONDS = 120  # the tests' default is 0 (faltisia/test_settings.py)
    cache.clear()  # the presence throttle's keys of an earlier test (ids are reused)
    yield
    cache.clear()


def started(**kwargs):
    """A 2-seat tinygame, its start's prompt task not run yet (so a test can put a player on the page first)."""
    with TestCase.captureOnCommitCallbacks(execute=False):
        game, users = make_started_game(players=2, options={"rounds": 1}, **kwargs)
    return game, users


def open_task(game) -> None:
    """The prompt task of the write that opened the game's prompts (as the worker runs it)."""
    ids = list(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True))
    with TestCase.captureOnCommitCallbacks(execute=True):
        prompt_mails.prompt_notifications_queue(prompt_ids=ids)


def due_run(prompt: Prompt, *, at, send_now: bool = True) -> prompt_mails.PromptMails:
    """The look-again task of a "when away" prompt (tasks.queue_due_prompt_notifications), run at ``at``;
    ``send_now``: its send task runs too (else the test sends the row itself)."""
    with TestCase.captureOnCommitCallbacks(execute=send_now):
        return prompt_mails.prompt_mails_run(prompt_ids=[prompt.pk], now=at)


def row_of(prompt: Prompt, kind=NotificationKind.PROMPT) -> Notification | None:
    return Notification.objects.filter(prompt=prompt, kind=kind).first()


def send(row: Notification, *, at) -> str:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return delivery.notification_send(notification_id=row.pk, now=at)


def sweep(*, at=None) -> int:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return prompt_mails.due_prompt_notifications_queue(now=at)


def leave(user, game, *, minutes_ago: int = 2) -> None:
    """The player's last sign on the page was ``minutes_ago`` minutes ago."""
    GamePresence.objects.filter(user=user, game=game).update(seen_at=timezone.now() - timedelta(minutes=minutes_ago))
    cache.clear()


def test_an_away_player_is_mailed_after_the_delay_and_not_before():
    game, (alice, bob) = started()
    open_task(game)
    prompt = open_prompt(game, 0)
    # Its task ran at once and found it not due: nothing rendered, the prompt still pending for the sweep,
    # and its due time handed back for a look-again task.
    assert row_of(prompt) is None and Prompt.objects.get(pk=prompt.pk).mail_pending
    assert mails_to(alice.email) == []
    assert due_run(prompt, at=prompt.opened_at + timedelta(seconds=60)).later == {
        prompt.opened_at + timedelta(seconds=120): [prompt]}
    assert row_of(prompt) is None
    assert len(due_run(prompt, at=prompt.opened_at + timedelta(seconds=121)).queued) == 1
    row = row_of(prompt)
    assert row.status == NotificationStatus.SENT and row.away_only
    assert len(mails_to(alice.email)) == 1 and not Prompt.objects.get(pk=prompt.pk).mail_pending
    assert due_run(prompt, at=prompt.opened_at + timedelta(seconds=300)).queued == []  # never twice
    assert send(row, at=prompt.opened_at + timedelta(seconds=300)) == NotificationStatus.SENT
    assert len(mails_to(alice.email)) == 1


def opening_enqueues(game) -> list[str]:
    """The mail tasks the prompts_opened receiver enqueues for the game's open prompts (as their write did)."""
    from games.mail import receivers
    from games.signals import OpenedPrompt

    opened = [OpenedPrompt(prompt=p, follow_up_of=None) for p in Prompt.objects.filter(game=game, closed_at__isnull=True)]
    with mock.patch.object(receivers, "task_enqueue_on_commit") as enqueue:
        receivers.on_prompts_opened(sender=None, opened=opened)
    return [call.args[0].name for call in enqueue.call_args_list]


def test_a_write_that_opens_only_when_away_prompts_enqueues_no_mail_task(settings):
    """A "when away" prompt's emails are due after the delay, when the prompt sweep finds them (if still open): a
    task now would find nothing to do. A player who wants every decision mailed, or no delay, gets one task."""
    game, (alice, bob) = started()
    assert opening_enqueues(game) == []
    prompt = open_prompt(game, 0)
    assert sweep(at=prompt.opened_at + timedelta(seconds=100)) == 0  # not due yet
    assert sweep(at=prompt.opened_at + timedelta(seconds=121)) == 2  # due: both away players mailed once
    assert row_of(prompt).status == NotificationStatus.SENT
    GamePromptMail.objects.create(user=bob, game=game, mode="every")
    assert opening_enqueues(game) == ["mail.queue_prompt_notifications"]
    GamePromptMail.objects.filter(user=bob).delete()
    settings.MAIL_PROMPT_DELAY_SECONDS = 0
    assert opening_enqueues(game) == ["mail.queue_prompt_notifications"]


def test_a_resolution_records_a_result_job_only_if_a_seat_reads_results():
    from games.mail.models import MailJob, MailJobKind
    from tests.games.helpers import play_step
    from tests.mail.helpers import start_game

    game, (alice, bob) = start_game(players=2, options={"rounds": 3})
    NotificationPreferences.objects.update(email_results=False)  # the default of a new account
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)
    assert not MailJob.objects.filter(game=game, kind=MailJobKind.RESULT).exists()  # nobody reads results
    NotificationPreferences.objects.filter(user=bob).update(email_results=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)
    assert MailJob.objects.filter(game=game, kind=MailJobKind.RESULT).count() == 1
    User = type(bob)
    User.objects.filter(pk=bob.pk).update(email_verified_at=None)  # an address not confirmed reads nothing
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)
    assert MailJob.objects.filter(game=game, kind=MailJobKind.RESULT).count() == 1


def test_a_prompt_answered_on_the_page_within_the_delay_is_never_mailed():
    game, (alice, bob) = started()
    open_task(game)
    prompt = open_prompt(game, 0)
    pick(game, 0, source=SubmissionSource.WEB)
    assert due_run(prompt, at=prompt.opened_at + timedelta(seconds=121)) == prompt_mails.PromptMails(queued=[], later={})
    assert row_of(prompt) is None and not Prompt.objects.get(pk=prompt.pk).mail_pending  # settled: never mailed
    assert [m for m in mails_to(alice.email) if m.extra_headers.get("X-Faltisia-Prompt") == str(prompt.pk)] == []


def test_a_player_on_the_page_gets_no_mail_until_they_leave_without_answering():
    game, (alice, bob) = started()
    presence_record(user_id=alice.pk, game_id=game.pk)  # the page's live update
    open_task(game)
    prompt = open_prompt(game, 0)
    assert row_of(prompt) is None  # nothing rendered for a player who is there
    assert Prompt.objects.get(pk=prompt.pk).mail_pending  # the sweep looks again
    later = timezone.now() + timedelta(seconds=30)
    assert sweep(at=later) == 0 and row_of(prompt) is None  # still there (a sign within the minute)
    leave(alice, game)
    Prompt.objects.filter(pk=prompt.pk).update(opened_at=F("opened_at") - timedelta(minutes=3))
    assert sweep() == 1
    assert row_of(prompt).status == NotificationStatus.SENT  # due already: the delay has passed
    assert sweep() == 0  # settled: once


def test_a_player_who_comes_to_the_page_after_the_mail_was_queued_is_not_mailed_while_there():
    game, (alice, bob) = started()
    open_task(game)
    prompt = open_prompt(game, 0)
    due_run(prompt, at=prompt.opened_at + timedelta(seconds=121), send_now=False)  # the delay passed: queued
    row = row_of(prompt)
    presence_record(user_id=alice.pk, game_id=game.pk)
    assert send(row, at=timezone.now()) == delivery.POSTPONED
    row.refresh_from_db()
    assert row.status == NotificationStatus.PENDING and row.not_before > timezone.now()  # until a minute after the sign
    leave(alice, game)
    assert send(row, at=row.not_before + timedelta(seconds=1)) == NotificationStatus.SENT


def test_a_pick_on_the_page_is_a_sign_of_presence_too(settings):
    settings.MAIL_FOLLOWUP_DELAY_SECONDS = 0  # the bet is not held back as a follow-up: presence holds it
    game, (alice, bob) = started()
    open_task(game)
    pick(game, 0, source=SubmissionSource.WEB)  # alice plays her card on the page; the bet opens
    bet = open_prompt(game, 0)
    assert not prompt_mails.prompt_notifications_queue(prompt_ids=[bet.pk])
    assert row_of(bet) is None
    Submission.objects.update(created_at=F("created_at") - timedelta(minutes=20))
    Prompt.objects.filter(pk=bet.pk).update(opened_at=F("opened_at") - timedelta(minutes=20))
    assert sweep() == 1  # she left twenty minutes ago: mailed


def test_every_decision_is_mailed_at_once_even_to_a_player_on_the_page():
    game, (alice, bob) = started()
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"prompt_mail": "every"})
    presence_record(user_id=alice.pk, game_id=game.pk)
    open_task(game)
    row = row_of(open_prompt(game, 0))
    assert row.status == NotificationStatus.SENT and not row.away_only and row.not_before is None


@pytest.mark.parametrize("mode", ["digest", "never"])
def test_digest_only_and_never_mail_no_decision_and_no_reminder(mode):
    clock = {"type": "fixed", "step_seconds": 3 * 3600, "extensions": 0}
    game, (alice, bob) = started(clock=clock)
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"prompt_mail": mode})
    open_task(game)
    prompt = open_prompt(game, 0)
    assert row_of(prompt) is None and not Prompt.objects.get(pk=prompt.pk).mail_pending
    reminders.reminders_due_queue(now=prompt.deadline - timedelta(hours=1))
    assert row_of(prompt, NotificationKind.REMINDER) is None
    bob_prompt = open_prompt(game, 1)
    assert Prompt.objects.get(pk=bob_prompt.pk).mail_pending  # bob, with the default, is mailed once away
    due_run(bob_prompt, at=bob_prompt.opened_at + timedelta(seconds=121))
    assert row_of(bob_prompt).status == NotificationStatus.SENT


def test_a_games_own_choice_beats_the_accounts():
    game, (alice, bob) = started()
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"prompt_mail": "never"})
    GamePromptMail.objects.create(user=alice, game=game, mode="every")
    GamePromptMail.objects.create(user=bob, game=game, mode="never")
    open_task(game)
    assert row_of(open_prompt(game, 0)).status == NotificationStatus.SENT
    assert row_of(open_prompt(game, 1)) is None


def test_the_master_switch_off_wins_over_a_games_own_choice():
    game, (alice, bob) = started()
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"email_prompts": False})
    GamePromptMail.objects.create(user=alice, game=game, mode="every")
    open_task(game)
    assert row_of(open_prompt(game, 0)) is None


def test_the_reminder_goes_to_an_away_player_once_and_not_to_one_on_the_page():
    clock = {"type": "fixed", "step_seconds": 3 * 3600, "extensions": 0}
    game, (alice, bob) = started(clock=clock)
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"reminder_lead_hours": [2]})
    NotificationPreferences.objects.update_or_create(user=bob, defaults={"reminder_lead_hours": [2]})
    presence_record(user_id=bob.pk, game_id=game.pk)
    open_task(game)
    a, b = open_prompt(game, 0), open_prompt(game, 1)
    at = a.deadline - timedelta(hours=2) + timedelta(seconds=1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=at)
    ra, rb = row_of(a, NotificationKind.REMINDER), row_of(b, NotificationKind.REMINDER)
    assert ra.away_only and rb.away_only
    assert send(ra, at=timezone.now()) == NotificationStatus.SENT
    assert send(rb, at=timezone.now()) == NotificationStatus.SKIPPED  # bob is on the page: he sees the countdown
    assert Notification.objects.get(pk=ra.pk).subject.endswith(": 2 hours left")
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=at + timedelta(minutes=5))
    assert Notification.objects.filter(prompt=a, kind=NotificationKind.REMINDER).count() == 1  # once


def test_a_postponed_row_is_swept_once_due_and_sent_once():
    """The outbox sweep finds a row whose send was postponed (its task lost) once its new time passed."""
    from games.mail import outbox

    game, (alice, bob) = started()
    open_task(game)
    prompt = open_prompt(game, 0)
    due_run(prompt, at=prompt.opened_at + timedelta(seconds=121), send_now=False)
    row = row_of(prompt)
    presence_record(user_id=alice.pk, game_id=game.pk)
    assert send(row, at=timezone.now()) == delivery.POSTPONED
    leave(alice, game)
    row.refresh_from_db()
    enqueued = []
    outbox.outbox_sweep(now=row.not_before + timedelta(minutes=2), enqueue=lambda pk, kind: enqueued.append(pk))
    assert row.pk in enqueued
    assert outbox.outbox_sweep(now=row.not_before - timedelta(seconds=1), enqueue=lambda pk, kind: enqueued.append(-pk)) >= 0
    assert -row.pk not in enqueued  # not before its new time
    assert send(row, at=row.not_before + timedelta(seconds=1)) == NotificationStatus.SENT
    assert len([m for m in mail.outbox if alice.email in m.to]) == 1


def test_presence_is_stored_at_most_every_few_seconds_and_forgotten():
    game, (alice, bob) = started()
    presence_record(user_id=alice.pk, game_id=game.pk)
    first = GamePresence.objects.get(user=alice, game=game).seen_at
    presence_record(user_id=alice.pk, game_id=game.pk, now=first + timedelta(seconds=3))
    assert GamePresence.objects.get(user=alice, game=game).seen_at == first  # throttled by the cache
    forget(user_id=alice.pk, game_id=game.pk)
    assert not GamePresence.objects.exists()


def test_a_result_email_does_not_follow_a_player_watching_the_page_but_reaches_one_away():
    """A player on the page gets no mail: the step's result email (sent to a seat with nothing to decide next) is
    for a player away from the page; on the page the live update shows it."""
    from tests.games.helpers import play_step
    from tests.mail.helpers import start_game

    def results_to(user) -> int:
        return Notification.objects.filter(user=user, kind=NotificationKind.RESULT).count()

    for watching in (False, True):
        game, (alice, bob) = start_game(players=2, options={"rounds": 1})
        if watching:
            presence_record(user_id=bob.pk, game_id=game.pk)
        with TestCase.captureOnCommitCallbacks(execute=True):
            play_step(game)  # the draft: alice is asked next (her prompt carries it), bob has nothing to decide
        assert results_to(alice) == 0
        assert results_to(bob) == (0 if watching else 1)
        cache.clear()


def test_a_player_who_wants_every_decision_mailed_gets_the_result_email_on_the_page_too():
    from tests.games.helpers import play_step
    from tests.mail.helpers import start_game
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user=bob).update(prompt_mail="every")
    presence_record(user_id=bob.pk, game_id=game.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)
    assert Notification.objects.filter(user=bob, kind=NotificationKind.RESULT).count() == 1


def test_a_result_reader_asked_next_by_a_mail_not_due_yet_gets_no_result_email():
    """A result email is only for a seat with nothing to decide next: a seat asked to decide next is told what
    happened by its prompt email, even while that email waits for its delay (rendered only when due)."""
    from tests.games.helpers import play_step
    from tests.mail.helpers import start_game

    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user__in=[alice, bob]).update(email_results=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)  # the draft: alice is asked next, bob has nothing to decide
    prompt = open_prompt(game, 0)
    assert row_of(prompt) is None and Prompt.objects.get(pk=prompt.pk).mail_pending
    assert Notification.objects.filter(user=alice, kind=NotificationKind.RESULT).count() == 0
    assert Notification.objects.filter(user=bob, kind=NotificationKind.RESULT).count() == 1
    due_run(prompt, at=prompt.opened_at + timedelta(seconds=121))
    assert row_of(prompt).status == NotificationStatus.SENT
