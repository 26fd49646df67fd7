"""Reads of table talk: who reads a game's messages, which ones, how many are new, a seat's notes.

The one rule of who reads what: the table's messages are read by every seat and, in a game the
caller may see without a seat (a public game; staff), by them too; a private thread only by the seats in
it, whoever sits there now. Nobody reads a message staff hid (but its author, who is told), one by a
deactivated account (but its author), or one by someone they blocked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from django.db.models import F, Q, QuerySet

from accounts.models import User
from games.models import Game, Seat
from games.selectors import seat_for_user

from .audience import TABLE, readable_by, recipients
from .models import ChatMessage, SeatChat, SeatNote, TableMute, UserBlock

LIST_MAX = 500  # messages per answer; a client asks again with ?since= the last id for more


@dataclass(frozen=True)
class Reader:
    """Who reads a game's talk: a seat's player (``seat``), or someone who may only watch (None)."""

    game: Game
    user: User
    seat: Seat | None

    @property
    def position(self) -> int | None:
        return None if self.seat is None else self.seat.position


def reader_for(*, game: Game, user: User) -> Reader | None:
    """The user as a reader of this game's talk; None if they may not see the game (a private game
    without a seat of theirs, for anyone but staff: the rule of games.selectors.game_visible_to)."""
    seat = seat_for_user(game=game, user=user)
    if seat is None and not (game.is_public or user.is_staff):
        return None
    return Reader(game=game, user=user, seat=seat)


def blocked_ids(*, user: User) -> list[int]:
    """The users ``user`` has blocked."""
    if not user.is_authenticated:
        return []
    return list(UserBlock.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def _readable(reader: Reader) -> QuerySet[ChatMessage]:
    qs = ChatMessage.objects.filter(game_id=reader.game.pk)
    if reader.position is None:
        qs = qs.filter(audience=TABLE)
    else:
        qs = qs.alias(in_thread=F("audience").bitand(1 << reader.position)).filter(
            Q(audience=TABLE) | Q(in_thread__gt=0))
    mine = Q(author_id=reader.user.pk)
    # A hidden message or a deactivated account's stays visible to its author only.
    qs = qs.filter(mine | Q(hidden_at__isnull=True)).filter(mine | Q(author__isnull=True) | Q(author__is_active=True))
    blocked = blocked_ids(user=reader.user)
    return qs.exclude(author_id__in=blocked) if blocked else qs


def messages_for(*, reader: Reader, since: int = 0, limit: int = LIST_MAX) -> list[ChatMessage]:
    """The messages ``reader`` may read with an id above ``since``, oldest first."""
    return list(_readable(reader).filter(id__gt=since).order_by("id")[:limit])


def latest_messages(*, reader: Reader, count: int = 200) -> list[ChatMessage]:
    """The reader's ``count`` newest messages, oldest first (a page shows these; older ones are in the API)."""
    newest = list(_readable(reader).order_by("-id")[:count])
    newest.reverse()
    return newest


def messages_in_steps(*, reader: Reader, after: int | None, up_to: int | None) -> list[ChatMessage]:
    """The reader's messages written while the game's step was above ``after`` and at most ``up_to`` (None:
    no bound), oldest first: what the replay shows with a step (and the steps without events before it)."""
    qs = _readable(reader)
    if after is not None:
        qs = qs.filter(phase__gt=after)
    if up_to is not None:
        qs = qs.filter(phase__lte=up_to)
    return list(qs.order_by("id")[:LIST_MAX])


def message_for(*, reader: Reader, message_id: int) -> ChatMessage | None:
    """One message, if ``reader`` may read it."""
    return _readable(reader).filter(pk=message_id).first()


def latest_message_id(*, game_id: int) -> int:
    """The newest message id of the game, whoever may read it (0: none): what a waiting reader watches.
    One lookup in the index chat_message_game."""
    return ChatMessage.objects.filter(game_id=game_id).order_by("-id").values_list("id", flat=True).first() or 0


def message_as_dict(message: ChatMessage) -> dict[str, Any]:
    """The API's shape of a message: positions as in the API (0-based); ``to`` None for the table."""
    return {"id": message.pk, "seat": message.position, "to": recipients(message.audience, message.position),
            "text": message.text, "created_at": message.created_at.isoformat(),
            "hidden": message.hidden_at is not None}


def read_marker(*, seat: Seat) -> int:
    """The newest message the seat's player has seen (0: none)."""
    return SeatChat.objects.filter(seat=seat).values_list("read_id", flat=True).first() or 0


def unread_count(*, reader: Reader) -> int:
    """Messages for the reader's seat, not its own, newer than what it has seen; 0 for a spectator."""
    if reader.seat is None:
        return 0
    return (_readable(reader).filter(id__gt=read_marker(seat=reader.seat))
            .exclude(seat_id=reader.seat.pk).count())


UNREAD_ROWS_MAX = 5000  # rows one count reads; past that the counts are a floor, which "99+" shows anyway


def unread_by_game(*, user: User, seats: Iterable[Seat]) -> dict[int, int]:
    """{game id: messages new to ``user`` at their seat there} for these seats of theirs (games with none
    left out): the lobby's and the nav's counts, in three queries for any number of games."""
    seats = [s for s in seats if s.user_id == user.pk]
    if not seats:
        return {}
    markers = dict(SeatChat.objects.filter(seat__in=seats).values_list("seat_id", "read_id"))
    newer = Q()
    for s in seats:
        newer |= Q(game_id=s.game_id, id__gt=markers.get(s.pk, 0))
    blocked = set(blocked_ids(user=user))
    rows = (ChatMessage.objects.filter(newer, hidden_at__isnull=True)
            .filter(Q(author__isnull=True) | Q(author__is_active=True))
            .values_list("game_id", "seat_id", "audience", "author_id")[:UNREAD_ROWS_MAX])
    by_game = {s.game_id: s for s in seats}
    counts: dict[int, int] = {}
    for game_id, seat_id, audience, author_id in rows:
        seat = by_game[game_id]
        if seat_id != seat.pk and author_id not in blocked and readable_by(audience, seat.position):
            counts[game_id] = counts.get(game_id, 0) + 1
    return counts


def is_muted(*, game: Game, user: User) -> bool:
    return TableMute.objects.filter(game=game, user=user).exists()


def muted_user_ids(*, game: Game) -> set[int]:
    return set(TableMute.objects.filter(game=game).values_list("user_id", flat=True))


def note_text(*, seat: Seat, user: User) -> str:
    """The player's notes at this seat ('' when none): theirs alone, whoever else asks."""
    return SeatNote.objects.filter(seat=seat, user=user).values_list("text", flat=True).first() or ""
