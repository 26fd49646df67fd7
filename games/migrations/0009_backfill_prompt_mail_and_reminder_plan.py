"""Give the open prompts the mail columns of 0008 as the running code would have set them.

0008 added ``mail_pending`` (default true), ``reminder_planned`` (default false) and ``next_reminder_at``
(NULL) with the values of a database just created: on a database upgraded from before it, every open
prompt looked unmailed and unplanned, so the first prompt sweeps walked every mailed prompt of the last
day and the first reminders runs planned every open prompt before sending the reminders due. This
migration computes, for each open prompt still at those defaults, what the mail jobs would have stored:

- ``mail_pending``: false if its prompt email was queued (a prompt Notification under the prompt's current
  dedupe key, games.mail.prompt_mails.prompt_dedupe_key), if none is owed (a bot or no player, no confirmed
  address, prompt emails off, game not active) or if it opened before the prompt sweep's window
  (prompt_mails.MISSING_PROMPT_WINDOW: the sweep settles those unsent, they are left to the reminders); else
  true (its email is due or, a held-back follow-up, will be).
- ``reminder_planned`` true and ``next_reminder_at`` as a reminders run's plan followed by its send step
  (games.mail.reminders): the reminder due now if the most urgent lead crossed was not sent yet (a
  reminder Notification for this deadline with a lead as short), else the next lead time ahead (NULL: none
  left, or no reminder owed). So the first reminders run reads only the prompts whose reminder is due.

Why a migration of its own and not a RunPython in 0008: 0008's DDL stays one short transaction, while
this one is non-atomic (``atomic = False``: each batch commits on its own, so on PostgreSQL the table is
not locked while millions of rows are computed, and the old code still serving during the release keeps
working). It only touches open prompts whose columns are still at 0008's defaults, and computes what the
jobs would, so it is safe to run again after a failure (it resumes), and on a database that already ran
0008 under the new code (it then does early the work the next job runs would do). The reverse is a no-op.

The pure functions below are copies of the running code's (named where they come from): a migration must
not import application code that may change after it.
"""

import sqlite3
from datetime import timedelta

from django.db import migrations
from django.db.models import Max, Min, Q
from django.utils import timezone

ID_RANGE = 2000  # prompt ids per batch: one transaction of three statements (read, read the mail, UPDATE)

# accounts.models.default_reminder_lead_hours, games.mail.reminders.MAX_LEAD_HOURS,
# games.mail.prompt_mails.MISSING_PROMPT_WINDOW, games.models.GameStatus.ACTIVE at the time of this migration.
DEFAULT_LEAD_HOURS = [24, 2]
MAX_LEAD_HOURS = 24 * 7
MISSING_PROMPT_WINDOW = timedelta(hours=24)
ACTIVE = "active"


def lead_hours(values) -> list[int]:
    """games.mail.reminders.lead_hours: the valid lead times, ascending."""
    out = set()
    for value in values or []:
        try:
            hours = int(value)
        except (TypeError, ValueError):
            continue
        if 0 < hours <= MAX_LEAD_HOURS:
            out.add(hours)
    return sorted(out)


def prompt_dedupe_key(prompt_id: int, seat_id: int, generation: int) -> str:
    """games.mail.prompt_mails.prompt_dedupe_key."""
    return f"prompt:{prompt_id}:seat{seat_id}" + (f":g{generation}" if generation else "")


def next_reminder_at(*, opened_at, deadline, leads, sent_lead, active: bool, now):
    """What reminders._plan_batch (next_reminder_at with crossed_too) then, if that is due, _send_batch
    store: ``leads`` None means no reminder is owed (reminders._preferences is None)."""
    if leads is None or deadline is None or deadline <= now:
        return None
    times = sorted((deadline - timedelta(hours=h), h) for h in leads if opened_at < deadline - timedelta(hours=h))
    crossed = [h for t, h in times if t <= now]
    if crossed:
        lead = min(crossed)  # reminders.due_lead: only the most urgent crossed lead is sent
        if not active:
            return None  # the send step drops a due prompt of a paused game; its resume plans it again
        if sent_lead is None or sent_lead > lead:
            return deadline - timedelta(hours=lead)  # due: the first run sends it
    ahead = [t for t, _ in times if t > now]
    return ahead[0] if ahead else None


