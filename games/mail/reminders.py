"""Deadline reminders, found through the time each open prompt's next reminder is due.

Each open prompt stores ``next_reminder_at`` (games.Prompt): the deadline minus the seat's player's
next lead time not yet crossed, or NULL when no reminder is left. The reminders task (beat, every
MAIL_REMINDER_INTERVAL_SECONDS) does two things, each through a partial index and in batches of
REMINDER_BATCH rows claimed with ``FOR UPDATE SKIP LOCKED`` (so several workers share the work and
never take one prompt twice):

1. plan: open prompts with ``reminder_planned = false`` (just opened, or their deadline, their player's
   preferences or vacations, or their seat's holder changed: those writes reset the flag) get their
   ``next_reminder_at`` computed;
2. send: open prompts with ``next_reminder_at <= now + look-ahead`` get their reminder queued (the
   outbox's dedupe key makes a second queue a no-op) and their next reminder time computed from the
   current deadline and preferences, so a stale plan only costs a look.

A run sends first, then plans, then sends what planning found due: a backlog of
prompts to plan (a deploy, many re-plans at once) never holds back the reminders already due.

The look-ahead is one period of the task (lookahead_seconds): a reminder that falls due before the next
run is rendered now and stored with ``not_before`` = its due time, and its send task is enqueued with a
countdown to then, as a held-back follow-up prompt is. So a reminder goes at the player's lead time, not
up to a period later; the send still skips it if the prompt was answered or its deadline moved by then,
and the outbox sweep sends it if its countdown task is lost. In the eager mode (no worker to hold a
countdown) the look-ahead is 0 and reminders go when a run finds them due.

So a run costs what was opened or changed since the previous run plus the reminders due now, whatever
the number of open prompts; its memory is one batch. A batch's reminders are decided, rendered and stored
together: one query for the reminders already sent, one for the dedupe keys taken, one for the seats'
mailboxes, one INSERT of the outbox rows and their send tasks enqueued in one go after the commit (a
handful of statements per 200 reminders, not ten per reminder).

A run stops after the batch that takes it past its time budget (MAIL_REMINDER_RUN_SECONDS, well under the
task's soft time limit) and says so; the task then enqueues its own continuation at the back of the mail
queue (a beat run: MAIL_REMINDER_PARALLEL_RUNS of them, so several mail processes share it), so a backlog
(the task was down, a burst of deadlines) is worked off at full speed while the other mail tasks get the
worker between two runs. The due index keeps the order: the most overdue go first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import NotificationPreferences
from games.models import GameStatus, Prompt

from . import compose, wants
from .budget import TimeBudget
from .models import Notification, NotificationKind
from .outbox import notification_build, notifications_queue_bulk
from .recipients import loaded_preferences, mailable
from .tokens import mailboxes_for_seats
from .unsent import reminders_queued_ahead_withdraw

logger = logging.getLogger(__name__)

MAX_LEAD_HOURS = 24 * 7  # a reminder lead time above a week is clamped
REMINDER_BATCH = 200  # prompts claimed per transaction; a run loops until no work is left
MAX_BATCHES_PER_RUN = 500  # a backlog larger than this (100k rows) is left to the next run
RUN_SECONDS = 20.0  # default time budget of one run (MAIL_REMINDER_RUN_SECONDS); the soft limit is 100 s
PARALLEL_RUNS = 2  # default chains of continuations a beat run with a backlog starts (MAIL_REMINDER_PARALLEL_RUNS)


def lookahead_seconds() -> float:
    """How far ahead of its due time a run queues a reminder (with a countdown to that time): one period
    of the task, so none falls due between two runs; 0 when tasks run in-process (nothing can hold a
    countdown there)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return 0.0
    return float(settings.MAIL_REMINDER_INTERVAL_SECONDS)


def run_budget_seconds() -> float:
    """How long one run of the reminders task may work before it leaves the rest to its continuation."""
    return float(getattr(settings, "MAIL_REMINDER_RUN_SECONDS", RUN_SECONDS))


def parallel_runs() -> int:
    """How many continuations a beat run that stopped at its budget starts (MAIL_REMINDER_PARALLEL_RUNS):
    a backlog is worked off by that many mail processes at once, each claiming its own batches."""
    return max(1, int(getattr(settings, "MAIL_REMINDER_PARALLEL_RUNS", PARALLEL_RUNS)))


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


