"""Reads for accounts."""

from datetime import datetime

from .models import Vacation


def vacations_overlapping(*, user_id: int, start: datetime, end: datetime) -> list[Vacation]:
    """The user's vacations that overlap [start, end), earliest first."""
    return list(Vacation.objects.filter(user_id=user_id, starts__lt=end, ends__gt=start).order_by("starts"))
