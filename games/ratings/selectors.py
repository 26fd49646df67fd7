"""Reads: leaderboards, a player's ratings, and a player's reliability (for admins and profiles)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User, Vacation

from ..models import HUMAN_SOURCES, Seat, Submission, SubmissionSource
from .models import Rating

ON_TIME_SOURCES = tuple(HUMAN_SOURCES | {SubmissionSource.STANDING})  # the player's own decisions


def leaderboard(*, engine: str, limit: int = 100, min_games: int = 1) -> list[dict[str, Any]]:
    rows = (Rating.objects.filter(engine=engine, games__gte=min_games).select_related("user")
            .order_by("-ordinal", "user__username")[:limit])
    return [{"rank": i + 1, **rating_as_dict(r)} for i, r in enumerate(rows)]


def rating_as_dict(r: Rating) -> dict[str, Any]:
    return {"player": r.user.username, "game": r.engine, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
            "rating": round(r.ordinal, 3), "games": r.games}


def ratings_for_user(*, user: User) -> list[dict[str, Any]]:
    return [rating_as_dict(r) for r in Rating.objects.filter(user=user).select_related("user").order_by("engine")]


def _count_per_user(qs: QuerySet, column: str = "id", agg=Count) -> Coalesce:
    return Coalesce(Subquery(qs.values("seat__user" if qs.model is Submission else "user")
                             .annotate(n=agg(column)).values("n")[:1]), 0)


def users_with_reliability(queryset: QuerySet[User] | None = None) -> QuerySet[User]:
    """Annotate users with decisions_on_time, decisions_missed and missed_now (current miss streaks).

    Subqueries rather than joins, so a user with many games costs one indexed count each, not a
    seats-by-submissions cross product.
    """
    qs = queryset if queryset is not None else User.objects.all()
    mine = Submission.objects.filter(seat__user=OuterRef("pk"))
    return qs.annotate(
        decisions_on_time=_count_per_user(mine.filter(source__in=ON_TIME_SOURCES)),
        decisions_missed=_count_per_user(mine.filter(source=SubmissionSource.DEFAULT)),
        missed_now=_count_per_user(Seat.objects.filter(user=OuterRef("pk")), "missed_deadlines", Sum),
    )


def user_reliability(*, user: User) -> dict[str, Any]:
    """Decisions on time vs missed, current missed streaks, and vacations now or ahead."""
    counts = Submission.objects.filter(seat__user=user).aggregate(
        on_time=Count("id", filter=Q(source__in=ON_TIME_SOURCES)),
        missed=Count("id", filter=Q(source=SubmissionSource.DEFAULT)))
    streak = Seat.objects.filter(user=user).aggregate(n=Sum("missed_deadlines"))["n"] or 0
    now = timezone.now()
    decided = counts["on_time"] + counts["missed"]
    return {
        "decisions_on_time": counts["on_time"], "decisions_missed": counts["missed"],
        "on_time_share": None if decided == 0 else round(counts["on_time"] / decided, 3),
        "missed_deadlines_now": streak,
        "on_vacation": Vacation.objects.filter(user=user, starts__lte=now, ends__gt=now).exists(),
        "vacations_ahead": Vacation.objects.filter(user=user, starts__gt=now).count(),
    }
