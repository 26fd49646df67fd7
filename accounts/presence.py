"""Is the player on the game's page? A player who is there gets no prompt mail.

    game page / its live-update poll (games.web, every WEB_POLL_INTERVAL_MS while the tab is shown)
      -> presence_record(user, game)   at most one write per WRITE_EVERY per player and game
    prompt mail, reminder (games.mail) -> is_present(user, game): a sign within PRESENCE_WINDOW,
      or a pick made on the web within it

The signs are stored (GamePresence), not kept in a process's memory, so every web and mail process agrees;
the cache only spares the database a write per poll. A hidden tab does not poll (game.js), so a player who
switched away stops being present a minute later.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import IntegrityError
from django.utils import timezone

from .models import GamePresence

PRESENCE_WINDOW = timedelta(seconds=60)  # "on the page": a sign within the last minute
WRITE_EVERY = timedelta(seconds=15)  # a sign is stored at most this often (the poll comes every 4 s)


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


def presence_record(*, user_id: int | None, game_id: int, now: datetime | None = None) -> None:
    """The player showed they are on the game's page now. Cheap enough for every poll: a cache add,
    and a write to the database only when the stored sign is older than WRITE_EVERY."""
    if not user_id:
        return
    now = now or timezone.now()
    if not cache.add(_key(user_id, game_id), 1, timeout=int(WRITE_EVERY.total_seconds())):
        return  # recorded within WRITE_EVERY by this cache's users
    try:
        # One statement: INSERT ... ON CONFLICT (user, game) DO UPDATE SET seen_at (PostgreSQL and SQLite).
        GamePresence.objects.bulk_create([GamePresence(user_id=user_id, game_id=game_id, seen_at=now)],
                                         update_conflicts=True, unique_fields=["user", "game"],
                                         update_fields=["seen_at"])
    except IntegrityError:  # the game or the account was deleted meanwhile: nobody to mail
        pass


def last_seen(*, user_id: int, game_id: int) -> datetime | None:
    return GamePresence.objects.filter(user_id=user_id, game_id=game_id).values_list("seen_at", flat=True).first()


def present_until(*, user_id: int, game_id: int, web_pick_at: datetime | None = None) -> datetime | None:
    """Until when the player counts as on the page from the signs so far (None: never seen). A pick on
    the web is a sign too (the page sent it)."""
    return present_until_signs(last_seen(user_id=user_id, game_id=game_id), web_pick_at)


def present_until_signs(*signs: datetime | None) -> datetime | None:
    """``present_until`` for signs the caller has read already (None where there is none)."""
    known = [t for t in signs if t is not None]
    return max(known) + PRESENCE_WINDOW if known else None


def forget(*, user_id: int, game_id: int) -> None:
    """Tests and tools: the player left (no sign is kept, the cache's throttle is reset)."""
    GamePresence.objects.filter(user_id=user_id, game_id=game_id).delete()
    cache.delete(_key(user_id, game_id))