def _preferences(prompt: Prompt, overrides: dict | None = None) -> NotificationPreferences | None:
    """The seat's player's preferences if reminders can go to them at all (their mode for this game mails
    decisions: every one, or when away; wants.py), else None."""
    user = mailable(prompt.seat)
    if user is None:
        return None
    prefs = loaded_preferences(user)
    mode = wants.effective_mode(prefs, game_id=prompt.game_id, overrides=overrides)
    return prefs if mode in wants.WANTS_PROMPTS else None


def _overrides(prompts: list[Prompt]) -> dict:
    """The games' own modes of a batch's players: one query (wants.game_overrides)."""
    return wants.game_overrides((p.seat.user_id, p.game_id) for p in prompts if p.seat.user_id)


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


def _sent_leads(prompts: list[Prompt]) -> dict[int, int]:
    """_sent_lead of each of these prompts that has one, prompt id -> lead: one query for a batch."""
    if not prompts:
        return {}
    deadlines = {p.pk: p.deadline for p in prompts}
    out: dict[int, int] = {}
    for pk, deadline, lead in (Notification.objects.filter(prompt_id__in=deadlines, kind=NotificationKind.REMINDER)
                               .values_list("prompt_id", "deadline", "lead_hours")):
        if deadline == deadlines[pk] and lead is not None and (pk not in out or lead < out[pk]):
            out[pk] = lead
    return out


_UNKNOWN = object()


def due_lead(prompt: Prompt, prefs: NotificationPreferences, *, now: datetime, sent=_UNKNOWN) -> int | None:
    """The lead whose reminder is due now: the most urgent crossed one (when several were crossed at
    once, e.g. the task was down, the longer ones count as done), unless one as urgent was sent
    (``sent``: the shortest lead sent for this deadline, None for none, read by the caller for a batch)."""
    if prompt.deadline is None or prompt.deadline <= now:
        return None
    crossed = [h for t, h in _reminder_times(prompt, prefs) if t <= now]
    if not crossed:
        return None
    lead = min(crossed)
    if sent is _UNKNOWN:
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
        overrides = _overrides(prompts)
        for prompt in prompts:
            prompt.reminder_planned = True
            prompt.next_reminder_at = next_reminder_at(prompt, _preferences(prompt, overrides), now=now,
                                                       crossed_too=True)
        Prompt.objects.bulk_update(prompts, ["reminder_planned", "next_reminder_at"])
        return len(prompts)


def _send_batch(*, now: datetime, ahead: timedelta) -> tuple[int, int]:
    """Queue the reminders of one batch of prompts due by ``now + ahead``, each to be sent at its due time
    (at once if that has passed); (prompts looked at, reminders queued)."""
    with transaction.atomic():
        prompts = _claim(due_prompts(now=now + ahead), order="next_reminder_at")
        prefs_of = {}
        overrides = _overrides(prompts)
        for prompt in prompts:
            prefs = _preferences(prompt, overrides)
            if prompt.game.status != GameStatus.ACTIVE:
                prefs = None  # a paused game's resume moves its deadlines and plans again
            prefs_of[prompt.pk] = prefs
        sent = _sent_leads([p for p in prompts if prefs_of[p.pk] is not None])
        wanted = []
        for prompt in prompts:
            prefs = prefs_of[prompt.pk]
            at = max(now, prompt.next_reminder_at)  # when this reminder falls due
            lead = due_lead(prompt, prefs, now=at, sent=sent.get(prompt.pk)) if prefs is not None else None
            if lead is not None:
                wanted.append((prompt, lead, at if at > now else None))
            prompt.next_reminder_at = next_reminder_at(prompt, prefs, now=at, crossed_too=False)
        queued = _queue_all(wanted, away_only={p.pk for p, _, _ in wanted if wants.effective_mode(
            prefs_of[p.pk], game_id=p.game_id, overrides=overrides) != wants.EVERY})
        Prompt.objects.bulk_update(prompts, ["next_reminder_at"])
    return len(prompts), queued


def dedupe_key(prompt: Prompt, lead: int) -> str:
    return f"reminder:{prompt.pk}:seat{prompt.seat_id}:{prompt.deadline.isoformat()}:{lead}h"


