"""Follow-up prompts within one step are not spammed to web and API players, and cost nothing at once.

The rule (prompt_mails.prompt_due_at): a seat's FIRST prompt of a step is emailed at once; a follow-up
(the seat already answered a prompt in this step) is emailed at once only if that pick came by email.
Otherwise nothing is enqueued or rendered when it opens: the prompt sweep (beat) emails it once
MAIL_FOLLOWUP_DELAY_SECONDS have passed if it is still open, and never if it was answered meanwhile.
The tinygame's draft step is such a compound decision: play a card, then bet.
"""

from __future__ import annotations

import io
from contextlib import ExitStack, contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.db.models import F
from django.test import TestCase, override_settings
from django.utils import timezone

from games.mail import compose, delivery, outbox, prompt_mails, tasks
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.models import Prompt, Submission, SubmissionSource
from tests.games.helpers import open_prompt, pick
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny():
    return start_game(players=2, options={"rounds": 1})


def prompt_mails_to(user) -> list:
    return [m for m in mails_to(user.email) if "X-Faltisia-Prompt" in m.extra_headers]


def prompt_row(prompt: Prompt) -> Notification | None:
    return Notification.objects.filter(prompt=prompt, kind=NotificationKind.PROMPT).first()


def minutes_pass(minutes: int) -> None:
    """Age every open prompt and the picks made, as if ``minutes`` had passed (a pick on the page is a sign
    of presence for a minute)."""
    Prompt.objects.filter(closed_at__isnull=True).update(opened_at=F("opened_at") - timedelta(minutes=minutes))
    Submission.objects.update(created_at=F("created_at") - timedelta(minutes=minutes))


