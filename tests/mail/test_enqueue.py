"""Email work happens in a worker, never in the request that made a pick (CONVENTIONS.md 2: thin
tasks taking ids, enqueued on commit; an enqueue failure never fails the write, a sweep catches up).
A write enqueues at most one prompt task, whatever the number of prompts it opened.
"""

from __future__ import annotations

import json
from contextlib import ExitStack, contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.db import connection
from django.db.models import F
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from kombu.exceptions import OperationalError

from accounts.models import NotificationPreferences
from games.mail import compose, prompt_mails, prompt_rows, result_mails, tasks
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.models import Event, Prompt
from tests.games.helpers import open_prompt, pick, play_step
from tests.mail.helpers import mails_to, start_game

pytestmark = pytest.mark.django_db

QUEUE_TASKS = (tasks.queue_prompt_notifications, tasks.queue_prompt_notification, tasks.queue_result_notifications,
               tasks.queue_finished_notifications)


def move(api, game, user, position: int):
    """POST /api/games/{id}/moves/ with the seat's first option, its on-commit callbacks run."""
    prompt = open_prompt(game, position)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return api.as_user(user).post(f"/api/games/{game.pk}/moves/",
                                      {"prompt": prompt.prompt_id, "option": prompt.options[0]["id"]}, format="json")


@contextmanager
def enqueues():
    """Count what the receivers enqueue (by task name) and what is rendered, instead of running it."""
    with ExitStack() as stack:
        calls = {t.name: stack.enter_context(mock.patch.object(t, "apply_async")) for t in QUEUE_TASKS}
        render = stack.enter_context(mock.patch.object(compose, "render_prompt", wraps=compose.render_prompt))
        yield calls, render


