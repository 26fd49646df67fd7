"""A write enqueues the prompt task only if a delivery of its prompts is due at once (owed.prompt_task_owed),
and the task queues exactly what is due (prompt_mails.prompt_mails_run): both apply prompt_owed.py's one rule,
each to the rows of its own query. Over every combination of what the rule reads (the game's own mode, the
account's mode, an address, a webhook, a bot, an inactive account) the write's answer and the task's deed
agree, and both match the rule as the preferences page words it.
"""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import TestCase

from accounts.models import GamePromptMail, NotificationPreferences, PromptMail, User
from games.mail import owed, prompt_mails
from games.mail.models import Channel, Notification
from games.models import Game, Prompt, Seat
from tests.factories import make_started_game

pytestmark = pytest.mark.django_db

OWN_MODES = ("", PromptMail.EVERY, PromptMail.AWAY, PromptMail.DIGEST, PromptMail.NEVER)  # "": no own choice
ACCOUNT_MODES = (PromptMail.EVERY, PromptMail.AWAY, PromptMail.DIGEST, PromptMail.NEVER)
COMBINATIONS = list(itertools.product(OWN_MODES, ACCOUNT_MODES, (True, False), (True, False), (False, True),
                                      (False, True)))


def expected(*, own_mode, account_mode, email, webhook, bot, inactive) -> tuple[set[str], set[str]]:
    """The channels delivered as soon as the prompt opens, and once its "when away" delay has passed."""
    if bot or inactive:
        return set(), set()
    mode = own_mode or account_mode
    mail = email and mode in (PromptMail.EVERY, PromptMail.AWAY)
    later = ({Channel.MAIL} if mail else set()) | ({Channel.WEBHOOK} if webhook else set())
    return (later if mail and mode == PromptMail.EVERY else set()), later


def test_the_write_owes_a_task_exactly_when_the_task_delivers_at_once(settings):
    settings.MAIL_PROMPT_DELAY_SECONDS = 120
    with TestCase.captureOnCommitCallbacks(execute=False):  # no prompt task runs: the test runs it
        game, (alice, _) = make_started_game(players=2, options={"rounds": 1})
    seat = Seat.objects.get(game=game, user=alice)
    prompt = Prompt.objects.get(seat=seat, closed_at__isnull=True)
    assert not Notification.objects.filter(prompt=prompt).exists()
    after_delay = prompt.opened_at + timedelta(seconds=121)

    def delivered(now) -> set[str]:
        with TestCase.captureOnCommitCallbacks(execute=False):  # queued, not sent
            prompt_mails.prompt_mails_run(prompt_ids=[prompt.pk], now=now)
        return set(Notification.objects.filter(prompt=prompt).values_list("channel", flat=True))

    for own_mode, account_mode, email, webhook, bot, inactive in COMBINATIONS:
        case = dict(own_mode=own_mode, account_mode=account_mode, email=email, webhook=webhook, bot=bot,
                    inactive=inactive)
        with transaction.atomic():
            User.objects.filter(pk=alice.pk).update(is_active=not inactive,
                                                    email=alice.email if email else "")
            Seat.objects.filter(pk=seat.pk).update(is_bot=bot)
            NotificationPreferences.objects.filter(user=alice).update(
                prompt_mail=account_mode, email_prompts=True, webhook_url="https://hooks.example/x" if webhook else "")
            if own_mode:
                GamePromptMail.objects.create(user=alice, game=game, mode=own_mode)

            task_owed = owed.prompt_task_owed(game=Game.objects.get(pk=game.pk), seat_ids=[seat.pk])
            at_once, later = delivered(prompt.opened_at), delivered(after_delay)
            assert task_owed == bool(at_once), case
            assert (at_once, later) == expected(**case), case
            transaction.set_rollback(True)
