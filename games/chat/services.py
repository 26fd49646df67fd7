"""Writes of table talk: post a message, mark what a seat has read.

Posting never touches the game row (no lock, no ``Game.version``): talk changes nothing a game's view
shows, so a burst of messages never makes a pick wait, nor wakes the clients waiting on the game.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game, Press, Seat
from games.selectors import seat_for_user

from .audience import TABLE, thread_of
from .errors import ChatError, ChatErrorCode
from .limits import post_rate_check, text_problem
from .models import ChatMessage, SeatChat
from .selectors import is_muted


def _audience(*, game: Game, seat: Seat, to: list[int] | None) -> int:
    """The message's audience (audience.py) for ``to``: None for the table, else the other seats' positions."""
    if to is None:
        return TABLE
    if not to:
        raise ChatError(ChatErrorCode.BAD_RECIPIENTS, "to: null for the table, or at least one seat position")
    if game.press != Press.FULL:
        raise ChatError(ChatErrorCode.PRESS_OFF, f"private messages are off in this game (press: {game.press})")
    for p in to:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < game.players:
            raise ChatError(ChatErrorCode.BAD_RECIPIENTS,
                            f"to: seat positions from 0 to {game.players - 1} ({p!r} given)")
        if p == seat.position:
            raise ChatError(ChatErrorCode.BAD_RECIPIENTS, "to: the other seats only (your own is in every thread)")
    return thread_of([seat.position, *to])


def _refusal(*, game: Game, user: User, seat: Seat | None) -> ChatError | None:
    """Why ``user`` may not post at this game at all, whatever the message."""
    if not user.is_active:
        return ChatError(ChatErrorCode.ACCOUNT_DEACTIVATED, "this account is deactivated")
    if seat is None:
        return ChatError(ChatErrorCode.NOT_A_PLAYER, "only the game's players post; spectators read")
    if not game.in_play:
        return ChatError(ChatErrorCode.GAME_OVER, f"the game is {game.status}; its talk is closed")
    if game.press == Press.NONE:
        return ChatError(ChatErrorCode.PRESS_OFF, "this game has no table talk (press: none)")
    if is_muted(game=game, user=user):
        return ChatError(ChatErrorCode.MUTED, "you are muted at this table")
    return None


def post_refusal(*, game: Game, user: User) -> ChatError | None:
    """What message_post would refuse before reading a message (the page hides its form then)."""
    return _refusal(game=game, user=user, seat=seat_for_user(game=game, user=user))


@transaction.atomic
def message_post(*, game: Game, user: User, text: str, to: list[int] | None = None) -> ChatMessage:
    """Post ``text`` from the user's seat to the table (``to`` None) or to a thread of seats.

    The checks, in order: may this user post here at all (403), is the text storable (400), are the
    recipients seats of this game that ``press`` allows (400, 403), is the user within their rate (429).
    A refused message changes nothing but the rate's count.
    """
    seat = seat_for_user(game=game, user=user)
    refusal = _refusal(game=game, user=user, seat=seat)
    if refusal is not None:
        raise refusal
    problem = text_problem(text)
    if problem is not None:
        raise problem
    audience = _audience(game=game, seat=seat, to=to)
    post_rate_check(user_id=user.pk)
    now = timezone.now()
    message = ChatMessage.objects.create(game=game, seat=seat, position=seat.position, author=user,
                                         audience=audience, text=text, phase=game.phase, created_at=now)
    _mail_owed(game=game, message=message, now=now)  # one's own message is never news: no read marker moves
    return message


def _mail_owed(*, game: Game, message: ChatMessage, now) -> None:
    """Start the batch window of every other seat this message is for, where none is running: its mail goes
    CHAT_MAIL_BATCH_SECONDS after its first unread message (batches.py sends it, or a prompt mail sooner)."""
    seats = Seat.objects.filter(game=game, user__isnull=False).exclude(pk=message.seat_id)
    ids = [pk for pk, position in seats.values_list("pk", "position")
           if message.audience == TABLE or message.audience >> position & 1]
    if not ids:
        return
    SeatChat.objects.bulk_create([SeatChat(seat_id=pk) for pk in ids], ignore_conflicts=True)
    due = now + timedelta(seconds=settings.CHAT_MAIL_BATCH_SECONDS)
    SeatChat.objects.filter(seat_id__in=ids, mail_due_at__isnull=True).update(mail_due_at=due)


def messages_read(*, seat: Seat, up_to: int) -> None:
    """The seat's player has seen every message up to ``up_to`` (the page showed them, the API answered them):
    none of them is news any more, on the page or by mail. The marker only moves forward."""
    if up_to <= 0:
        return
    updated = SeatChat.objects.filter(seat=seat, read_id__lt=up_to).update(read_id=up_to)
    if not updated:  # no row yet, or one already past up_to (which get_or_create leaves alone)
        SeatChat.objects.get_or_create(seat=seat, defaults={"read_id": up_to})
