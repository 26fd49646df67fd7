"""Quiet hours: the local times (in the player's own time zone) when no mail goes to them.

Kept as wall-clock times (``quiet_start``, ``quiet_end``) with the zone (``User.timezone``), so 22:00 to
07:00 stays 22:00 to 07:00 local across a daylight-saving change; the instant they end is worked out each
time from the zone's rules. A start after the end spans midnight. Equal times mean no quiet hours.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .models import NotificationPreferences


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _inside(t: time, start: time, end: time) -> bool:
    if start < end:
        return start <= t < end
    return t >= start or t < end  # spans midnight


def _local_instant(day, t: time, tz: ZoneInfo) -> datetime:
    """``t`` on ``day`` in ``tz`` as an aware instant; a wall time the clocks skip (spring forward) is
    read with the offset before the gap, which is the first instant after it (fold rules of PEP 495)."""
    local = datetime.combine(day, t, tzinfo=tz)
    # Round-trip through UTC: a non-existent local time comes back shifted past the gap.
    return local.astimezone(ZoneInfo("UTC"))


def quiet_until(prefs: NotificationPreferences, *, tz_name: str | None, now: datetime) -> datetime | None:
    """The instant the player's quiet hours end if ``now`` falls inside them, else None."""
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return None
    tz = zone(tz_name)
    local = now.astimezone(tz)
    if not _inside(local.time().replace(tzinfo=None), start, end):
        return None
    day = local.date()
    if start > end and local.time().replace(tzinfo=None) >= start:
        day = day + timedelta(days=1)  # started this evening: ends tomorrow morning
    return _local_instant(day, end, tz)
