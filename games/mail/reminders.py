"""Deadline reminders, found through the time each open prompt's next reminder is due (issue 16 item 1).

Each open prompt stores ``next_reminder_at`` (games.Prompt): the deadline minus the seat's player's
next lead time not yet crossed, or NULL when no reminder is left. The reminders task (beat, every
MAIL_REMINDER_INTERVAL_SECONDS) does two things, each through a partial index and in batches of
REMINDER_BATCH rows claimed with ``FOR UPDATE SKIP LOCKED`` (so several workers share the work and
never take one prompt twice):

1. plan: open prompts with ``reminder_planned = false`` (just opened, or their deadline, their player's
   preferences or vacations, or their seat's holder changed: those writes reset the flag) get their
   ``next_reminder_at`` computed;
2. send: open prompts with ``next_reminder_at <= now`` get their reminder queued (the outbox's dedupe
   key makes a second queue a no-op) and their next reminder time computed from the current deadline
   and preferences, so a stale plan only costs a look.

So a run costs what was opened or changed since the previous run plus the reminders due now, whatever
the number of open prompts; its memory is one batch.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import NotificationPreferences
from games.models import GameStatus, Prompt

from . import compose
from .models import Notification, NotificationKind
from .outbox import notification_queue

logger = logging.getLogger(__name__)

MAX_LEAD_HOURS = 24 * 7  # a reminder lead time above a week is clamped
REMINDER_BATCH = 200  # prompts claimed per transaction; a run loops until no work is left
MAX_BATCHES_PER_RUN = 500  # a backlog larger than this (100k rows) is left to the next run


def lead_hours(prefs: NotificationPreferences) -> list[int]:
    """The player's reminder lead times in hours: valid ones only, ascending."""
    out = set()
    for value in prefs.reminder_lead_hours or []:
        try:
            hours = int(value)
        except (TypeError, ValueError):
            continue
        if 0 < hours <= MAX_LEAD_HOURS:
            out.add(hours)
    return sorted(out)


def _preferences(prompt: Prompt) -> NotificationPreferences | None:
    """The seat's player's preferences if reminders can go to them at all, else None."""
    from .notify import _address_confirmed, _loaded_preferences  # notify re-exports this module's entry

    seat = prompt.seat
    user = seat.user
    if user is None or seat.is_bot or not _address_confirmed(user):
        return None
    prefs = _loaded_preferences(user)
    return prefs if prefs.email_prompts else None


def _reminder_times(prompt: Prompt, prefs: NotificationPreferences) -> list[tuple[datetime, int]]:
    """(time, lead hours) of each reminder of this deadline, earliest first; none right after the
    prompt opened (a lead longer than the time it was given)."""
    if prompt.deadline is None:
        return []
    times = [(prompt.deadline - timedelta(hours=h), h) for h in lead_hours(prefs)]
    return sorted((t, h) for t, h in times if prompt.opened_at < t)


def next_reminder_at(prompt: Prompt, prefs: NotificationPreferences | None, *, now: datetime,
                     crossed_too: bool) -> datetime | None:
    """When the prompt's next reminder is due: the earliest lead time after ``now``; with
    ``crossed_too`` (planning), the latest one already crossed if any, so a reminder due when the prompt
    is planned goes at once (the send step finds out if it went before)."""
    if prefs is None or prompt.deadline is None or prompt.deadline <= now:
        return None
    times = [t for t, _ in _reminder_times(prompt, prefs)]
    crossed = [t for t in times if t <= now]
    if crossed_too and crossed:
        return crossed[-1]
    ahead = [t for t in times if t > now]
    return ahead[0] if ahead else None


def _sent_lead(prompt: Prompt) -> int | None:
    """The shortest lead already queued for this prompt's current deadline (None: none yet)."""
    return (Notification.objects.filter(prompt=prompt, kind=NotificationKind.REMINDER, deadline=prompt.deadline)
            .order_by("lead_hours").values_list("lead_hours", flat=True).first())


