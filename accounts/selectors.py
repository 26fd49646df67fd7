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


def running_games(*, user) -> list[tuple[int, str]]:
    """(game id, "Mage Knight #4") of the player's games not over yet, newest first: the preferences page
    gives each its own choice of decision mails."""
    from games.engines.registry import get_engine  # the games app sits above accounts: read at call time
    from games.models import GameStatus, Seat

    out = []
    for game_id, engine in (Seat.objects.filter(user=user, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE,
                                                                             GameStatus.PAUSED])
                            .order_by("-game_id").values_list("game_id", "game__engine")[:50]):
        try:
            name = get_engine(engine).name
        except KeyError:
            name = engine
        out.append((game_id, f"{name} #{game_id}"))
    return out


def game_modes(*, user) -> dict[int, str]:
    from .models import GamePromptMail

    return dict(GamePromptMail.objects.filter(user=user).values_list("game_id", "mode"))
