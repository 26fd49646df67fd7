"""Email work happens in a worker, never in the request that made a pick (CONVENTIONS.md 2: thin
tasks taking ids, enqueued on commit; an enqueue failure never fails the write, a sweep catches up).
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.db.models import F
from django.test import TestCase
from django.utils import timezone
from kombu.exceptions import OperationalError

from accounts.models import NotificationPreferences
from games.mail import compose, notify, tasks
from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.models import Event, Prompt
from tests.games.helpers import open_prompt, pick, play_step
from tests.mail.helpers import mails_to, start_game

pytestmark = pytest.mark.django_db

QUEUE_TASKS = (tasks.queue_prompt_notification, tasks.queue_result_notifications,
               tasks.queue_finished_notifications)


def move(api, game, user, position: int):
    """POST /api/games/{id}/moves/ with the seat's first option, its on-commit callbacks run."""
    prompt = open_prompt(game, position)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return api.as_user(user).post(f"/api/games/{game.pk}/moves/",
                                      {"prompt": prompt.prompt_id, "option": prompt.options[0]["id"]}, format="json")


def test_the_queue_tasks_have_names_time_limits_and_late_acks():
    for task, name in zip(QUEUE_TASKS, ("mail.queue_prompt_notification", "mail.queue_result_notifications",
                                        "mail.queue_finished_notifications")):
        assert task.name == name
        assert task.time_limit and task.soft_time_limit < task.time_limit
        assert task.acks_late and task.reject_on_worker_lost  # safe: the dedupe keys make a rerun a no-op


def test_a_pick_over_the_api_only_enqueues_the_email_tasks_with_json_args(api):
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    rows_before = Notification.objects.count()
    with ExitStack() as stack:
        enqueued = {t.name: stack.enter_context(mock.patch.object(t, "apply_async")) for t in QUEUE_TASKS}
        render = stack.enter_context(mock.patch.object(compose, "render_prompt", wraps=compose.render_prompt))
        for position, user in ((0, alice), (1, bob), (0, alice), (1, bob)):  # card, card, bet, bet: resolved
            assert move(api, game, user, position).status_code == 201
    assert render.call_count == 0  # nothing was rendered in the requests
    assert Notification.objects.count() == rows_before  # nor stored: only the tasks do that
    prompt_calls = enqueued["mail.queue_prompt_notification"].call_args_list
    result_calls = enqueued["mail.queue_result_notifications"].call_args_list
    # One task per opened prompt (the two bets, then seat 0's take), ids only.
    opened = list(Prompt.objects.filter(game=game, prompt_id__in=["s0-0-bet", "s0-1-bet", "s1-0-take"])
                  .order_by("id").values_list("pk", flat=True))
    assert [c.kwargs["args"] for c in prompt_calls] == [(pk,) for pk in opened]
    (result,) = result_calls
    game_id, phase, event_ids = result.kwargs["args"]
    assert (game_id, phase) == (game.pk, 0)
    assert event_ids and set(Event.objects.filter(pk__in=event_ids).values_list("game_id", flat=True)) == {game.pk}
    for call in prompt_calls + result_calls:
        json.dumps(call.kwargs["args"])  # the JSON serializer takes them as they are
    # The worker's side: running the tasks renders, stores and sends; running them again changes nothing.
    with TestCase.captureOnCommitCallbacks(execute=True):
        for call in prompt_calls + result_calls:
            task = tasks.queue_prompt_notification if call in prompt_calls else tasks.queue_result_notifications
            task.apply(args=call.kwargs["args"])
    rows = Notification.objects.count()
    take = Notification.objects.get(prompt_id=opened[-1], kind=NotificationKind.PROMPT)
    assert take.status == NotificationStatus.SENT
    assert Notification.objects.filter(kind=NotificationKind.RESULT).count() == 2
    with TestCase.captureOnCommitCallbacks(execute=True):
        for call in prompt_calls + result_calls:
            task = tasks.queue_prompt_notification if call in prompt_calls else tasks.queue_result_notifications
            task.apply(args=call.kwargs["args"])
    assert Notification.objects.count() == rows


