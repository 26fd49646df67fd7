"""What the game signals turn into: prompt, reminder, result, digest and game-over emails.

Each function is safe to call twice (the outbox's dedupe key) and checks the player's preferences.
They render, so they run in a worker (tasks.py), never in the request that made a pick.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Callable

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from games.models import Event, Game, GameStatus, Prompt, Seat, Submission, SubmissionSource

from . import compose
from .models import Notification, NotificationKind
from .outbox import SWEEP_AFTER, notification_queue

logger = logging.getLogger(__name__)

MAX_LEAD_HOURS = 24 * 7  # a reminder lead time above a week is clamped
# Open prompts without a prompt email are looked for over this window (their on-commit task was lost:
# broker down). Older ones are left to the deadline reminders, so the sweep's cost stays bounded.
MISSING_PROMPT_WINDOW = timedelta(hours=24)
MISSING_PROMPT_BATCH = 200


def preferences_for(user: User) -> NotificationPreferences:
    prefs = NotificationPreferences.objects.filter(user=user).first()
    return prefs if prefs is not None else NotificationPreferences(user=user)


def _mailable(seat: Seat) -> User | None:
    user = seat.user
    if user is None or seat.is_bot or not user.email or not user.is_active:
        return None
    return user


def followup_delay() -> timedelta:
    return timedelta(seconds=getattr(settings, "MAIL_FOLLOWUP_DELAY_SECONDS", 600))


def prompt_not_before(prompt: Prompt) -> datetime | None:
    """When a prompt's email may go out: None for at once.

    A step's decision is a short series of picks per seat (play a card, face up or down, an action...).
    The seat's first prompt of a step is emailed at once. A follow-up (the seat already answered a
    prompt in this step) is emailed at once only if that pick came by email: the player is in their
    inbox. Otherwise they are clicking through the web or API, so it waits, and is skipped if answered
    meanwhile (outbox._still_relevant).
    """
    previous = (Submission.objects.filter(seat_id=prompt.seat_id, prompt_row__phase=prompt.phase)
                .exclude(prompt_row_id=prompt.pk).order_by("-id").values_list("source", flat=True).first())
    if previous is None or previous == SubmissionSource.EMAIL:
        return None
    return prompt.opened_at + followup_delay()


def prompt_notification_queue(*, prompt_id: int) -> Notification | None:
    """One email for a newly opened prompt (none for bots, opted-out players, or a prompt already closed);
    a follow-up within a step may be held back (prompt_not_before)."""
    prompt = (Prompt.objects.select_related("seat", "seat__user", "game")
              .filter(pk=prompt_id, closed_at__isnull=True).first())
    if prompt is None or prompt.game.status != GameStatus.ACTIVE:
        return None
    user = _mailable(prompt.seat)
    if user is None or not preferences_for(user).email_prompts:
        return None
    return notification_queue(
        kind=NotificationKind.PROMPT, dedupe_key=f"prompt:{prompt.pk}:seat{prompt.seat_id}",
        to_email=user.email, user_id=user.pk, game=prompt.game, seat=prompt.seat, prompt=prompt,
        not_before=prompt_not_before(prompt), render=lambda: compose.render_prompt(prompt=prompt, user=user))


def prompts_without_mail(*, now: datetime):
    """Open prompts opened within the window (and over a minute ago) that a prompt email is due for but
    that have none; oldest first."""
    has_prompt_mail = Notification.objects.filter(prompt=OuterRef("pk"), kind=NotificationKind.PROMPT)
    # The game's status as a correlated test, not a join: a join on the status index tempts a planner
    # without statistics (SQLite) into walking every prompt of every active game.
    game_active = Game.objects.filter(pk=OuterRef("game_id"), status=GameStatus.ACTIVE)
    return (Prompt.objects
            .filter(closed_at__isnull=True, opened_at__gt=now - MISSING_PROMPT_WINDOW,
                    opened_at__lte=now - SWEEP_AFTER, seat__is_bot=False, seat__user__is_active=True)
            .exclude(seat__user__email="")
            .exclude(seat__user__notification_preferences__email_prompts=False)
            .filter(Exists(game_active), ~Exists(has_prompt_mail))
            .order_by("opened_at"))


def missing_prompt_notifications_queue(*, enqueue: Callable[[int], None], now: datetime | None = None) -> int:
    """Enqueue the prompt email of recently opened prompts that have none (their task was lost).

    Walks the open-prompt ``opened_at`` index (migration mail 0002) over [now - window, now - a minute],
    so it costs what the recent prompts cost; prompts no email is due for (bots, no address, opted out)
    are filtered in the query so they are not retried every sweep. Returns how many were enqueued.
    """
    ids = list(prompts_without_mail(now=now or timezone.now()).values_list("pk", flat=True)[:MISSING_PROMPT_BATCH])
    for n, pk in enumerate(ids):
        try:
            enqueue(pk)
        except Exception:  # the broker went away mid-sweep: the next sweep finds the rest
            logger.warning("could not enqueue the prompt email of prompt %s", pk, exc_info=True)
            return n
    return len(ids)


def result_notifications_queue(*, game_id: int, phase: int, event_ids: list[int]) -> int:
    """After a resolution: what happened, to each player who wants one email per event (not a digest)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    events = list(Event.objects.filter(game=game, pk__in=event_ids).order_by("id"))
    sent = 0
    for seat in Seat.objects.filter(game=game).select_related("user", "game"):
        user = _mailable(seat)
        if user is None:
            continue
        prefs = preferences_for(user)
        if not prefs.email_results or prefs.digest:
            continue
        visible = [e for e in events if e.visible_to(seat.position)]
        if not visible:
            continue
        if notification_queue(kind=NotificationKind.RESULT, dedupe_key=f"result:{game.pk}:{phase}:user{user.pk}",
                              to_email=user.email, user_id=user.pk, game=seat.game, seat=seat,
                              render=lambda s=seat, u=user, v=visible: compose.render_result(
                                  game=s.game, seat=s, user=u, phase=phase, events=v)):
            sent += 1
    return sent


