"""The daily digest: once a day per digest reader, the events they may see since their previous digest.

    digests_queue   beat (hourly, tasks.send_digests): the readers whose digest is due (their stored
                    ``next_digest_at``), claimed a batch per query through a partial index; each gets one
                    digest if something happened, and is looked at again a day later either way

Safe to run twice (the outbox's dedupe key: one digest per reader and day).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from games.models import Event, GameStatus, Prompt, Seat
from games.presentation.worded_events import worded_events_for_game

from . import compose
from .models import Notification, NotificationKind
from .outbox import notification_queue
from .recipients import address_confirmed

DIGEST_BATCH = 200  # readers claimed per transaction
DIGEST_EVERY = timedelta(hours=23)  # at most one digest a day (the hourly run after 23 hours)


def _digest_games(*, user: User, since: datetime) -> list[dict]:
    """What one reader's digest shows: each game of theirs with events they may see since ``since``."""
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
        games.append({"title": compose.game_title(seat.game),
                      "where": compose.where_in_game(view, engine_slug=seat.game.engine),
                      "events": worded_events_for_game(events[-50:], game=seat.game), "waiting": waiting})
    return games


def due_digest_readers(*, now: datetime, never_read: bool = False):
    """Digest readers whose digest is due, earliest first, through the partial index prefs_digest_due
    (``digest = true``); with ``never_read``, those never looked at (NULL), through prefs_digest_never_read
    (due now unless they had a digest before: _never_read_plan).
    Two queries rather than one with an OR: in next_digest_at order the NULLs come last, after every
    reader not due yet."""
    readers = NotificationPreferences.objects.filter(digest=True)
    if never_read:
        # The partial index prefs_digest_never_read's predicate; no order (by primary key the planner
        # would walk every preferences row looking for these).
        return readers.filter(next_digest_at__isnull=True).order_by()
    return readers.filter(next_digest_at__lte=now).order_by("next_digest_at")


def _never_read_plan(readers: list[NotificationPreferences], *, now: datetime) -> set[int]:
    """Readers never looked at (``next_digest_at`` NULL) who had a digest before (the setting switched
    off and on, a row the upgrade's backfill, accounts 0007, did not reach): their next digest is one
    period after the last, covering what happened since it, as for any reader. Sets both on these
    readers and returns the ids of those not due yet; one query for the batch. Readers without any
    digest on record are due now."""
    last = dict(Notification.objects.filter(kind=NotificationKind.DIGEST, user_id__in=[p.user_id for p in readers])
                .values("user_id").annotate(at=Max("created_at")).values_list("user_id", "at"))
    not_due = set()
    for prefs in readers:
        at = last.get(prefs.user_id)
        if at is None:
            continue
        prefs.digest_since = prefs.digest_since or at
        prefs.next_digest_at = at + DIGEST_EVERY
        if prefs.next_digest_at > now:
            not_due.add(prefs.pk)
    return not_due


def _digest_batch(*, now: datetime, never_read: bool) -> tuple[int, int]:
    """One batch of the readers whose digest is due, claimed (SKIP LOCKED) in one query through the
    partial index prefs_digest_due; (readers looked at, digests queued)."""
    queued = 0
    with transaction.atomic():
        readers = list(due_digest_readers(now=now, never_read=never_read).select_related("user")
                       .select_for_update(skip_locked=True, of=("self",))[:DIGEST_BATCH])
        not_due = _never_read_plan(readers, now=now) if never_read and readers else set()
        for prefs in readers:
            if prefs.pk in not_due:
                continue
            user = prefs.user
            since = prefs.digest_since or now - timedelta(hours=24)
            games = _digest_games(user=user, since=since) if address_confirmed(user) else []
            if games and notification_queue(
                    kind=NotificationKind.DIGEST, dedupe_key=f"digest:user{user.pk}:{now.date().isoformat()}",
                    address=user.email, user_id=user.pk,
                    render=lambda u=user, g=games: compose.render_digest(user=u, games=g)):
                queued += 1
                prefs.digest_since = now
            # Nothing to tell: the window stays open and is looked at again in a day, not every hour.
            prefs.next_digest_at = now + DIGEST_EVERY
        NotificationPreferences.objects.bulk_update(readers, ["next_digest_at", "digest_since"])
    return len(readers), queued


def digests_queue(*, now: datetime | None = None) -> int:
    """Once a day per digest reader: the events they may see since their previous digest. Reads only
    the readers whose digest is due (their stored ``next_digest_at``), a batch per query."""
    now = now or timezone.now()
    queued = 0
    for never_read in (True, False):
        while True:
            looked, sent = _digest_batch(now=now, never_read=never_read)
            queued += sent
            if looked < DIGEST_BATCH:
                break
    return queued
