"""Mail a player must act on goes before mail that tells the news (games/mail/priorities.py): every due
reminder is sent within one period, also when a burst of result mails fills the mail queue.

Time-bound: the prompt, the deadline reminder and the answer to an emailed pick, and the tasks that make
them. News: results, game over and digests, and their tasks and sweeps. With Redis the lower number is
served first; the last test checks that on the real broker with the project's transport options.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from unittest import mock

import pytest
from celery import current_app
from django.test import TestCase

import faltisia.celery  # noqa: F401  (registers the app and autodiscovers every app's tasks)
from games.mail import outbox, reminders
from games.mail.compose import Rendered
from games.mail.models import NotificationKind
from games.mail.priorities import NEWS, TIME_BOUND, send_priority
from games.mail.send_tasks import send_notification, send_notifications
from games.models import Prompt
from tests.mail.helpers import start_game


def test_prompts_reminders_and_answers_go_before_results_game_overs_and_digests():
    assert TIME_BOUND < NEWS
    assert {kind: send_priority(kind) for kind in NotificationKind.values} == {
        "prompt": TIME_BOUND, "reminder": TIME_BOUND, "answer": TIME_BOUND,
        "result": NEWS, "finished": NEWS, "digest": NEWS,
        "chat": NEWS, "moderation": NEWS}  # table talk and its moderation notices are news (a webhook call about
    # a turn is a prompt on another channel: TIME_BOUND like the prompt mail)


def test_each_mail_task_that_makes_mail_declares_its_priority():
    current_app.loader.import_default_modules()
    declared = {name: task.priority for name, task in current_app.tasks.items()
                if name.startswith("mail.") and name not in ("mail.send_notification", "mail.send_notifications")}
    assert declared == {
        "mail.queue_prompt_notifications": TIME_BOUND, "mail.queue_prompt_notification": TIME_BOUND,
        "mail.sweep_prompt_notifications": TIME_BOUND, "mail.send_due_reminders": TIME_BOUND,
        "mail.queue_result_notifications": NEWS, "mail.queue_finished_notifications": NEWS,
        "mail.sweep_mail_jobs": NEWS, "mail.send_digests": NEWS, "mail.prune_mail_records": NEWS,
        "mail.send_chat_batches": NEWS}  # table talk


@pytest.mark.django_db
def test_the_send_tasks_of_a_batch_of_reminders_are_time_bound_and_of_a_result_news():
    game, players = start_game(players=2, options={"rounds": 1})
    prompts = list(Prompt.objects.filter(game=game, closed_at__isnull=True))
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=min(p.deadline for p in prompts) - timedelta(hours=30))  # plan
    with mock.patch.object(send_notifications, "apply_async") as enqueue, \
            TestCase.captureOnCommitCallbacks(execute=True):
        assert reminders.reminders_due_queue(now=min(p.deadline for p in prompts) - timedelta(hours=1)) == 2
    # both due now: one batch task for the two
    assert [(len(call.kwargs["args"][0]), call.kwargs["priority"]) for call in enqueue.call_args_list] == [
        (2, TIME_BOUND)]
    with mock.patch.object(send_notification, "apply_async") as enqueue, \
            TestCase.captureOnCommitCallbacks(execute=True):
        outbox.notification_queue(kind=NotificationKind.RESULT, dedupe_key="result:test", address=players[0].email,
                                  render=lambda: Rendered(subject="s", text="t", html="", reply_to=""), game=game)
    assert [call.kwargs["priority"] for call in enqueue.call_args_list] == [NEWS]


@pytest.mark.redis
def test_the_broker_serves_a_time_bound_task_before_news_enqueued_earlier():
    """Through the app's own broker connection and transport options (a queue of the test's own, so a
    worker of another test never takes these messages)."""
    queue = f"mail-priority-test-{uuid.uuid4().hex}"
    sent = [("mail.queue_result_notifications", NEWS), ("mail.queue_finished_notifications", NEWS),
            ("mail.send_notification", send_priority(NotificationKind.REMINDER))]
    with current_app.connection_for_write() as conn:
        for name, priority in sent:
            with pytest.warns(Warning, match="no effect on send_task"):  # the test settings run tasks eagerly
                current_app.send_task(name, args=(0,), queue=queue, priority=priority, connection=conn)
    taken = []
    with current_app.connection_for_read() as conn, conn.SimpleQueue(queue) as simple:
        try:
            for _ in sent:
                message = simple.get(block=True, timeout=5)  # BRPOP, as a worker asks
                taken.append(message.headers["task"])
                message.ack()
        finally:
            simple.queue.delete()
    assert taken == ["mail.send_notification", "mail.queue_result_notifications", "mail.queue_finished_notifications"]