def finished_notifications_queue(*, game_id: int) -> int:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    sent = 0
    for seat in Seat.objects.filter(game=game).select_related("user", "game"):
        user = _mailable(seat)
        if user is None:
            continue
        prefs = preferences_for(user)
        if not (prefs.email_prompts or prefs.email_results or prefs.digest):
            continue  # unsubscribed from everything
        if notification_queue(kind=NotificationKind.FINISHED, dedupe_key=f"finished:{game.pk}:user{user.pk}",
                              to_email=user.email, user_id=user.pk, game=seat.game, seat=seat,
                              render=lambda s=seat, u=user: compose.render_finished(game=s.game, seat=s, user=u)):
            sent += 1
    return sent


def _leads(prefs: NotificationPreferences) -> list[int]:
    out = set()
    for value in prefs.reminder_lead_hours or []:
        try:
            hours = int(value)
        except (TypeError, ValueError):
            continue
        if 0 < hours <= MAX_LEAD_HOURS:
            out.add(hours)
    return sorted(out)


def reminders_due_queue(*, now: datetime | None = None) -> int:
    """Queue the reminders that are due now: one per (prompt, deadline, lead), only for open prompts.

    The query walks the open-prompt deadline index over [now, now + the longest lead], so its cost
    grows with prompts near their deadline. When several leads are due at once (the sweep was down),
    only the most urgent is sent and the longer ones are treated as done.
    """
    now = now or timezone.now()
    horizon = now + timedelta(hours=MAX_LEAD_HOURS)
    queued = 0
    prompts = (Prompt.objects.filter(closed_at__isnull=True, deadline__gt=now, deadline__lte=horizon,
                                     game__status=GameStatus.ACTIVE)
               .select_related("seat", "seat__user", "game").order_by("deadline"))
    for prompt in prompts:
        user = _mailable(prompt.seat)
        if user is None:
            continue
        prefs = preferences_for(user)
        if not prefs.email_prompts:
            continue
        due = [h for h in _leads(prefs)
               if prompt.deadline - timedelta(hours=h) <= now < prompt.deadline
               and prompt.opened_at < prompt.deadline - timedelta(hours=h)]  # no reminder right after the prompt
        if not due:
            continue
        lead = min(due)
        if Notification.objects.filter(prompt=prompt, kind=NotificationKind.REMINDER, deadline=prompt.deadline,
                                       lead_hours__lte=lead).exists():
            continue
        if notification_queue(kind=NotificationKind.REMINDER,
                              dedupe_key=f"reminder:{prompt.pk}:seat{prompt.seat_id}:{prompt.deadline.isoformat()}:{lead}h",
                              to_email=user.email, user_id=user.pk, game=prompt.game, seat=prompt.seat,
                              prompt=prompt, lead_hours=lead,
                              render=lambda p=prompt, u=user, h=lead: compose.render_prompt(prompt=p, user=u,
                                                                                             reminder_hours=h)):
            queued += 1
    return queued


def digests_queue(*, now: datetime | None = None) -> int:
    """Once a day per digest reader: the events they may see since their previous digest."""
    now = now or timezone.now()
    queued = 0
    for prefs in NotificationPreferences.objects.filter(digest=True).select_related("user"):
        user = prefs.user
        if not user.email or not user.is_active:
            continue
        last = Notification.objects.filter(user=user, kind=NotificationKind.DIGEST).order_by("-id").first()
        if last is not None and now - last.created_at < timedelta(hours=23):
            continue
        since = last.created_at if last is not None else now - timedelta(hours=24)
        games = []
        seats = (Seat.objects.filter(user=user).filter(Q(game__status=GameStatus.ACTIVE) | Q(game__finished_at__gt=since))
                 .select_related("game"))
        for seat in seats:
            events = [e for e in Event.objects.filter(game=seat.game, created_at__gt=since).order_by("id")
                      if e.visible_to(seat.position)]
            if not events:
                continue
            waiting = Prompt.objects.filter(seat=seat, closed_at__isnull=True).exists()
            view = compose.game_view_for_seat(game=seat.game, seat=seat)
            games.append({"title": compose.game_title(seat.game), "where": compose.where_in_game(view),
                          "events": events[-50:], "waiting": waiting})
        if not games:
            continue
        if notification_queue(kind=NotificationKind.DIGEST, dedupe_key=f"digest:user{user.pk}:{now.date().isoformat()}",
                              to_email=user.email, user_id=user.pk,
                              render=lambda u=user, g=games: compose.render_digest(user=u, games=g)):
            queued += 1
    return queued


def preferences_unsubscribe(*, user_id: int) -> bool:
    """Stop every game email to the user (List-Unsubscribe); True if the user exists."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return False
    prefs, _ = NotificationPreferences.objects.get_or_create(user=user)
    prefs.email_prompts = prefs.email_results = prefs.digest = False
    prefs.save(update_fields=["email_prompts", "email_results", "digest"])
    return True


__all__ = ["prompt_notification_queue", "prompt_not_before", "missing_prompt_notifications_queue",
           "result_notifications_queue", "finished_notifications_queue", "reminders_due_queue", "digests_queue",
           "preferences_unsubscribe"]
