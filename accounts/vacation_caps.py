"""Caps on vacations, so that stacked vacations cannot stretch a game's clock without end.

Two caps, both documented on the vacation page and in README.md:

- per rolling year (VACATION_MAX_DAYS_PER_YEAR, default 30): in no 365-day window may a player's
  vacations add up to more than this; a booking that would break it is refused. A vacation that has
  started can no longer be cancelled (the deadlines it stretched stay stretched), so its days stay counted.
- per game (VACATION_MAX_DAYS_PER_GAME, default 21): however vacations were recorded (the page, the email
  command, the admin), a player's vacations stretch one game's deadlines by at most this much over the
  game's life (games/services/clock.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from .models import Vacation

YEAR = timedelta(days=365)


class VacationLimitError(ValueError):
    """The vacation would break a cap; the message says which and how many days are left."""


def yearly_cap() -> timedelta:
    return timedelta(days=settings.VACATION_MAX_DAYS_PER_YEAR)


def per_game_cap() -> timedelta:
    return timedelta(days=settings.VACATION_MAX_DAYS_PER_GAME)


def _merged(intervals: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    """Overlapping vacations counted once."""
    merged: list[tuple[datetime, datetime]] = []
    for starts, ends in sorted(intervals):
        if merged and starts <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], ends))
        else:
            merged.append((starts, ends))
    return merged


def time_away(intervals: list[tuple[datetime, datetime]], start: datetime, end: datetime) -> timedelta:
    """How much of [start, end) the intervals cover."""
    total = timedelta(0)
    for s, e in _merged(intervals):
        overlap = min(e, end) - max(s, start)
        if overlap > timedelta(0):
            total += overlap
    return total


def busiest_year(intervals: list[tuple[datetime, datetime]]) -> timedelta:
    """The most time away in any 365-day window. The covered time of a sliding window peaks when the
    window ends where a vacation ends or begins a year after a vacation begins, so only those are tried."""
    merged = _merged(intervals)
    ends = [e for _, e in merged] + [s + YEAR for s, _ in merged]
    return max((time_away(merged, w - YEAR, w) for w in ends), default=timedelta(0))


def vacation_check_yearly(*, user_id: int, starts: datetime, ends: datetime) -> None:
    """VacationLimitError if adding [starts, ends) puts more than the yearly cap in some 365-day window."""
    cap = yearly_cap()
    nearby = list(Vacation.objects.filter(user_id=user_id, starts__lt=ends + YEAR, ends__gt=starts - YEAR)
                  .values_list("starts", "ends"))
    if busiest_year(nearby + [(starts, ends)]) > cap:
        raise VacationLimitError(
            f"Vacations add up to at most {cap.days} days in any 365 days; with your other vacations this one "
            "would go over. Make it shorter or move it.")
