"""A deploy of the mail columns onto a live database sends exactly what is due.

games 0008 and accounts 0005 added the columns the periodic mail jobs find their work through
(``Prompt.mail_pending``, ``reminder_planned``, ``next_reminder_at``; ``NotificationPreferences.
next_digest_at``, ``digest_since``) with the values of a database just created: on a database upgraded
from before them every open prompt looked unmailed and unplanned and every reader due, so the first runs
worked through the whole backlog before the due mail (or sent digests nobody was due). games 0009 and
accounts 0007 fill them in as the running code would have; the sweeps take due work before backlog.

The main test seeds the schema from before those migrations at a few thousand rows (most prompts mailed,
a few reminders, prompt emails and digests due), migrates, runs each periodic job once and checks that
each sends exactly what is due, to whom, reads no more than that, and sends nothing twice.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models.signals import post_init
from django.test import TestCase
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from games.mail import digests, prompt_mails, reminders, tasks
from games.mail.models import Notification, NotificationKind
from games.models import Event, Game, Prompt
from tests.factories import make_started_game
from tests.mail.helpers import start_game

BEFORE = [("games", "0007_seat_web_seen_event_id"), ("accounts", "0004_username_unique_regardless_of_case"),
          ("mail", "0004_mail_job_outbox")]

GAMES = 1500  # two seats each: 3,000 players and open prompts


@contextmanager
def loaded(model):
    """Count the ``model`` instances built from database rows inside the block (the rows a job read)."""
    counter = {"rows": 0}

    def count(sender, instance, **kwargs):
        counter["rows"] += 1

    post_init.connect(count, sender=model, weak=False)
    try:
        yield counter
    finally:
        post_init.disconnect(count, sender=model)


def _template():
    """What a started tinygame looks like (state, seats' prompts, events), to clone in the old schema."""
    game, _ = make_started_game(players=2, options={"rounds": 1})
    fields = ["engine", "options", "seed", "players", "state", "phase", "status", "clock", "is_public"]
    tpl = {"game": {f: getattr(game, f) for f in fields},
           "prompts": {p.seat.position: {"prompt_id": p.prompt_id, "phase": p.phase, "text": p.text,
                                         "options": p.options}
                       for p in Prompt.objects.filter(game=game, closed_at__isnull=True).select_related("seat")},
           "events": [{"phase": e.phase, "text": e.text, "data": e.data, "visibility": e.visibility}
                      for e in Event.objects.filter(game=game)]}
    assert sorted(tpl["prompts"]) == [0, 1] and any(e["visibility"] is None for e in tpl["events"])
    Game.objects.all().delete()
    User.objects.all().delete()
    mail.outbox.clear()
    return tpl


def _seed(apps, tpl, now):
    """The old schema at scale; returns what the first runs must send: {(kind, email): lead or None}."""
    OldUser = apps.get_model("accounts", "User")
    OldPrefs = apps.get_model("accounts", "NotificationPreferences")
    OldGame = apps.get_model("games", "Game")
    OldSeat = apps.get_model("games", "Seat")
    OldPrompt = apps.get_model("games", "Prompt")
    OldEvent = apps.get_model("games", "Event")
    OldNote = apps.get_model("mail", "Notification")
    h = lambda x: timedelta(hours=x)  # noqa: E731

    users = OldUser.objects.bulk_create(
        [OldUser(username=f"u{i}", email=f"u{i}@example.org", password="!", is_active=True,
                 email_verified_at=now - timedelta(days=30)) for i in range(2 * GAMES)])
    games = OldGame.objects.bulk_create([OldGame(**tpl["game"], started_at=now - timedelta(days=3))
                                         for _ in range(GAMES)])
    seats = OldSeat.objects.bulk_create([OldSeat(game=g, user=users[2 * i + pos], position=pos)
                                         for i, g in enumerate(games) for pos in (0, 1)])
    expected, prompt_rows, notes, prefs, plan, paused = {}, [], [], [], [], []
    event_at = {}  # game index -> when its events happened

    def note(kind, user, at, prompt=None, lead=None, deadline=None, key=None):
        notes.append((at, OldNote(kind=kind, dedupe_key=key, to_email=user.email, user_id=user.pk,
                                  prompt=prompt, lead_hours=lead, deadline=deadline, subject="s", body_text="b",
                                  message_id=f"<{key}@x>", status="sent", sent_at=at)))

    for i, seat in enumerate(seats):
        user, g = users[i], i // 2
        # Most prompts: mailed when they opened an hour ago, deadline in 3 days (their 24h reminder ahead).
        opened, deadline, mailed, sent_leads, category = now - h(1), now + h(72), True, [], "far"
        k = i % 100
        if k == 1:  # due: the 24h reminder (crossed 14 hours ago, never sent: the task was down)
            opened, deadline, category = now - h(20), now + h(10), "remind24"
        elif k == 2:  # the 24h reminder was sent: the next one (2h) is 8 hours ahead
            opened, deadline, sent_leads = now - h(20), now + h(10), [24]
        elif k == 3:  # due: the 2h reminder (24h sent); opened before the prompt sweep's window
            opened, deadline, sent_leads, category = now - h(30), now + h(1), [24], "remind2"
        elif k == 4:  # both reminders sent: nothing left
            opened, deadline, sent_leads = now - h(30), now + h(1), [24, 2]
        elif k == 5:  # due: the prompt email (its task was lost half an hour ago)
            opened, mailed, category = now - timedelta(minutes=30), False, "prompt"
        elif k == 6:  # never emailed, but opened before the sweep's window: left to the reminders
            opened, deadline, mailed = now - h(30), now + h(40), False
        elif k == 7:  # a bot plays the seat: no email, no reminder, though both would be due
            opened, deadline, mailed = now - h(20), now + h(1), False
            seat.is_bot = True
        elif k == 8:  # prompt emails off: nothing, though a reminder would be due
            opened, deadline = now - h(20), now + h(10)
            prefs.append(OldPrefs(user=user, email_prompts=False))
        elif k == 9:  # their own lead time (6h), crossed an hour ago: due
            opened, deadline, category = now - h(2), now + h(5), "remind6"
            prefs.append(OldPrefs(user=user, reminder_lead_hours=[6]))
        elif k == 10:  # their own lead times saved, nothing due
            prefs.append(OldPrefs(user=user, reminder_lead_hours=[24, 2]))
        elif k == 11:  # the game is paused (with seat 10): no reminder, though the 24h one was crossed
            opened, deadline = now - h(20), now + h(10)
            paused.append(games[g].pk)
        prompt = OldPrompt(game=games[g], seat=seat, opened_at=opened, deadline=deadline,
                           **tpl["prompts"][seat.position])
        prompt_rows.append(prompt)
        plan.append((prompt, user, mailed, sent_leads))
        if category == "prompt":
            expected[("prompt", user.email)] = None
        elif category.startswith("remind"):
            expected[("reminder", user.email)] = int(category[6:])
    OldSeat.objects.bulk_update([s for s in seats if s.is_bot], ["is_bot"])
    OldGame.objects.filter(pk__in=paused).update(status="paused", paused_at=now - h(1))
    OldPrompt.objects.bulk_create(prompt_rows)
    for prompt, user, mailed, sent_leads in plan:
        if mailed and not prompt.seat.is_bot:
            note("prompt", user, prompt.opened_at, prompt=prompt, key=f"prompt:{prompt.pk}:seat{prompt.seat_id}")
        for lead in sent_leads:
            note("reminder", user, prompt.deadline - h(lead), prompt=prompt, lead=lead, deadline=prompt.deadline,
                 key=f"reminder:{prompt.pk}:seat{prompt.seat_id}:{prompt.deadline.isoformat()}:{lead}h")

    # Digest readers (the far-deadline seats of the games numbered from 20 in each hundred): most had
    # their digest under 23 hours ago (spread over 21 hours, so some on another day whatever the hour);
    # due: those whose digest is 23.5 hours to 3 days old, and those who never had one, with news since.
    def digest(user, at):  # the old digest task's dedupe key: one a day
        note("digest", user, at, key=f"digest:user{user.pk}:{at.date().isoformat()}")

    readers = [users[2 * g] for g in range(GAMES) if 20 <= g % 100 < 36]
    for n, user in enumerate(readers):
        g = users.index(user) // 2
        kind = ("recent", "recent", "recent", "recent", "recent", "due", "never", "stale")[n % 8]
        event_at[g] = now - h(0.5)
        if kind == "recent":
            digest(user, now - h(1 + (n % 43) / 2))
        elif kind == "due":
            digest(user, now - h(23.5 + n))
            expected[("digest", user.email)] = None
        elif kind == "never":
            expected[("digest", user.email)] = None
        else:  # due, but nothing happened since their last digest
            digest(user, now - h(25))
            event_at[g] = now - h(26)
        prefs.append(OldPrefs(user=user, digest=True))
    OldPrefs.objects.bulk_create(prefs)
    OldEvent.objects.bulk_create([OldEvent(game=games[g], **e) for g in range(GAMES) for e in tpl["events"]])
    OldEvent.objects.update(created_at=now - h(48))  # auto_now_add: the times are set after the insert
    for g, at in event_at.items():
        OldEvent.objects.filter(game=games[g]).update(created_at=at)
    OldNote.objects.bulk_create([n for _, n in notes])
    by_time = {}
    for at, n in notes:
        by_time.setdefault(at, []).append(n.dedupe_key)
    for at, keys in by_time.items():
        for start in range(0, len(keys), 500):
            OldNote.objects.filter(dedupe_key__in=keys[start:start + 500]).update(created_at=at)
    return expected, len(notes)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_the_first_runs_after_upgrading_a_live_database_send_exactly_what_is_due():
    """Seeded before games 0008 / accounts 0005, migrated, the first reminders run, prompt
    sweep and digest run send exactly the due reminders, prompt emails and digests (whom, which lead),
    read no more prompts or readers than that, and send nothing that was sent before."""
    tpl = _template()
    executor = _migrate(BEFORE)
    try:
        now = timezone.now()
        expected, old_notes = _seed(executor.loader.project_state(BEFORE).apps, tpl, now)
    finally:
        started = time.monotonic()
        executor = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        migrated_in = time.monotonic() - started
    kinds = [kind for kind, _ in expected]
    # 3,000 open prompts: 3% due a reminder, 1% a prompt email; 240 digest readers, a quarter due.
    assert (kinds.count("reminder"), kinds.count("prompt"), kinds.count("digest")) == (90, 30, 60)
    print(f"migrated {Prompt.objects.count()} prompts in {migrated_in:.1f} s")
    # The backfills (games 0009, accounts 0007): only the due prompts are pending or due a reminder; the
    # readers who never had a digest are the only ones left to read at once.
    open_prompts = Prompt.objects.filter(closed_at__isnull=True)
    assert not open_prompts.filter(reminder_planned=False).exists()
    assert open_prompts.filter(mail_pending=True).count() == 30
    assert open_prompts.filter(next_reminder_at__lte=timezone.now()).count() == 90
    assert NotificationPreferences.objects.filter(digest=True, next_digest_at__isnull=True).count() == 30
    assert NotificationPreferences.objects.filter(digest=True, next_digest_at__lte=timezone.now()).count() == 60

    with loaded(Prompt) as reminder_run:
        tasks.send_due_reminders()
    with loaded(Prompt) as prompt_sweep:
        tasks.sweep_prompt_notifications()
    with loaded(NotificationPreferences) as digest_run:
        tasks.send_digests()

    new = Notification.objects.order_by("id")[old_notes:]
    sent = {(n.kind, n.address): n.lead_hours for n in new}
    assert len(new) == len(sent)
    assert sent == expected
    assert sorted(m.to[0] for m in mail.outbox) == sorted(email for _, email in expected)
    # Each job read what was due, not the backlog (3,000 open prompts, 240 readers).
    print(f"rows read: reminders {reminder_run}, prompt sweep {prompt_sweep}, digests {digest_run}")
    assert reminder_run["rows"] <= 2 * 90 + 5, reminder_run  # each due prompt, and again to render it
    assert prompt_sweep["rows"] <= 2 * 30 + 5, prompt_sweep  # likewise
    assert digest_run["rows"] <= 60 + 30 + 5, digest_run  # + the 30 due with nothing new

    # And the second runs send nothing more.
    tasks.send_due_reminders()
    tasks.sweep_prompt_notifications()
    tasks.send_digests()
    assert Notification.objects.count() == old_notes + len(expected)


def run(fn, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return fn(**kwargs)


@pytest.mark.django_db
def test_a_backlog_of_prompts_to_plan_does_not_hold_back_a_due_reminder(monkeypatch):
    """A reminders run sends the reminders due before it plans (a run that meets more prompts to plan than
    its budget allows would otherwise send none)."""
    games = [start_game(players=2, options={"rounds": 1}) for _ in range(3)]
    (game, (alice, bob)) = games[0]
    prompt = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    at = prompt.deadline - timedelta(hours=1)
    run(reminders.reminders_due_queue, now=prompt.deadline - timedelta(hours=30))  # all planned
    Prompt.objects.exclude(pk=prompt.pk).update(reminder_planned=False, next_reminder_at=None)  # 5 to plan
    monkeypatch.setattr(reminders, "REMINDER_BATCH", 2)
    result = run(reminders.reminders_due_run, now=at, budget_seconds=1e-9)  # spent after one batch
    assert result.queued == 1 and not result.done
    assert list(Notification.objects.filter(kind=NotificationKind.REMINDER).values_list("prompt", "lead_hours")) \
        == [(prompt.pk, 2)]


@pytest.mark.django_db
def test_the_prompt_sweep_takes_the_newest_due_prompt_before_a_backlog(monkeypatch):
    """Pending prompts already mailed (a backlog) do not hold back one whose email is
    due: the sweep reads newest first."""
    for _ in range(2):
        start_game(players=2, options={"rounds": 1})
    Prompt.objects.update(mail_pending=True, opened_at=timezone.now() - timedelta(hours=2))  # mailed, pending
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    due = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    Notification.objects.filter(prompt=due).delete()  # its task was lost
    Prompt.objects.filter(pk=due.pk).update(mail_pending=True, opened_at=timezone.now() - timedelta(minutes=30))
    monkeypatch.setattr(prompt_mails, "MISSING_PROMPT_BATCH", 2)
    monkeypatch.setattr(prompt_mails, "MAX_PROMPT_BATCHES_PER_SWEEP", 1)
    assert run(prompt_mails.due_prompt_notifications_queue) == 1
    assert Notification.objects.filter(prompt=due, kind=NotificationKind.PROMPT).count() == 1


@pytest.mark.django_db
def test_a_digest_reader_never_looked_at_gets_the_next_digest_a_period_after_the_last():
    """``next_digest_at`` NULL with a digest on record (the setting switched off and on,
    or a row the upgrade did not reach) is planned from that digest, not taken as due now."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.filter(user__in=[alice, bob]).update(digest=True)
    last = timezone.now().replace(hour=22, minute=0, second=0, microsecond=0) - timedelta(days=1)
    Notification.objects.create(kind=NotificationKind.DIGEST, dedupe_key="digest:old", address=alice.email,
                                user=alice, subject="s", body_text="b", message_id="<m@x>", status="sent")
    Notification.objects.filter(dedupe_key="digest:old").update(created_at=last)
    Event.objects.filter(game=game).update(created_at=last + timedelta(hours=2))
    now = last + timedelta(hours=5)  # the next day: the digest's dedupe key would not stop a second one
    assert run(digests.digests_queue, now=now) == 1  # bob's first; alice's is 18 hours ahead
    assert list(Notification.objects.filter(kind=NotificationKind.DIGEST, created_at__gt=last)
                .values_list("user", flat=True)) == [bob.pk]
    prefs = NotificationPreferences.objects.get(user=alice)
    assert prefs.next_digest_at == last + digests.DIGEST_EVERY and prefs.digest_since == last
    assert run(digests.digests_queue, now=last + digests.DIGEST_EVERY) == 1  # then hers, covering since then
