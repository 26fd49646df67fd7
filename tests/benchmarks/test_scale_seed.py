"""The scale benchmark's COPY seeding (benchmarks/scale_seed.py) writes rows the server reads as its
own, with the promised due work (issue 16 item 2): the periodic jobs find exactly that work."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from benchmarks.scale_seed import DUE, seed
from games.mail import jobs, notify, outbox
from games.mail.models import Notification, NotificationKind
from games.models import Game, Prompt
from games.services.sweep import due_phases

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_seeded_due_work_is_what_each_periodic_job_finds():
    now = timezone.now()
    counts = seed(games=500, now=now)  # 25 digest readers, 20 of them due
    assert counts["games"] == Game.objects.filter(status="active").count() == 500
    assert Prompt.objects.filter(closed_at__isnull=False).count() == 2000  # the history
    assert len(due_phases(now=now + timedelta(seconds=5))) == DUE["deadline_games"]
    with TestCase.captureOnCommitCallbacks(execute=False):
        assert notify.reminders_due_queue(now=now) == DUE["reminders"]
        assert notify.reminders_due_queue(now=now) == 0  # once
        # 4 of the 40 new prompts' players have prompt emails off (one user in ten)
        assert 0 < notify.due_prompt_notifications_queue(now=now) <= DUE["new_prompts"]
        assert notify.digests_queue(now=now) == DUE["digests"]
        assert outbox.outbox_sweep(now=now, enqueue=lambda pk: None) == DUE["outbox"]
        assert jobs.jobs_sweep(now=now) == DUE["mail_jobs"]
    assert Notification.objects.filter(kind=NotificationKind.REMINDER).count() == DUE["reminders"]
