"""What the game signals turn into: prompt, reminder, result, digest and game-over emails.

Each function is safe to call twice (the outbox's dedupe key) and checks the player's preferences.
They render, so they run in a worker (tasks.py), never in the request that made a pick.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from django.conf import settings
from django.db.models import Exists, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from games.models import Event, Game, GameStatus, Prompt, Seat, Submission, SubmissionSource

from . import compose
from .models import Notification, NotificationKind, SeatMailbox
from .outbox import NOT_BEFORE_TOLERANCE, notification_queue, sweep_grace

logger = logging.getLogger(__name__)

MAX_LEAD_HOURS = 24 * 7  # a reminder lead time above a week is clamped
# The prompt sweep looks for open prompts without a prompt email over this window (a held-back follow-up
# now due, or a prompt whose on-commit task was lost: broker down). Older ones are left to the deadline
# reminders, so the sweep's cost stays bounded.
MISSING_PROMPT_WINDOW = timedelta(hours=24)
MISSING_PROMPT_BATCH = 200


def _mailable(seat: Seat) -> User | None:
    user = seat.user
    if user is None or seat.is_bot or not _address_confirmed(user):
        return None
    return user


def _address_confirmed(user: User) -> bool:
    """Game mail goes only to an active account's confirmed address (issue 10 item 3)."""
    return bool(user.email) and user.is_active and user.email_verified_at is not None


def followup_delay() -> timedelta:
    return timedelta(seconds=getattr(settings, "MAIL_FOLLOWUP_DELAY_SECONDS", 600))


# A seat's next prompt in a step is emailed at once after none of its picks in that step ("": its first
# prompt of the step) or after a pick by email (the player is in their inbox). After any other pick it is
# a follow-up the player is clicking through (web, API), or one they did not make themselves (a standing
# order, a default): held back by the follow-up delay, and never sent if answered meanwhile.
AT_ONCE_AFTER = ("", SubmissionSource.EMAIL)


def previous_pick_source() -> Coalesce:
    """Annotation: the source of the seat's latest pick in the prompt's step, "" if it made none.

    ``Submission.phase`` is the step its prompt belonged to (a pick is applied within its step), so the
    lookup walks the seat's own picks only (the submission seat index), not the prompts.
    """
    latest = (Submission.objects.filter(seat_id=OuterRef("seat_id"), phase=OuterRef("phase"))
              .exclude(source=SubmissionSource.FORCED)  # the server's pick, not the player's (issue 11 item 3)
              .order_by("-id").values("source")[:1])
    return Coalesce(Subquery(latest), Value(""))


def prompt_due_at(*, opened_at: datetime, previous_source: str) -> datetime:
    """When a prompt's email is due: at once, or after the follow-up delay (AT_ONCE_AFTER)."""
    return opened_at if previous_source in AT_ONCE_AFTER else opened_at + followup_delay()


def _loaded_preferences(user: User) -> NotificationPreferences:
    """The preferences select_related with the user (defaults if the player never saved any)."""
    try:
        return user.notification_preferences
    except NotificationPreferences.DoesNotExist:
        return NotificationPreferences(user=user)


def prompt_dedupe_key(prompt: Prompt) -> str:
    """One prompt email per prompt and holder of the seat: after the seat changed hands (its mailbox
    rotated, tokens.mailbox_rotate) the open prompt is emailed again, to the new holder at the new address."""
    try:
        generation = prompt.seat.mailbox.generation
    except SeatMailbox.DoesNotExist:
        generation = 0
    return f"prompt:{prompt.pk}:seat{prompt.seat_id}" + (f":g{generation}" if generation else "")


def prompt_notifications_queue(*, prompt_ids: list[int], now: datetime | None = None) -> list[Notification]:
    """Render and store the email of each of these prompts that is due; returns the rows queued.

    Skipped: closed prompts, inactive games, bots, players without an address or opted out, emails
    queued before (the dedupe key), and follow-ups still held back (prompt_due_at: the prompt sweep
    emails them once due, if still open). The prompts, seats, users, preferences and previous picks
    are read in one query whatever the number of prompts; each email's render reads what it shows.
    """
    now = now or timezone.now()
    prompts = (Prompt.objects.filter(pk__in=prompt_ids, closed_at__isnull=True, game__status=GameStatus.ACTIVE)
               .select_related("game", "seat__user__notification_preferences", "seat__mailbox")
               .annotate(previous_source=previous_pick_source()).order_by("pk"))
    rows = []
    for prompt in prompts:
        user = _mailable(prompt.seat)
        if user is None or not _loaded_preferences(user).email_prompts:
            continue
        due_at = prompt_due_at(opened_at=prompt.opened_at, previous_source=prompt.previous_source)
        if now < due_at - NOT_BEFORE_TOLERANCE:
            continue
        row = notification_queue(
            kind=NotificationKind.PROMPT, dedupe_key=prompt_dedupe_key(prompt),
            to_email=user.email, user_id=user.pk, game=prompt.game, seat=prompt.seat, prompt=prompt,
            render=lambda p=prompt, u=user: compose.render_prompt(prompt=p, user=u))
        if row is not None:
            rows.append(row)
    return rows


