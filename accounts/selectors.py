"""Reads for accounts."""

from datetime import datetime, timedelta

from .models import Vacation
from .vacation_caps import time_away


def vacations_overlapping(*, user_id: int, start: datetime, end: datetime) -> list[Vacation]:
    """The user's vacations that overlap [start, end), earliest first."""
    return list(Vacation.objects.filter(user_id=user_id, starts__lt=end, ends__gt=start).order_by("starts"))


def vacation_time_between(*, user_id: int, start: datetime, end: datetime) -> timedelta:
    """How much of [start, end) the user spent (or will spend) on vacation, overlaps counted once."""
    rows = Vacation.objects.filter(user_id=user_id, starts__lt=end, ends__gt=start).values_list("starts", "ends")
    return time_away(list(rows), start, end)
