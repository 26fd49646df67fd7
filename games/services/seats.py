"""Seat settings: standing orders, and a player taking their seat back from the bot."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from accounts.models import User

from ..engines.registry import get_engine
from ..errors import ErrorCode, GameError
from ..models import BotReason, Event, GameStatus, Seat
from ..signals import seat_changed_hands
from .turn import Turn, auto_pick, pick_apply, prompts_sync, step_check, turn_load, turn_save


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


def seat_web_seen_set(*, seat: Seat, event_id: int) -> None:
    """Remember the newest event the seat's player has seen on the game page: "since your last visit" starts after it.

    One UPDATE, and none when the page shows nothing new; the marker only moves forward, so a slower
    request that read fewer events cannot take it back.
    """
    if seat.web_seen_event_id is not None and seat.web_seen_event_id >= event_id:
        return
    (Seat.objects.filter(pk=seat.pk)
     .filter(Q(web_seen_event_id__isnull=True) | Q(web_seen_event_id__lt=event_id))
     .update(web_seen_event_id=event_id))
    seat.web_seen_event_id = event_id


def seat_changed_hands_send(*, seat: Seat, previous_user_id: int | None, reason: str) -> None:
    """Tell the layers holding credentials bound to the seat (the email reply token and links) to revoke
    them, inside this transaction (games.signals.seat_changed_hands).

    A new player at the seat has seen nothing of the game yet: the seat's "since your last visit" marker was the
    previous player's, so it is cleared (the newcomer's first visit then starts it afresh). The same player
    leaving the seat to a bot or taking it back keeps theirs.
    """
    if seat.user_id != previous_user_id:
        Seat.objects.filter(pk=seat.pk).update(web_seen_event_id=None)
        seat.web_seen_event_id = None
    seat_changed_hands.send(sender=Seat, seat=seat, previous_user_id=previous_user_id, reason=reason)


def seat_back_from_bot(turn: Turn, position: int, *, reason: str) -> Seat:
    """The bot leaves the seat and its player plays it again; the seat's email credentials are rotated."""
    seat = turn.seats[position]
    seat.is_bot = False
    seat.missed_deadlines = 0
    seat.bot_reason = BotReason.NONE
    seat.bot_handed_by = None
    turn.dirty_seats.add(position)
    seat_changed_hands_send(seat=seat, previous_user_id=seat.user_id, reason=reason)
    # The player is asked afresh (at the seat's new reply address) what the seat is asked now.
    turn.opened.extend(row for p, row in turn.open_prompts.items() if p == position)
    return seat


@transaction.atomic
def seat_reclaim(*, seat: Seat, by: User) -> Seat:
    """The seat's player takes it back from the bot (POST /reclaim/); the game's log says so to everyone.

    Allowed when a bot took the seat after the player's repeated misses or the player left it to a bot
    themselves. A seat an admin handed to a bot is given back only by an admin (seat_take_back_from_bot):
    otherwise the player could undo the admin's decision at once. A seat the bot does not play is left
    as it is (a retried reclaim succeeds and logs nothing).
    """
    turn = turn_load(game_id=seat.game_id)
    locked = turn.seats[seat.position]
    if locked.user_id is None or locked.user_id != by.pk:
        raise GameError(ErrorCode.NOT_YOUR_SEAT, "only the seat's own player can reclaim it")
    if not locked.is_bot:
        return locked
    if locked.bot_reason == BotReason.ADMIN:
        raise GameError(ErrorCode.RECLAIM_NEEDS_ADMIN, "an admin handed this seat to a bot; ask an admin to "
                                                       "give it back to you")
    seat_back_from_bot(turn, locked.position, reason="reclaimed")
    Event.objects.create(game=turn.game, phase=turn.game.phase, visibility=None,
                         text=f"{by.username} took seat {locked.position + 1} back from the bot.",
                         data={"player": by.username, "action": "reclaim", "seat": locked.position})
    turn_save(turn)
    return locked
