"""Hooks: the games signals enqueue the email tasks; anymail's inbound signal feeds the service.

A receiver runs in whatever process made the change, often the HTTP request of a pick, so it only
enqueues a task with ids (after the commit): rendering and sending happen in a worker. If the broker is
down, the caller is not failed: the prompt sweep (tasks.sweep_prompt_notifications) finds open prompts
without an email. In the embedded mode (eager tasks) the task simply runs here.

Prompt emails cost at most one enqueue per write: a held-back follow-up (the next pick of a decision
the player is making on the web or over the API) enqueues nothing, the prompt sweep emails it once its
delay has passed if it is still open; the other prompts a write opened (a resolution opens one per seat)
share one task, which finds them by the write's time (every prompt of one write has it as opened_at).

Result and game-over emails are owed by a write that leaves no other trace a sweep could find them by:
their receivers hear the ``*_in_write`` signals, inside the write's transaction, and record a mail job
there (jobs.py) before enqueueing its task on commit, so a lost task only delays them.
"""

from __future__ import annotations

import logging

from anymail.signals import inbound
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.models import NotificationPreferences, Vacation
from games.chat.signals import message_moderated
from games.models import Prompt
from games.signals import game_finished_in_write, phase_resolved_in_write, prompts_opened, seat_changed_hands

from . import chat_mail, jobs, owed, prompt_mails, reminders, tasks
from .models import MailJobKind
from .tokens import mailbox_rotate
from .unsent import reminders_queued_ahead_withdraw, seat_deliveries_withdraw

logger = logging.getLogger(__name__)


def task_enqueue_on_commit(task, *args) -> None:
    """Enqueue ``task(*args)`` after the commit; a broker or task failure is logged, never raised."""

    def send() -> None:
        try:
            task.apply_async(args=args, retry=False)
        except Exception:
            logger.warning("could not enqueue %s%r; the mail sweep will catch up", task.name, args, exc_info=True)

    transaction.on_commit(send)


@receiver(prompts_opened, dispatch_uid="mail.prompts_opened")
def on_prompts_opened(sender, opened, **kwargs) -> None:
    due_now = [o.prompt for o in opened
               if (o.follow_up_of or "") in prompt_mails.AT_ONCE_AFTER or not prompt_mails.followup_delay()]
    # A held-back follow-up enqueues nothing: the prompt sweep emails it once due, if still open (nothing
    # is rendered before); so does a "when away" prompt, due after its delay (owed.py: a task would find
    # nothing to do). The others were opened by one write, so they share its time as opened_at.
    if due_now and owed.prompt_task_owed(game=due_now[0].game, seat_ids=[p.seat_id for p in due_now]):
        task_enqueue_on_commit(tasks.queue_prompt_notifications, due_now[0].game_id,
                               due_now[0].opened_at.isoformat())


@receiver(phase_resolved_in_write, dispatch_uid="mail.phase_resolved")
def on_phase_resolved(sender, game, phase, events, **kwargs) -> None:
    """In the resolution's transaction: record its result emails as a job, run by a task after the commit;
    none if no seat reads results by email (the default: the prompt emails say what happened)."""
    if not owed.result_job_owed(game=game):
        return
    event_ids = [e.pk for e in events if e.pk is not None]
    jobs.job_record(kind=MailJobKind.RESULT, game=game, phase=phase, event_ids=event_ids)
    task_enqueue_on_commit(tasks.queue_result_notifications, game.pk, phase, event_ids)


@receiver(game_finished_in_write, dispatch_uid="mail.game_finished")
def on_game_finished(sender, game, **kwargs) -> None:
    """In the finishing write's transaction: record the game-over emails as a job, run after the commit."""
    jobs.job_record(kind=MailJobKind.FINISHED, game=game)
    task_enqueue_on_commit(tasks.queue_finished_notifications, game.pk)


@receiver(seat_changed_hands, dispatch_uid="mail.seat_changed_hands")
def on_seat_changed_hands(sender, seat, previous_user_id, reason, **kwargs) -> None:
    """Inside the seat change's transaction: the old reply address and links stop working with it."""
    mailbox_rotate(seat_id=seat.pk, previous_user_id=previous_user_id, reason=reason)
    # Nothing still unsent goes to the old holder, on any channel, whether or not the seat had a mailbox.
    reminders_queued_ahead_withdraw(seat_id=seat.pk)  # the new holder's own plan may want them again
    seat_deliveries_withdraw(seat_id=seat.pk, holder_id=seat.user_id,
                             reason="the seat changed hands before it was sent")
    # The new holder's prompt email and reminders (their own lead times) are owed afresh.
    reminders.plan_again(Prompt.objects.filter(seat_id=seat.pk).filter(closed_at__isnull=True))
    Prompt.objects.filter(seat_id=seat.pk, closed_at__isnull=True).update(mail_pending=True)


@receiver(post_save, sender=NotificationPreferences, dispatch_uid="mail.preferences_saved")
@receiver(post_save, sender=Vacation, dispatch_uid="mail.vacation_saved")
@receiver(post_delete, sender=Vacation, dispatch_uid="mail.vacation_deleted")
def on_reminder_settings_changed(sender, instance, **kwargs) -> None:
    """A player's reminder lead times, email switch or vacations changed: their open prompts' next
    reminders are planned again by the reminders task."""
    reminders.plan_again_for_user(instance.user_id)


@receiver(inbound, dispatch_uid="mail.anymail_inbound")
def on_anymail_inbound(sender, event, esp_name, **kwargs) -> None:
    """A provider's inbound webhook (django-anymail): the same service as the MTA pipe."""
    from .inbound import inbound_message_process
    from .inbound_providers import InboundProcessingFailed

    message = event.message
    try:
        result = inbound_message_process(raw=message.as_bytes(), recipient=message.envelope_recipient)
    except Exception as e:  # the service never raises for bad input: this is ours (the database...)
        raise InboundProcessingFailed(f"inbound mail via {esp_name} could not be processed") from e
    logger.info("inbound mail via %s: %s (%s)", esp_name, result.outcome, result.reason)


@receiver(message_moderated, dispatch_uid="mail.on_message_moderated")
def on_message_moderated(sender, message, kind, actor, reason, **kwargs) -> None:
    """Staff hid or restored a message (after the commit): its author is told by mail."""
    chat_mail.moderation_notice_queue(message=message, kind=kind, reason=reason)