def _queue_all(wanted: list[tuple[Prompt, int, datetime | None]], away_only: set[int] = frozenset()) -> int:
    """Render and store the reminders of a batch ((prompt, lead, not before) each, their prompts locked
    by the caller) whose dedupe key is not taken, in one INSERT; their sends are enqueued after the
    commit (with a countdown to ``not before``)."""
    keys = {dedupe_key(p, lead): (p, lead, not_before) for p, lead, not_before in wanted if p.seat.user.email}
    if not keys:
        return 0
    taken = set(Notification.objects.filter(dedupe_key__in=list(keys)).values_list("dedupe_key", flat=True))
    todo = [(key, *item) for key, item in keys.items() if key not in taken]
    if not todo:
        return 0
    boxes = mailboxes_for_seats(p.seat_id for _, p, _, _ in todo)
    rows = []
    for key, prompt, lead, not_before in todo:
        user = prompt.seat.user
        rendered = compose.render_prompt(prompt=prompt, user=user, reminder_hours=lead, mailbox=boxes[prompt.seat_id])
        row = notification_build(kind=NotificationKind.REMINDER, dedupe_key=key, address=user.email,
                                 rendered=rendered, user_id=user.pk, game=prompt.game, seat=prompt.seat,
                                 prompt=prompt, lead_hours=lead, not_before=not_before)
        # "When away": a player on the game's page at the reminder's time sees the deadline there (delivery.py)
        row.away_only = prompt.pk in away_only
        rows.append(row)
    return len(notifications_queue_bulk(rows))


@dataclass
class RunResult:
    queued: int  # reminders queued
    done: bool  # False: the run stopped at its time budget with work left (for the continuation)


def _send_all(*, now: datetime, ahead: timedelta, budget: TimeBudget) -> tuple[int, bool]:
    """Queue the reminders due, a batch at a time; (reminders queued, whether no due prompt is left)."""
    queued = 0
    for _ in range(MAX_BATCHES_PER_RUN):
        looked, sent = _send_batch(now=now, ahead=ahead)
        queued += sent
        if looked < REMINDER_BATCH:
            return queued, True
        if budget.spent():
            break
    return queued, False


def _plan_all(*, now: datetime, budget: TimeBudget) -> bool:
    """Plan the prompts that need it, a batch at a time; whether none is left."""
    for _ in range(MAX_BATCHES_PER_RUN):
        if _plan_batch(now=now) < REMINDER_BATCH:
            return True
        if budget.spent():
            break
    return False


def reminders_due_run(*, now: datetime | None = None, budget_seconds: float | None = None,
                      ahead_seconds: float | None = None) -> RunResult:
    """One run of the reminders task: queue the reminders due by ``now`` + ``ahead_seconds`` (None:
    lookahead_seconds()), then plan the prompts that need it, then queue the reminders that planning found
    due; a batch at a time until no work is left or ``budget_seconds`` (None: run_budget_seconds(); 0: no
    budget) have passed after a batch.

    Due work goes before the backlog: the reminders already planned and due are sent
    before any planning, so many prompts to plan at once (a deploy, a burst of re-plans) cost the due
    reminders nothing; an unplanned prompt's stale ``next_reminder_at`` is harmless there (the send step
    decides from the current deadline and preferences)."""
    now = now or timezone.now()
    budget = TimeBudget(run_budget_seconds() if budget_seconds is None else budget_seconds)
    ahead = timedelta(seconds=lookahead_seconds() if ahead_seconds is None else ahead_seconds)
    queued, done = _send_all(now=now, ahead=ahead, budget=budget)
    if not done or not _plan_all(now=now, budget=budget):
        return RunResult(queued=queued, done=False)
    more, done = _send_all(now=now, ahead=ahead, budget=budget)
    return RunResult(queued=queued + more, done=done)


def reminders_due_queue(*, now: datetime | None = None, budget_seconds: float | None = 0) -> int:
    """Queue the reminders due now, plan the prompts that need it, queue those it found due; returns how
    many were queued. Loops over batches until no work is left (or MAX_BATCHES_PER_RUN); with ``budget_seconds``, as
    reminders_due_run."""
    return reminders_due_run(now=now, budget_seconds=budget_seconds).queued


def plan_again(prompts) -> int:
    """Have the reminders task plan these open prompts again (their deadline, their player's
    preferences or vacations, or their seat's holder changed); one UPDATE."""
    return prompts.filter(closed_at__isnull=True).update(reminder_planned=False)


def plan_again_for_user(user_id: int) -> int:
    """After a player's reminder preferences or vacations changed: plan their open prompts again, and
    withdraw their reminders queued ahead and not yet due (the new plan queues them again if wanted)."""
    reminders_queued_ahead_withdraw(user_id=user_id)
    return plan_again(Prompt.objects.filter(Q(seat__user_id=user_id)))
