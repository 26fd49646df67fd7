"""Hooks: the games signals (sent after commit) enqueue the email tasks; anymail's inbound signal feeds
the service.

A receiver runs in whatever process made the change, often the HTTP request of a pick, so it only
enqueues a task with ids (after the commit): rendering and sending happen in a worker. If the broker is
down, the caller is not failed: the prompt sweep (tasks.sweep_prompt_notifications) finds open prompts
without an email. In the embedded mode (eager tasks) the task simply runs here.

Prompt emails cost at most one enqueue per write: a held-back follow-up (the next pick of a decision
the player is making on the web or over the API) enqueues nothing, the prompt sweep emails it once its
delay has passed if it is still open; the other prompts a write opened (a resolution opens one per seat)
share one task, which finds them by the write's time (every prompt of one write has it as opened_at).
"""

from __future__ import annotations

import logging

from anymail.signals import inbound
from django.db import transaction
from django.dispatch import receiver

from games.signals import game_finished, phase_resolved, prompts_opened, seat_changed_hands

from . import notify, tasks
from .tokens import mailbox_rotate

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
               if (o.follow_up_of or "") in notify.AT_ONCE_AFTER or not notify.followup_delay()]
    # A held-back follow-up enqueues nothing: the prompt sweep emails it once due, if still open (nothing
    # is rendered before). The others were opened by one write, so they share its time as opened_at.
    if due_now:
        task_enqueue_on_commit(tasks.queue_prompt_notifications, due_now[0].game_id,
                               due_now[0].opened_at.isoformat())


@receiver(phase_resolved, dispatch_uid="mail.phase_resolved")
def on_phase_resolved(sender, game, phase, events, **kwargs) -> None:
    event_ids = [e.pk for e in events if e.pk is not None]
    task_enqueue_on_commit(tasks.queue_result_notifications, game.pk, phase, event_ids)


@receiver(game_finished, dispatch_uid="mail.game_finished")
def on_game_finished(sender, game, **kwargs) -> None:
    task_enqueue_on_commit(tasks.queue_finished_notifications, game.pk)


@receiver(seat_changed_hands, dispatch_uid="mail.seat_changed_hands")
def on_seat_changed_hands(sender, seat, previous_user_id, reason, **kwargs) -> None:
    """Inside the seat change's transaction: the old reply address and links stop working with it."""
    mailbox_rotate(seat_id=seat.pk, previous_user_id=previous_user_id, reason=reason)


@receiver(inbound, dispatch_uid="mail.anymail_inbound")
def on_anymail_inbound(sender, event, esp_name, **kwargs) -> None:
    """A provider's inbound webhook (django-anymail): the same service as the MTA pipe."""
    from .inbound import inbound_message_process
    from .webhooks import InboundProcessingFailed

    message = event.message
    try:
        result = inbound_message_process(raw=message.as_bytes(), recipient=message.envelope_recipient)
    except Exception as e:  # the service never raises for bad input: this is ours (the database...)
        raise InboundProcessingFailed(f"inbound mail via {esp_name} could not be processed") from e
    logger.info("inbound mail via %s: %s (%s)", esp_name, result.outcome, result.reason)