def due_lead(prompt: Prompt, prefs: NotificationPreferences, *, now: datetime) -> int | None:
    """The lead whose reminder is due now: the most urgent crossed one (when several were crossed at
    once, e.g. the task was down, the longer ones count as done), unless one as urgent was sent."""
    if prompt.deadline is None or prompt.deadline <= now:
        return None
    crossed = [h for t, h in _reminder_times(prompt, prefs) if t <= now]
    if not crossed:
        return None
    lead = min(crossed)
    sent = _sent_lead(prompt)
    return None if sent is not None and sent <= lead else lead


def _claim(queryset, *, order: str) -> list[Prompt]:
    """Lock a batch of these open prompts, skipping those another worker holds (PostgreSQL; SQLite
    serialises writers anyway), with what deciding a reminder needs in the same query."""
    return list(queryset.select_related("game", "seat__user__notification_preferences", "seat__mailbox")
                .select_for_update(skip_locked=True, of=("self",)).order_by(order)[:REMINDER_BATCH])


def unplanned_prompts():
    """Open prompts whose next reminder must be computed: the predicate of the partial index
    prompt_reminder_unplanned, word for word (the planner uses a partial index only then)."""
    return Prompt.objects.filter(closed_at__isnull=True, reminder_planned=False)


def due_prompts(*, now: datetime):
    """Open prompts whose next reminder is due: the partial index prompt_reminder_due's predicate
    plus the due time."""
    return Prompt.objects.filter(closed_at__isnull=True, next_reminder_at__isnull=False, next_reminder_at__lte=now)


def _plan_batch(*, now: datetime) -> int:
    with transaction.atomic():
        prompts = _claim(unplanned_prompts(), order="opened_at")
        for prompt in prompts:
            prompt.reminder_planned = True
            prompt.next_reminder_at = next_reminder_at(prompt, _preferences(prompt), now=now, crossed_too=True)
        Prompt.objects.bulk_update(prompts, ["reminder_planned", "next_reminder_at"])
        return len(prompts)


def _send_batch(*, now: datetime) -> tuple[int, int]:
    """Queue the reminders of one batch of due prompts; (prompts looked at, reminders queued)."""
    queued = 0
    with transaction.atomic():
        prompts = _claim(due_prompts(now=now), order="next_reminder_at")
        for prompt in prompts:
            prefs = _preferences(prompt)
            if prompt.game.status != GameStatus.ACTIVE:
                prefs = None  # a paused game's resume moves its deadlines and plans again
            lead = due_lead(prompt, prefs, now=now) if prefs is not None else None
            if lead is not None and _queue(prompt, lead):
                queued += 1
            prompt.next_reminder_at = next_reminder_at(prompt, prefs, now=now, crossed_too=False)
        Prompt.objects.bulk_update(prompts, ["next_reminder_at"])
    return len(prompts), queued


def _queue(prompt: Prompt, lead: int) -> bool:
    user = prompt.seat.user
    return notification_queue(
        kind=NotificationKind.REMINDER,
        dedupe_key=f"reminder:{prompt.pk}:seat{prompt.seat_id}:{prompt.deadline.isoformat()}:{lead}h",
        to_email=user.email, user_id=user.pk, game=prompt.game, seat=prompt.seat, prompt=prompt, lead_hours=lead,
        render=lambda: compose.render_prompt(prompt=prompt, user=user, reminder_hours=lead)) is not None


def reminders_due_queue(*, now: datetime | None = None) -> int:
    """The reminders task: plan the prompts that need it, then queue the reminders due now; returns
    how many were queued. Loops over batches until no work is left (or MAX_BATCHES_PER_RUN)."""
    now = now or timezone.now()
    for _ in range(MAX_BATCHES_PER_RUN):
        if _plan_batch(now=now) < REMINDER_BATCH:
            break
    queued = 0
    for _ in range(MAX_BATCHES_PER_RUN):
        looked, sent = _send_batch(now=now)
        queued += sent
        if looked < REMINDER_BATCH:
            break
    return queued


def plan_again(prompts) -> int:
    """Have the reminders task plan these open prompts again (their deadline, their player's
    preferences or vacations, or their seat's holder changed); one UPDATE."""
    return prompts.filter(closed_at__isnull=True).update(reminder_planned=False)


def plan_again_for_user(user_id: int) -> int:
    """After a player's reminder preferences or vacations changed: plan their open prompts again."""
    return plan_again(Prompt.objects.filter(Q(seat__user_id=user_id)))
