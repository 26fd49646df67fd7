"""Seat settings: standing orders, and a player taking their seat back from the bot."""

from __future__ import annotations

from django.db import transaction

from ..engines.registry import get_engine
from ..errors import ErrorCode, GameError
from ..models import GameStatus, Seat
from .turn import auto_pick, pick_apply, prompts_sync, step_check, turn_load, turn_save


@transaction.atomic
def seat_standing_orders_set(*, seat: Seat, order_ids: list[str]) -> Seat:
    """Replace the seat's standing orders (engine order ids, first has priority); apply them now."""
    offered = {o.id for o in get_engine(seat.game.engine).standing_orders()}
    unknown = [o for o in order_ids if o not in offered]
    if unknown:
        raise GameError(ErrorCode.UNKNOWN_ORDER, f"unknown standing orders: {', '.join(unknown)}")
    turn = turn_load(game_id=seat.game_id)
    locked = turn.seats[seat.position]
    locked.standing_orders = list(dict.fromkeys(order_ids))
    turn.dirty_seats.add(seat.position)
    if turn.game.status == GameStatus.ACTIVE and seat.position in turn.open_prompts:
        # An order set while a prompt is open answers it at once, as if the prompt had just opened.
        pick = auto_pick(turn, seat.position, turn.open_prompts[seat.position])
        if pick is not None:
            pick_apply(turn, position=seat.position, option_id=pick[0], source=pick[1])
            prompts_sync(turn)
            step_check(turn)
    turn_save(turn)
    return locked


@transaction.atomic
def seat_reclaim(*, seat: Seat) -> Seat:
    """The player is back: the bot that took the seat after repeated misses leaves it."""
    turn = turn_load(game_id=seat.game_id)
    locked = turn.seats[seat.position]
    if locked.user_id is None:
        raise GameError(ErrorCode.NOT_YOUR_SEAT, "a seat without a player cannot be reclaimed")
    locked.is_bot = False
    locked.missed_deadlines = 0
    turn.dirty_seats.add(seat.position)
    turn_save(turn)
    return locked
