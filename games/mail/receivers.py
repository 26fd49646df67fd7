"""Hooks: the games signals (sent after commit) queue emails; anymail's inbound signal feeds the service."""

from __future__ import annotations

import logging

from anymail.signals import inbound
from django.dispatch import receiver

from games.signals import game_finished, phase_resolved, prompt_opened

from . import notify

logger = logging.getLogger(__name__)


@receiver(prompt_opened, dispatch_uid="mail.prompt_opened")
def on_prompt_opened(sender, prompt, **kwargs) -> None:
    notify.prompt_notification_queue(prompt_id=prompt.pk)


@receiver(phase_resolved, dispatch_uid="mail.phase_resolved")
def on_phase_resolved(sender, game, phase, events, **kwargs) -> None:
    notify.result_notifications_queue(game=game, phase=phase, events=list(events))


@receiver(game_finished, dispatch_uid="mail.game_finished")
def on_game_finished(sender, game, **kwargs) -> None:
    notify.finished_notifications_queue(game_id=game.pk)


@receiver(inbound, dispatch_uid="mail.anymail_inbound")
def on_anymail_inbound(sender, event, esp_name, **kwargs) -> None:
    """A provider's inbound webhook (django-anymail): the same service as the MTA pipe."""
    from .inbound import inbound_message_process

    message = event.message
    result = inbound_message_process(raw=message.as_bytes(), recipient=message.envelope_recipient)
    logger.info("inbound mail via %s: %s (%s)", esp_name, result.outcome, result.reason)