def sweep() -> int:
    """The beat task that emails due prompts, its send tasks run as the worker would run them."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tasks.sweep_prompt_notifications.apply().get()


@contextmanager
def watching():
    """Count the prompt tasks enqueued (they still run, eagerly) and the prompt emails rendered."""
    with ExitStack() as stack:
        enqueued = [stack.enter_context(mock.patch.object(t, "apply_async", wraps=t.apply_async))
                    for t in (tasks.queue_prompt_notifications, tasks.queue_prompt_notification)]
        render = stack.enter_context(mock.patch.object(compose, "render_prompt", wraps=compose.render_prompt))
        counts = {}
        yield counts
        counts.update(enqueued=sum(e.call_count for e in enqueued), rendered=render.call_count)


def test_the_first_prompt_of_a_step_is_emailed_at_once(tiny):
    game, (alice, bob) = tiny
    for user in (alice, bob):
        row = prompt_row(Prompt.objects.get(seat__user=user, closed_at__isnull=True))
        assert row.status == NotificationStatus.SENT and row.not_before is None
        assert len(prompt_mails_to(user)) == 1


@pytest.mark.parametrize("source", [SubmissionSource.WEB, SubmissionSource.API])
def test_a_follow_up_after_a_web_or_api_pick_costs_nothing_at_once_and_the_sweep_emails_it_when_due(tiny, source):
    game, (alice, bob) = tiny
    with watching() as counts:
        pick(game, 0, source=source)  # the card, clicked on the site: the bet prompt opens at once
    assert counts == {"enqueued": 0, "rendered": 0}
    bet = open_prompt(game, 0)
    assert prompt_row(bet) is None and len(prompt_mails_to(alice)) == 1
    # Not before its delay: neither the sweep nor a stray task (the old one-prompt task) emails it.
    minutes_pass(9)
    with watching() as counts:
        assert sweep() == 0
        assert tasks.queue_prompt_notification.apply(args=(bet.pk,)).get() is False
    assert counts["rendered"] == 0 and prompt_row(bet) is None
    # Still open when due (the player left the site): the sweep emails it, once.
    minutes_pass(1)
    assert sweep() == 1
    assert prompt_row(bet).status == NotificationStatus.SENT and prompt_row(bet).not_before is None
    assert latest_prompt_mail(alice.email).extra_headers["X-Faltisia-Prompt"] == str(bet.pk)
    assert sweep() == 0 and len(prompt_mails_to(alice)) == 2


def test_a_follow_up_answered_within_the_delay_is_never_rendered_nor_sent(tiny):
    game, (alice, bob) = tiny
    with watching() as counts:
        pick(game, 0, source=SubmissionSource.WEB)
        bet = open_prompt(game, 0)
        pick(game, 0, source=SubmissionSource.WEB)  # the bet, a few seconds later
        minutes_pass(60)
        assert sweep() == 0
    assert counts["rendered"] == 0 and prompt_row(bet) is None
    assert len(prompt_mails_to(alice)) == 1


def test_a_follow_up_after_an_email_pick_comes_in_the_answer_not_a_mail_of_its_own(tiny):
    """One mail per reply: the answer to the reply carries the next decision (the bet); no prompt mail follows."""
    game, (alice, bob) = tiny
    before = len(mails_to(alice.email))
    assert pipe(reply_bytes(latest_prompt_mail(alice.email), "1")).startswith("recorded")
    bet = open_prompt(game, 0)
    assert prompt_row(bet) is None
    (answer,) = mails_to(alice.email)[before:]
    assert answer.extra_headers["X-Faltisia-Prompt"] == str(bet.pk) and "YOUR DECISION: Bet" in answer.body


def test_the_next_steps_first_prompt_is_emailed_at_once_even_after_web_picks(tiny):
    game, (alice, bob) = tiny
    for position in (0, 1, 0, 1):  # both seats: card then bet, on the site; the step resolves
        pick(game, position, source=SubmissionSource.WEB)
    take = open_prompt(game, 0)
    assert take.phase == 1
    assert prompt_row(take) is None  # alice just picked on the page: she is there
    minutes_pass(2)  # she left without answering: the sweep mails it
    assert sweep() == 1 and prompt_row(take).status == NotificationStatus.SENT


def test_a_follow_up_after_a_standing_order_waits_like_one_after_a_web_pick(tiny):
    """Only an email pick means the player is in their inbox; any other previous pick holds it back."""
    game, (alice, bob) = tiny
    pick(game, 0, source=SubmissionSource.STANDING)
    bet = open_prompt(game, 0)
    assert prompt_row(bet) is None
    now = timezone.now()
    assert prompt_mails.prompt_notifications_queue(prompt_ids=[bet.pk], now=now) == []
    with TestCase.captureOnCommitCallbacks(execute=True):
        (row,) = prompt_mails.prompt_notifications_queue(prompt_ids=[bet.pk], now=now + prompt_mails.followup_delay())
    assert row.prompt_id == bet.pk and row.not_before is None


@override_settings(MAIL_FOLLOWUP_DELAY_SECONDS=0)
def test_without_a_delay_a_follow_up_is_emailed_at_once(tiny):
    game, (alice, bob) = tiny
    pick(game, 0, source=SubmissionSource.API)
    assert prompt_row(open_prompt(game, 0)).status == NotificationStatus.SENT


def test_the_task_and_the_sweep_racing_send_it_once(tiny):
    """A write's task still queued after a minute (a busy mail worker): the sweep emails its prompts and
    the task, when it runs, queues nothing more; the other way round likewise; and if both pass the
    "queued before?" check at the same moment, the unique dedupe key lets one of them win."""
    game, (alice, bob) = tiny
    cards = [open_prompt(game, 0), open_prompt(game, 1)]
    write = (game.pk, cards[0].opened_at.isoformat())  # the game's start opened both
    later = timezone.now() + timedelta(minutes=2)

    def task() -> int:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return tasks.queue_prompt_notifications.apply(args=write).get()

    def sweep_at(now) -> int:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return prompt_mails.due_prompt_notifications_queue(now=now)

    def lost() -> None:  # the emails gone and the prompts unsettled, as if nothing had run
        Notification.objects.all().delete()
        Prompt.objects.filter(pk__in=[c.pk for c in cards]).update(mail_pending=True)

    lost()
    assert sweep_at(later) == 2 and task() == 0
    lost()
    assert task() == 2 and sweep_at(later) == 0
    lost()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert len(prompt_mails.prompt_notifications_queue(prompt_ids=[cards[0].pk])) == 1
        with mock.patch("django.db.models.query.QuerySet.exists", return_value=False):  # not committed yet
            assert prompt_mails.prompt_notifications_queue(prompt_ids=[cards[0].pk]) == []
    assert Notification.objects.filter(prompt=cards[0], kind=NotificationKind.PROMPT).count() == 1


def test_in_the_embedded_mode_the_beat_stand_in_sends_a_held_back_follow_up_once_due(tiny):
    """Eager tasks, no beat: `manage.py beat_embedded` (started by run.sh) runs the prompt sweep too."""
    game, (alice, bob) = tiny
    pick(game, 0, source=SubmissionSource.WEB)
    bet = open_prompt(game, 0)
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("beat_embedded", "--once", stdout=io.StringIO())
    assert prompt_row(bet) is None and len(prompt_mails_to(alice)) == 1
    minutes_pass(11)
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("beat_embedded", "--once", stdout=io.StringIO())
    assert prompt_row(bet).status == NotificationStatus.SENT and len(prompt_mails_to(alice)) == 2


def test_a_delayed_row_queued_by_the_previous_release_is_still_sent_only_when_due(tiny):
    """Outbox rows with ``not_before`` (rendered at once by the old receiver) may be pending at a deploy."""
    game, (alice, bob) = tiny
    pick(game, 0, source=SubmissionSource.WEB)
    bet = open_prompt(game, 0)
    with TestCase.captureOnCommitCallbacks(execute=False):
        row = outbox.notification_queue(
            kind=NotificationKind.PROMPT, dedupe_key=f"prompt:{bet.pk}:seat{bet.seat_id}", address=alice.email,
            user_id=alice.pk, game=game, seat=bet.seat, prompt=bet, not_before=bet.opened_at + timedelta(minutes=10),
            render=lambda: compose.render_prompt(prompt=bet, user=alice))
    Notification.objects.filter(pk=row.pk).update(created_at=F("created_at") - timedelta(minutes=5))
    assert outbox.outbox_sweep(enqueue=lambda pk, kind: None) == 0
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.PENDING
    Notification.objects.filter(pk=row.pk).update(not_before=F("not_before") - timedelta(minutes=12))
    found: list[tuple[int, str]] = []
    assert outbox.outbox_sweep(enqueue=lambda *task: found.append(task)) == 1 and found == [(row.pk, "prompt")]
    assert delivery.notification_send(notification_id=row.pk) == NotificationStatus.SENT
