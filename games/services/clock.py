"""Deadlines: a fixed time per step or a per-seat time bank, stretched over the player's vacations.

Clock settings (Game.clock, merged over settings.DEFAULT_CLOCK):
  type: "fixed" (step_seconds per prompt) | "bank" (initial_seconds, increment_seconds per pick) | "none"
  extensions: how many times a seat's missed deadline is extended before the default pick is made
  extension_seconds: length of one extension (default: step_seconds, or increment/initial for banks)
  bot_after_misses: consecutive misses after which a bot takes the seat until its player returns
  vacation_grace_seconds: time left to a player whose deadline passed while on vacation
Each number is bounded (CLOCK_BOUNDS); clock_validate refuses anything else when a clock is created.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from accounts.selectors import vacation_time_between, vacations_overlapping
from accounts.vacation_caps import per_game_cap

from ..models import Game, Seat

CLOCK_TYPES = ("fixed", "bank", "none")


def clock_settings(game: Game) -> dict[str, Any]:
    return {**settings.DEFAULT_CLOCK, **(game.clock or {})}


DAY = 24 * 3600
# The documented bounds of every clock field (docs/server.md): (smallest, largest). A deadline further
# than 90 days is no deadline a player would wait for, and far larger values overflow datetime
# arithmetic (timedelta stops at 999,999,999 days), which once made the sweep fail every round.
CLOCK_BOUNDS: dict[str, tuple[int, int]] = {
    "step_seconds": (60, 90 * DAY),
    "initial_seconds": (60, 90 * DAY),
    "increment_seconds": (0, 90 * DAY),
    "extension_seconds": (60, 90 * DAY),
    "vacation_grace_seconds": (0, 90 * DAY),
    "extensions": (0, 10),
    "bot_after_misses": (0, 100),
}
COUNT_FIELDS = ("extensions", "bot_after_misses")  # whole numbers; the others are seconds


def clock_validate(clock: dict[str, Any]) -> None:
    """Raise ValueError, naming the field, for a clock the server cannot run: an unknown field, a type
    not in CLOCK_TYPES, or a value that is not a number within CLOCK_BOUNDS (null: the default)."""
    if not isinstance(clock, dict):
        raise ValueError("clock must be an object")
    for key, value in clock.items():
        if key == "type":
            continue
        if key not in CLOCK_BOUNDS:
            raise ValueError(f"clock has no field {key!r}; the fields are type, {', '.join(CLOCK_BOUNDS)}")
        if value is not None:
            _check_clock_number(key, value)
    if {**settings.DEFAULT_CLOCK, **clock}["type"] not in CLOCK_TYPES:
        raise ValueError(f"clock type must be one of {', '.join(CLOCK_TYPES)}")


def _check_clock_number(key: str, value: Any) -> None:
    low, high = CLOCK_BOUNDS[key]
    whole = key in COUNT_FIELDS
    number_types = (int,) if whole else (int, float)
    # bool is an int to Python, and NaN or infinity compare false with every bound: refuse them by name.
    if (isinstance(value, bool) or not isinstance(value, number_types) or not math.isfinite(value)
            or not low <= value <= high):
        kind = "a whole number" if whole else "a number of seconds"
        raise ValueError(f"clock {key} must be {kind} from {low} to {high}")


def extend_over_vacations(*, user_id: int | None, start: datetime, seconds: float,
                          max_stretch: timedelta | None = None) -> datetime:
    """The moment ``seconds`` of the player's active (non-vacation) time have passed after ``start``;
    vacations push it back by at most ``max_stretch`` in all (None: no cap)."""
    remaining = timedelta(seconds=seconds)
    if user_id is None:
        return start + remaining
    t = start
    stretched = timedelta(0)
    horizon = start + remaining + timedelta(days=365)
    for v in vacations_overlapping(user_id=user_id, start=start, end=horizon):
        if v.starts >= t + remaining or (max_stretch is not None and stretched >= max_stretch):
            break
        away_from = max(v.starts, t)
        if v.ends <= away_from:
            continue
        remaining -= away_from - t
        skip = v.ends - away_from
        if max_stretch is not None:
            skip = min(skip, max_stretch - stretched)
        stretched += skip
        t = away_from + skip
    return t + remaining


def vacation_stretch_left(*, game: Game, user_id: int, now: datetime) -> timedelta:
    """How much longer the player's vacations may still stretch this game's deadlines: the per-game cap
    (VACATION_MAX_DAYS_PER_GAME) less the vacation time already spent since the game started. Without it,
    vacations booked one after another could stretch a 1-hour clock by a year."""
    since = game.started_at or now
    spent = vacation_time_between(user_id=user_id, start=since, end=now) if since < now else timedelta(0)
    return max(timedelta(0), per_game_cap() - spent)


def seat_time_allowance(*, game: Game, seat: Seat) -> float | None:
    """Seconds the seat gets for its next prompt (None: no deadline)."""
    clock = clock_settings(game)
    if clock["type"] == "none":
        return None
    if clock["type"] == "bank":
        if seat.bank_seconds is None:
            seat.bank_seconds = float(clock.get("initial_seconds", 7 * 24 * 3600))
        return seat.bank_seconds
    return float(clock["step_seconds"])


def prompt_deadline(*, game: Game, seat: Seat, now: datetime, may_be_away: bool = True) -> datetime | None:
    """The deadline of a prompt opened ``now``; ``may_be_away=False`` (the caller knows the player has no
    vacation ending after ``now``) skips reading the vacations."""
    seconds = seat_time_allowance(game=game, seat=seat)
    if seconds is None:
        return None
    if not may_be_away or seat.user_id is None:
        return now + timedelta(seconds=seconds)
    return extend_over_vacations(user_id=seat.user_id, start=now, seconds=seconds,
                                 max_stretch=vacation_stretch_left(game=game, user_id=seat.user_id, now=now))


def bank_after_pick(*, game: Game, seat: Seat, opened_at: datetime, now: datetime, timed_out: bool) -> None:
    """Charge a time-bank seat for the time it took, then add the per-move increment."""
    clock = clock_settings(game)
    if clock["type"] != "bank" or seat.bank_seconds is None:
        return
    used = 0.0 if seat.is_bot else (now - opened_at).total_seconds()
    left = 0.0 if timed_out else max(0.0, seat.bank_seconds - used)
    seat.bank_seconds = left + float(clock.get("increment_seconds", 0))


def extension_seconds(game: Game) -> float:
    clock = clock_settings(game)
    if clock.get("extension_seconds") is not None:
        return float(clock["extension_seconds"])
    if clock["type"] == "bank":
        return float(clock.get("increment_seconds") or clock.get("initial_seconds", 24 * 3600))
    return float(clock.get("step_seconds", 24 * 3600))