def test_with_the_broker_down_a_pick_still_succeeds_and_the_sweep_sends_the_missing_prompt_email(api, caplog):
    down = OperationalError("Error 111 connecting to redis: Connection refused")
    with ExitStack() as stack:
        for t in QUEUE_TASKS:
            stack.enter_context(mock.patch.object(t, "apply_async", side_effect=down))
        game, (alice, bob) = start_game(players=2, options={"rounds": 1})
        assert move(api, game, alice, 0).status_code == 201  # the pick is stored; the request does not fail
    assert "could not enqueue mail.queue_prompt_notification" in caplog.text
    assert not Notification.objects.filter(kind=NotificationKind.PROMPT).exists()
    bob_card, alice_bet = open_prompt(game, 1), open_prompt(game, 0)
    # Within the first minute the sweep leaves them to their own tasks (they may just be slow).
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.send_due_reminders.apply()
    assert not Notification.objects.filter(kind=NotificationKind.PROMPT).exists()
    Prompt.objects.filter(game=game).update(opened_at=F("opened_at") - timedelta(minutes=2))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.send_due_reminders.apply()  # the beat task: reminders, missing prompt emails, lost sends
    assert Notification.objects.get(prompt=bob_card, kind=NotificationKind.PROMPT).status == NotificationStatus.SENT
    assert [m.extra_headers["X-Faltisia-Prompt"] for m in mails_to(bob.email)] == [str(bob_card.pk)]
    # Alice's bet follows her API pick: it is queued now but still held back (the follow-up rule).
    bet_row = Notification.objects.get(prompt=alice_bet, kind=NotificationKind.PROMPT)
    assert bet_row.status == NotificationStatus.PENDING and bet_row.not_before is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.send_due_reminders.apply()  # and the next sweep does not queue either of them again
    assert Notification.objects.filter(kind=NotificationKind.PROMPT).count() == 2


def test_the_missing_prompt_sweep_skips_old_answered_mailed_and_opted_out_prompts():
    game, (alice, bob, carol) = start_game(players=3, options={"rounds": 1})
    Notification.objects.all().delete()  # as if every prompt email task had been lost
    now = timezone.now()
    p0, p1, p2 = (open_prompt(game, i) for i in range(3))
    found: list[int] = []
    Prompt.objects.filter(pk=p0.pk).update(opened_at=now - notify.MISSING_PROMPT_WINDOW - timedelta(minutes=1))
    Prompt.objects.filter(pk__in=[p1.pk, p2.pk]).update(opened_at=now - timedelta(minutes=5))
    NotificationPreferences.objects.update_or_create(user=carol, defaults={"email_prompts": False})
    Prompt.objects.filter(pk=p1.pk).update(opened_at=now - timedelta(seconds=30))  # too fresh: its task may run yet
    assert notify.missing_prompt_notifications_queue(enqueue=found.append, now=now) == 0
    Prompt.objects.filter(pk=p1.pk).update(opened_at=now - timedelta(minutes=5))
    assert notify.missing_prompt_notifications_queue(enqueue=found.append, now=now) == 1
    assert found == [p1.pk]  # p0 is older than the window (reminders cover it), carol opted out
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.queue_prompt_notification.apply(args=(p1.pk,))
    assert notify.missing_prompt_notifications_queue(enqueue=found.append, now=now) == 0  # it has its email now
    Notification.objects.all().delete()
    pick(game, 1)  # answered on the web: closed (the bet it opens is too fresh to sweep)
    Notification.objects.all().delete()
    assert notify.missing_prompt_notifications_queue(enqueue=found.append, now=now) == 0


def test_the_missing_prompt_sweep_walks_the_open_prompt_opened_at_index():
    start_game(players=2, options={"rounds": 1})
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("SET LOCAL enable_seqscan = off")  # tiny tables: ask what it would use at scale
    plan = notify.prompts_without_mail(now=timezone.now()).explain()
    assert "mail_prompt_open_opened_at" in plan, plan


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
        assert Notification.objects.filter(user=user, kind=NotificationKind.RESULT).count() >= 2
