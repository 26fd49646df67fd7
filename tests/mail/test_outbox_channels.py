"""The outbox's channels: a player's webhook call is a delivery about a prompt on the webhook channel, sent by
that channel's sender, and the upgrade moves the calls queued before as the running code would have queued
them; the outbox sweep walks the rows due by now, never those held for later."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.mail import delivery, outbox
from games.mail.models import Channel, Notification, NotificationKind, NotificationStatus
from tests.factories import make_started_game

BEFORE = [("mail", "0007_notification_away_only_quiet_held")]


def test_every_channel_has_a_sender():
    assert set(delivery.SENDERS) == set(Channel.values)


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_puts_queued_webhook_calls_on_their_channel_and_leaves_mail_as_it_was():
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 1})
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps.get_model("mail", "Notification")
        common = {"game_id": game.pk, "subject": "s", "body_text": "b", "message_id": "<m@x>", "status": "pending"}
        old.objects.create(kind="webhook", dedupe_key="webhook:old-call", to_email=f"webhook:user{alice.pk}",
                           user_id=alice.pk, **common)
        old.objects.create(kind="prompt", dedupe_key="prompt:old-mail", to_email="alice@example.org",
                           user_id=alice.pk, **common)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    rows = {r.dedupe_key: (r.kind, r.channel, r.address)
            for r in Notification.objects.filter(dedupe_key__in=["webhook:old-call", "prompt:old-mail"])}
    assert rows == {"webhook:old-call": (NotificationKind.PROMPT, Channel.WEBHOOK, ""),
                    "prompt:old-mail": (NotificationKind.PROMPT, Channel.MAIL, "alice@example.org")}


@pytest.mark.django_db
def test_the_sweep_finds_the_rows_due_and_none_held_for_later():
    game, (alice, _) = make_started_game(players=2, options={"rounds": 1})
    now = timezone.now()
    old = now - timedelta(hours=1)

    def row(key: str, *, not_before=None, **kw) -> Notification:
        made = Notification.objects.create(kind=NotificationKind.RESULT, dedupe_key=key, address="a@example.org",
                                           user=alice, game=game, subject="s", body_text="b", message_id="<m@x>",
                                           not_before=not_before, **kw)
        Notification.objects.filter(pk=made.pk).update(created_at=old)
        return made

    lost = row("lost")
    held_past = row("held, due", not_before=now - timedelta(minutes=5), quiet_held=True)
    row("held for later", not_before=now + timedelta(hours=6), quiet_held=True)
    row("sent", status=NotificationStatus.SENT)
    assert list(outbox.lost_notifications(now=now)) == [lost, held_past]  # in the order they fell due