def run_prompt_tasks(calls) -> None:
    """Run the enqueued prompt tasks as the mail worker would."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        for call in calls["mail.queue_prompt_notifications"].call_args_list:
            tasks.queue_prompt_notifications.apply(args=call.kwargs["args"])


def test_the_queue_tasks_have_names_time_limits_and_late_acks():
    for task, name in zip(QUEUE_TASKS, ("mail.queue_prompt_notifications", "mail.queue_prompt_notification",
                                        "mail.queue_result_notifications", "mail.queue_finished_notifications")):
        assert task.name == name
        assert task.time_limit and task.soft_time_limit < task.time_limit
        assert task.acks_late and task.reject_on_worker_lost  # safe: the dedupe keys make a rerun a no-op


def test_a_pick_over_the_api_only_enqueues_the_email_tasks_with_json_args(api):
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    rows_before = Notification.objects.count()
    with enqueues() as (calls, render):
        for position, user in ((0, alice), (1, bob), (0, alice), (1, bob)):  # card, card, bet, bet: resolved
            assert move(api, game, user, position).status_code == 201
    assert render.call_count == 0  # nothing was rendered in the requests
    assert Notification.objects.count() == rows_before  # nor stored: only the tasks do that
    # The bets follow their seat's API pick: held back, nothing enqueued. The resolution opened seat 0's
    # take: one task for that write (its game and time), and the result task.
    take = open_prompt(game, 0)
    assert take.prompt_id == "s1-0-take"
    prompt_calls = calls["mail.queue_prompt_notifications"].call_args_list
    assert [c.kwargs["args"] for c in prompt_calls] == [(game.pk, take.opened_at.isoformat())]
    assert not calls["mail.queue_prompt_notification"].called  # the one-prompt task is only an alias now
    (result,) = calls["mail.queue_result_notifications"].call_args_list
    game_id, phase, event_ids = result.kwargs["args"]
    assert (game_id, phase) == (game.pk, 0)
    assert event_ids and set(Event.objects.filter(pk__in=event_ids).values_list("game_id", flat=True)) == {game.pk}
    for call in prompt_calls + [result]:
        json.dumps(call.kwargs["args"])  # the JSON serializer takes them as they are
    # The worker's side: running the tasks renders, stores and sends; running them again changes nothing.
    for _ in range(2):
        run_prompt_tasks(calls)
        with TestCase.captureOnCommitCallbacks(execute=True):
            tasks.queue_result_notifications.apply(args=result.kwargs["args"])
        assert Notification.objects.get(prompt=take, kind=NotificationKind.PROMPT).status == NotificationStatus.SENT
        assert Notification.objects.filter(kind=NotificationKind.PROMPT).count() == 3  # 2 first cards + take
        # One result email: alice (seat 0) is asked the take, her prompt email carries the result;
        # bob has nothing to decide.
        assert list(Notification.objects.filter(kind=NotificationKind.RESULT).values_list("user", flat=True)) \
            == [bob.pk]


def test_a_write_opening_every_seats_prompt_enqueues_one_task_for_all_of_them():
    """The game's start opens 4 prompts in one write, and so does a resolution: one task each, which
    emails every seat but the one whose player opted out."""
    with enqueues() as (calls, render):
        game, users = start_game(players=4, options={"rounds": 2})
    assert calls["mail.queue_prompt_notifications"].call_count == 1
    assert render.call_count == 0
    NotificationPreferences.objects.update_or_create(user=users[3], defaults={"email_prompts": False})
    with enqueues() as (calls, render):
        for _ in range(2):  # card and bet for every seat: resolved; then the takes, one seat at a time
            play_step(game)
    game.refresh_from_db()
    cards = list(Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position"))
    assert game.phase == 2 and [p.prompt_id.split("-", 1)[1] for p in cards] == [f"{s}-card" for s in range(4)]
    prompt_calls = calls["mail.queue_prompt_notifications"].call_args_list
    # Each take was the first prompt of its seat in the step (4 writes), and the resolution opened the
    # four cards: one task, not four. The bets (follow-ups after API picks) enqueued nothing.
    assert [c.kwargs["args"] for c in prompt_calls][-1] == (game.pk, cards[0].opened_at.isoformat())
    assert len(prompt_calls) == 4 + 1
    with CaptureQueriesContext(connection) as reads:
        ids = prompt_rows.write_prompt_ids(game_id=game.pk, opened_at=cards[0].opened_at)
    assert ids == [p.pk for p in cards] and len(reads) == 1
    n = len(mail.outbox)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert tasks.queue_prompt_notifications.apply(args=prompt_calls[-1].kwargs["args"]).get() == 3
    assert sorted(m.to[0] for m in mail.outbox[n:]) == sorted(u.email for u in users[:3])
    assert not Notification.objects.filter(user=users[3], prompt__in=cards).exists()


def test_the_prompts_seats_users_and_preferences_are_read_in_one_query_whatever_their_number():
    game, users = start_game(players=4, options={"rounds": 1})
    ids = list(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True))
    Notification.objects.all().delete()
    NotificationPreferences.objects.update_or_create(user=users[1], defaults={"email_prompts": False})
    with mock.patch.object(prompt_mails, "notification_queue") as queue:
        with CaptureQueriesContext(connection) as reads:
            prompt_mails.prompt_notifications_queue(prompt_ids=ids)
    # One read, and one UPDATE settling the four prompts for the prompt sweep.
    assert len(reads) == 2 and reads[1]["sql"].startswith("UPDATE"), [q["sql"] for q in reads]
    assert sorted(c.kwargs["user_id"] for c in queue.call_args_list) == sorted(u.pk for u in users if u != users[1])


def test_a_resolutions_result_emails_read_the_players_and_their_preferences_in_one_query():
    """Once per resolution: the game, its events, then every seat with its player and preferences (not a
    query per player)."""
    game, users = start_game(players=4, options={"rounds": 1})
    play_step(game)  # the first step resolved: its events are public
    event_ids = list(Event.objects.filter(game=game).values_list("pk", flat=True))
    assert event_ids
    NotificationPreferences.objects.update_or_create(user=users[2], defaults={"email_results": False})
    # The result emails and the prompt emails the resolution's job queues first, as one mock.
    with mock.patch.object(result_mails, "notification_queue") as queue, \
            mock.patch.object(prompt_mails, "notification_queue", queue):
        with CaptureQueriesContext(connection) as reads:
            result_mails.result_notifications_queue(game_id=game.pk, phase=0, event_ids=event_ids)
    # The game, the prompts the resolution opened (2), their prompt emails' read and settling UPDATE, the
    # seats asked by a prompt email, the events, the seats: 8 whatever the players.
    assert len(reads) == 8, [q["sql"] for q in reads]
    readers = sorted(c.kwargs["user_id"] for c in queue.call_args_list)
    assert readers == sorted(u.pk for u in users if u != users[2])


def test_with_the_broker_down_a_pick_still_succeeds_and_the_sweep_sends_the_missing_prompt_email(api, caplog):
    down = OperationalError("Error 111 connecting to redis: Connection refused")
    with ExitStack() as stack:
        for t in QUEUE_TASKS:
            stack.enter_context(mock.patch.object(t, "apply_async", side_effect=down))
        game, (alice, bob) = start_game(players=2, options={"rounds": 1})
        assert move(api, game, alice, 0).status_code == 201  # the pick is stored; the request does not fail
    assert "could not enqueue mail.queue_prompt_notifications" in caplog.text
    assert not Notification.objects.filter(kind=NotificationKind.PROMPT).exists()
    bob_card, alice_bet = open_prompt(game, 1), open_prompt(game, 0)

    def beat_sweep():
        with TestCase.captureOnCommitCallbacks(execute=True):
            return tasks.sweep_prompt_notifications.apply().get()

    # Within the first minute the sweep leaves them to their own tasks (they may just be slow).
    assert beat_sweep() == 0
    Prompt.objects.filter(game=game).update(opened_at=F("opened_at") - timedelta(minutes=2))
    assert beat_sweep() == 1  # bob's card, whose task was lost
    assert Notification.objects.get(prompt=bob_card, kind=NotificationKind.PROMPT).status == NotificationStatus.SENT
    assert [m.extra_headers["X-Faltisia-Prompt"] for m in mails_to(bob.email)] == [str(bob_card.pk)]
    # Alice's bet follows her API pick: held back until the follow-up delay has passed, then emailed once.
    assert not Notification.objects.filter(prompt=alice_bet).exists()
    Prompt.objects.filter(game=game).update(opened_at=F("opened_at") - timedelta(minutes=9))
    assert beat_sweep() == 1
    assert Notification.objects.get(prompt=alice_bet, kind=NotificationKind.PROMPT).status == NotificationStatus.SENT
    assert beat_sweep() == 0  # and the next sweep queues neither of them again
    assert Notification.objects.filter(kind=NotificationKind.PROMPT).count() == 2


def test_the_prompt_sweep_skips_old_answered_mailed_and_opted_out_prompts():
    game, (alice, bob, carol) = start_game(players=3, options={"rounds": 1})
    Notification.objects.all().delete()  # as if every prompt email task had been lost:
    Prompt.objects.update(mail_pending=True)  # none of them settled its prompts
    now = timezone.now()
    p0, p1, p2 = (open_prompt(game, i) for i in range(3))

    def due() -> list[int]:
        return list(prompt_mails.prompts_due_without_mail(now=now).values_list("pk", flat=True))

    Prompt.objects.filter(pk=p0.pk).update(opened_at=now - prompt_mails.MISSING_PROMPT_WINDOW - timedelta(minutes=1))
    Prompt.objects.filter(pk__in=[p1.pk, p2.pk]).update(opened_at=now - timedelta(minutes=5))
    NotificationPreferences.objects.update_or_create(user=carol, defaults={"email_prompts": False})
    Prompt.objects.filter(pk=p1.pk).update(opened_at=now - timedelta(seconds=30))  # too fresh: its task may run yet
    assert due() == [p2.pk]  # carol's opt-out is found when the sweep settles her prompt
    Prompt.objects.filter(pk=p1.pk).update(opened_at=now - timedelta(minutes=5))
    # p0 is older than the window (reminders cover it); carol opted out, which the sweep finds out once
    assert sorted(due()) == [p1.pk, p2.pk]
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert prompt_mails.due_prompt_notifications_queue(now=now) == 1
    assert due() == []  # p1 has its email now, carol's is settled without one, p0 left the index
    assert not Prompt.objects.filter(pk=p0.pk, mail_pending=True).exists()
    Notification.objects.all().delete()
    pick(game, 1)  # answered on the web: closed (the bet it opens is held back: not due for 10 minutes)
    Notification.objects.all().delete()
    assert due() == []


def test_the_prompt_sweep_walks_the_index_of_prompts_whose_email_is_not_settled():
    start_game(players=2, options={"rounds": 1})
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("SET LOCAL enable_seqscan = off")  # tiny tables: ask what it would use at scale
    plan = prompt_mails.prompts_due_without_mail(now=timezone.now()).explain()
    assert "prompt_mail_pending" in plan, plan  # the index of unsettled prompts only


def test_results_and_game_over_emails_come_from_their_tasks_in_eager_mode():
    """The embedded default (eager tasks): the same tasks run in-process on commit."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    with TestCase.captureOnCommitCallbacks(execute=True):
        for _ in range(4):
            play_step(game)
    game.refresh_from_db()
    assert game.status == "finished"
    for user in (alice, bob):
        assert Notification.objects.filter(user=user, kind=NotificationKind.FINISHED, status="sent").count() == 1
    # The draft's result goes to bob only (alice is asked the take: her prompt email carries it); the
    # takes end the game: the game-over email says what happened, no result email.
    assert list(Notification.objects.filter(kind=NotificationKind.RESULT).values_list("user", flat=True)) == [bob.pk]