def write_prompt_ids(*, game_id: int, opened_at: datetime) -> list[int]:
    """The prompts of a game still open that one write opened (a write opens all its prompts at its
    own time; the open-prompt ``opened_at`` index finds them)."""
    return list(Prompt.objects.filter(game_id=game_id, opened_at=opened_at, closed_at__isnull=True)
                .order_by("pk").values_list("pk", flat=True))


def prompts_due_without_mail(*, now: datetime):
    """Open prompts of the last day whose email is due but was never queued; oldest first.

    Due means: a prompt emailed at once whose task had the sweep grace to run (if it was lost, the broker
    being down, it is queued here), or a held-back follow-up whose delay has passed (nothing was
    enqueued for it when it opened: it is emailed here, or never if answered before).
    """
    has_prompt_mail = Notification.objects.filter(prompt=OuterRef("pk"), kind=NotificationKind.PROMPT)
    # The game's status as a correlated test, not a join: a join on the status index tempts a planner
    # without statistics (SQLite) into walking every prompt of every active game.
    game_active = Game.objects.filter(pk=OuterRef("game_id"), status=GameStatus.ACTIVE)
    # A held-back follow-up is due when its delay has passed (with no delay its task was enqueued at
    # once, as for any other prompt, and gets the same grace to run). A prompt older than both is due
    # whatever the seat's previous pick, so the previous pick is looked up only for the prompts between.
    grace = sweep_grace()
    at_once_by, held_back_by = now - grace, now - (followup_delay() or grace)
    at_once = Q(previous_source__in=AT_ONCE_AFTER)
    due = (Q(opened_at__lte=min(at_once_by, held_back_by)) | (Q(opened_at__lte=at_once_by) & at_once)
           | (Q(opened_at__lte=held_back_by) & ~at_once))
    return (Prompt.objects
            .filter(closed_at__isnull=True, opened_at__gt=now - MISSING_PROMPT_WINDOW,
                    opened_at__lte=max(at_once_by, held_back_by), seat__is_bot=False, seat__user__is_active=True,
                    seat__user__email_verified_at__isnull=False)
            .exclude(seat__user__email="")
            .exclude(seat__user__notification_preferences__email_prompts=False)
            .alias(previous_source=previous_pick_source())
            .filter(due)
            .filter(Exists(game_active), ~Exists(has_prompt_mail))
            .order_by("opened_at"))


def due_prompt_notifications_queue(*, now: datetime | None = None) -> int:
    """The prompt sweep (beat, every MAIL_PROMPT_SWEEP_SECONDS): queue the due prompt emails never queued.

    Walks the open-prompt ``opened_at`` index (migration mail 0002) over the last day, so it costs what
    the recent open prompts cost; prompts no email is due for (bots, no address, opted out) are filtered
    in the query so they are not looked at again every sweep. It renders here (it runs on the mail
    worker), at most MISSING_PROMPT_BATCH a sweep; the next sweep takes the rest. Returns how many.
    """
    now = now or timezone.now()
    ids = list(prompts_due_without_mail(now=now).values_list("pk", flat=True)[:MISSING_PROMPT_BATCH])
    return len(prompt_notifications_queue(prompt_ids=ids, now=now)) if ids else 0


def result_notifications_queue(*, game_id: int, phase: int, event_ids: list[int]) -> int:
    """After a resolution: what happened, to each player who wants one email per event (not a digest)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    events = list(Event.objects.filter(game=game, pk__in=event_ids).order_by("id"))
    sent = 0
    # Each seat's player and preferences in the one query (not a query per player: this runs per resolution).
    for seat in Seat.objects.filter(game=game).select_related("user", "user__notification_preferences", "game"):
        user = _mailable(seat)
        if user is None:
            continue
        prefs = _loaded_preferences(user)
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
    for seat in Seat.objects.filter(game=game).select_related("user", "user__notification_preferences", "game"):
        user = _mailable(seat)
        if user is None:
            continue
        prefs = _loaded_preferences(user)
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
               .select_related("seat", "seat__user", "seat__user__notification_preferences", "game")
               .order_by("deadline"))
    for prompt in prompts:
        user = _mailable(prompt.seat)
        if user is None:
            continue
        prefs = _loaded_preferences(user)
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
        if not _address_confirmed(user):
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
            games.append({"title": compose.game_title(seat.game), "where": compose.where_in_game(view, engine_slug=seat.game.engine),
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


__all__ = ["prompt_notifications_queue", "prompt_due_at", "write_prompt_ids", "due_prompt_notifications_queue",
           "result_notifications_queue", "finished_notifications_queue", "reminders_due_queue", "digests_queue",
           "preferences_unsubscribe"]
