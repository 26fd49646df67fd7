"""The game page's table talk: the chat panel's context, each message as the page shows it, and
the notes box. Everything comes from games.chat; the page only labels seats and renders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString

from accounts.models import User
from games.chat.audience import recipients
from games.chat.formatting import chat_html
from games.chat.limits import NOTES_MAX, TEXT_MAX
from games.chat.models import ChatMessage
from games.chat.selectors import (Reader, blocked_ids, latest_messages, muted_user_ids, note_text, read_marker,
                                  unread_count)
from games.chat.services import messages_read, post_refusal
from games.models import Game, GameStatus, Press

from .selectors import Viewer, seats_for_page

# Why the page offers no box to write in, said for people (the API's codes say the same for programs).
_NO_POSTING = {
    "not_a_player": "Spectators read the table talk; only the players write.",
    "press_off": "This game has no table talk.",
    "muted": "You are muted at this table.",
    "game_over": "The game is over; its table talk is kept as it was.",
    "account_deactivated": "This account is deactivated.",
}


@dataclass(frozen=True)
class ShownMessage:
    """One message as the page shows it."""

    id: int
    author: str  # "alice" or "Seat 2"
    position: int
    author_id: int | None
    to: str  # "" for the table, else "to bob, Seat 3"
    html: SafeString
    created_at: Any
    mine: bool
    new: bool
    hidden: bool


@dataclass(frozen=True)
class SeatLabels:
    """How the page names the game's seats, and who sits where (for mentions)."""

    labels: dict[int, str]
    names: dict[str, int]  # lower-case username -> position
    user_ids: dict[int, int | None]
    players: int

    @classmethod
    def of(cls, game: Game) -> SeatLabels:
        seats = seats_for_page(game=game)
        return cls(labels={s["position"]: s["label"] for s in seats},
                   names={s["player"].lower(): s["position"] for s in seats if s["player"]},
                   user_ids={s["position"]: s["user_id"] for s in seats}, players=game.players)


def messages_shown(messages: Iterable[ChatMessage], *, reader: Reader, seats: SeatLabels, read_up_to: int) -> list[ShownMessage]:
    out = []
    for m in messages:
        to = recipients(m.audience, m.position)
        out.append(ShownMessage(
            id=m.pk, author=seats.labels.get(m.position, f"Seat {m.position + 1}"), position=m.position,
            author_id=m.author_id, to=("to " + ", ".join(seats.labels.get(p, f"Seat {p + 1}") for p in to)) if to else "",
            html=chat_html(m.text, names=seats.names, players=seats.players, me=reader.position),
            created_at=m.created_at, mine=reader.seat is not None and m.seat_id == reader.seat.pk,
            new=reader.seat is not None and m.pk > read_up_to and m.seat_id != reader.seat.pk,
            hidden=m.hidden_at is not None))
    return out


def chat_flags(*, game: Game, viewer: Viewer, user: User, seats: SeatLabels) -> dict[str, Any]:
    """What the panel and each message offer this viewer: the box to write in (or why not), recipients,
    the report, block and mute buttons, and where they post."""
    refusal = post_refusal(game=game, user=user)
    moderator = user.is_staff or (game.created_by_id == user.pk and viewer.is_player)
    return {
        "press": game.press,
        "can_post": refusal is None,
        "refusal": _NO_POSTING.get(refusal.code.value, refusal.detail) if refusal else "",
        "recipients": ([(p, label) for p, label in seats.labels.items() if p != viewer.position]
                       if game.press == Press.FULL and viewer.is_player else []),
        "moderator": moderator and game.status not in (GameStatus.FINISHED, GameStatus.ABANDONED),
        "seated_user_ids": {uid for uid in seats.user_ids.values() if uid is not None},
        "muted": muted_user_ids(game=game),
        "blocked": set(blocked_ids(user=user)),
        "url": reverse("web:game-chat", args=[game.pk]),
        "report_url": reverse("web:chat-report", args=[game.pk]),
        "mute_url": reverse("web:game-mute", args=[game.pk]),
        "block_url": reverse("web:game-block", args=[game.pk]),
        "poll_ms": settings.WEB_POLL_INTERVAL_MS,
        "max_length": TEXT_MAX,
    }


def chat_context(*, game: Game, viewer: Viewer, user: User) -> dict[str, Any]:
    """The chat panel of the game page; what it shows counts as read for the viewer's seat."""
    reader = Reader(game=game, user=user, seat=viewer.seat)
    seats = SeatLabels.of(game)
    messages = latest_messages(reader=reader)
    marker = read_marker(seat=viewer.seat) if viewer.seat is not None else 0
    unread = unread_count(reader=reader)
    if viewer.seat is not None and messages:
        messages_read(seat=viewer.seat, up_to=messages[-1].pk)
    return {**chat_flags(game=game, viewer=viewer, user=user, seats=seats),
            "messages": messages_shown(messages, reader=reader, seats=seats, read_up_to=marker),
            "last": messages[-1].pk if messages else 0, "unread": unread}


def notes_context(*, game: Game, viewer: Viewer, user: User) -> dict[str, Any] | None:
    """The notes box of a player (None for a spectator): their own notes at their seat."""
    if viewer.seat is None:
        return None
    return {"text": note_text(seat=viewer.seat, user=user), "url": reverse("web:game-notes", args=[game.pk]),
            "max_length": NOTES_MAX}