def _update(connection, Prompt, prompts) -> None:
    """Write the three columns of these prompts in one UPDATE ... FROM (VALUES ...): bulk_update's CASE
    costs ~2 ms of Python a row, which is minutes at a million open prompts."""
    if connection.vendor == "postgresql":
        row = "(%s::bigint, %s::boolean, %s::boolean, %s::timestamptz)"
    elif connection.vendor == "sqlite" and sqlite3.sqlite_version_info >= (3, 33):  # UPDATE ... FROM
        row = "(%s, %s, %s, %s)"
    else:
        Prompt.objects.bulk_update(prompts, ["mail_pending", "reminder_planned", "next_reminder_at"], batch_size=500)
        return
    ops, table = connection.ops, connection.ops.quote_name(Prompt._meta.db_table)
    params = []
    for p in prompts:
        params += [p.pk, p.mail_pending, p.reminder_planned, ops.adapt_datetimefield_value(p.next_reminder_at)]
    with connection.cursor() as cursor:
        cursor.execute(f"WITH v (id, pending, planned, at) AS (VALUES {', '.join([row] * len(prompts))}) "
                       f"UPDATE {table} SET mail_pending = v.pending, reminder_planned = v.planned, "
                       f"next_reminder_at = v.at FROM v WHERE {table}.id = v.id", params)


def _batch(apps, connection, lo: int, hi: int) -> int:
    Prompt = apps.get_model("games", "Prompt")
    Notification = apps.get_model("mail", "Notification")
    now = timezone.now()
    rows = list(Prompt.objects.filter(pk__gte=lo, pk__lt=hi, closed_at__isnull=True)
                .filter(Q(mail_pending=True) | Q(reminder_planned=False))
                .values("pk", "seat_id", "opened_at", "deadline", "mail_pending", "reminder_planned",
                        "next_reminder_at", "game__status", "seat__is_bot", "seat__user_id",
                        "seat__user__email", "seat__user__is_active", "seat__user__email_verified_at",
                        "seat__user__notification_preferences__id",
                        "seat__user__notification_preferences__email_prompts",
                        "seat__user__notification_preferences__reminder_lead_hours",
                        "seat__mailbox__generation"))
    if not rows:
        return 0
    prompt_keys, sent = set(), {}
    for prompt_id, kind, key, deadline, lead in (
            Notification.objects.filter(prompt_id__gte=lo, prompt_id__lt=hi, kind__in=["prompt", "reminder"])
            .values_list("prompt_id", "kind", "dedupe_key", "deadline", "lead_hours")):
        if kind == "prompt":
            prompt_keys.add(key)
        elif lead is not None:
            sent.setdefault(prompt_id, []).append((deadline, lead))
    updated = []
    for r in rows:
        has_prefs = r["seat__user__notification_preferences__id"] is not None
        email_prompts = r["seat__user__notification_preferences__email_prompts"] if has_prefs else True
        # recipients.mailable and address_confirmed, and the player's prompt-email switch.
        owed = (r["seat__user_id"] is not None and not r["seat__is_bot"] and bool(r["seat__user__email"])
                and r["seat__user__is_active"] and r["seat__user__email_verified_at"] is not None
                and email_prompts)
        active = r["game__status"] == ACTIVE
        prompt = Prompt(pk=r["pk"], mail_pending=r["mail_pending"], reminder_planned=r["reminder_planned"],
                        next_reminder_at=r["next_reminder_at"])
        if r["mail_pending"]:
            mailed = prompt_dedupe_key(r["pk"], r["seat_id"], r["seat__mailbox__generation"] or 0) in prompt_keys
            prompt.mail_pending = (owed and active and not mailed
                                   and r["opened_at"] > now - MISSING_PROMPT_WINDOW)
        if not r["reminder_planned"]:
            leads = (lead_hours(r["seat__user__notification_preferences__reminder_lead_hours"] if has_prefs
                                else DEFAULT_LEAD_HOURS) if owed else None)
            sent_leads = [lead for deadline, lead in sent.get(r["pk"], []) if deadline == r["deadline"]]
            prompt.reminder_planned = True
            prompt.next_reminder_at = next_reminder_at(
                opened_at=r["opened_at"], deadline=r["deadline"], leads=leads, active=active, now=now,
                sent_lead=min(sent_leads) if sent_leads else None)
        updated.append(prompt)
    _update(connection, Prompt, updated)
    return len(updated)


def backfill(apps, schema_editor):
    from django.db import transaction

    Prompt = apps.get_model("games", "Prompt")
    bounds = Prompt.objects.filter(closed_at__isnull=True).aggregate(lo=Min("pk"), hi=Max("pk"))
    if bounds["lo"] is None:
        return
    # By ranges of primary keys (each an index range scan whatever the share of open prompts), each in
    # its own transaction; the prompts the old code opens meanwhile keep the defaults, which the jobs
    # handle as they do any new prompt.
    for lo in range(bounds["lo"], bounds["hi"] + 1, ID_RANGE):
        with transaction.atomic(using=schema_editor.connection.alias):
            _batch(apps, schema_editor.connection, lo, lo + ID_RANGE)


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("games", "0008_prompt_mail_and_reminder_plan"),
        ("mail", "0004_mail_job_outbox"),  # the outbox (Notification) and the seats' mailboxes
        ("accounts", "0004_username_unique_regardless_of_case"),  # confirmed addresses, preferences
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
