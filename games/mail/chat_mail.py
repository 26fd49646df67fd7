"""Table talk by mail: one batched email per game of the messages a player has not read, the
messages a prompt email carries instead when it goes sooner, and the notice that staff hid or restored one
of the player's messages.

    message posted -> the seat's window opens (games.chat.services: SeatChat.mail_due_at = now + CHAT_MAIL_BATCH_SECONDS)
    beat, every CHAT_MAIL_SWEEP_SECONDS: mail.send_chat_batches -> chat_batches_send
      -> claim the due seats (SKIP LOCKED), one email each with every message not read nor mailed yet,
         recorded (games.chat.batches.batch_mailed) in the transaction that queues it in the outbox

A seat whose messages were all read on the page meanwhile gets nothing; a player who turned the mails off
(``email_chat``), a bot seat or an unconfirmed address neither. Each email is in the game's thread (the
outbox's Message-ID / In-Reply-To / References per game and player) and its Reply-To is the seat's reply
address, so a reply with ``say`` or ``tell`` posts back (inbound.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.chat.audience import recipients
from games.chat.batches import DUE_BATCH, batch_mailed, batch_settled, due_seats_claim, unmailed_messages
from games.chat.formatting import chat_html
from games.chat.models import ChatMessage, SeatChat
from games.models import Press, Seat
from games.presentation.wording import seat_label

from .compose import Rendered, current_reply_to, deadline_local, game_title
from .links import unsubscribe_url
from .models import NotificationKind
from .outbox import notification_queue
from .recipients import loaded_preferences, mailable

RUN_SECONDS = 20.0  # a beat run stops claiming new batches after this long; the next run goes on


@dataclass(frozen=True)
class MailedMessage:
    author: str
    to: str  # "" for the table, else "privately to bob and you"
    text: str  # as typed (the text part shows it so; the HTML part escapes it)
    html: str
    when: str


@dataclass(frozen=True)
class ChatForMail:
    """The messages a mail carries to one seat, and the newest of them (what it records as mailed)."""

    seat: Seat
    messages: list[MailedMessage]
    up_to: int


def wants_chat_mail(seat: Seat) -> User | None:
    """The seat's player, if table talk may be mailed to them (their address confirmed, a human seat, on)."""
    user = mailable(seat)
    if user is None or not loaded_preferences(user).email_chat:
        return None
    return user


def _seat_labels(seat: Seat) -> tuple[dict[int, str], dict[str, int]]:
    seats = Seat.objects.filter(game_id=seat.game_id).select_related("user").order_by("position")
    labels = {s.position: seat_label(position=s.position, username=s.user.username if s.user else None,
                                     is_bot=s.is_bot) for s in seats}
    return labels, {s.user.username.lower(): s.position for s in seats if s.user}


def chat_for_mail(*, seat: Seat, user: User, chat: SeatChat | None = None) -> ChatForMail | None:
    """What a mail to this seat's player carries of the table talk: None when nothing is new to them."""
    found: list[ChatMessage] = unmailed_messages(seat=seat, chat=chat)
    if not found:
        return None
    labels, names = _seat_labels(seat)

    def to_words(m: ChatMessage) -> str:
        others = [p for p in recipients(m.audience, m.position) or [] if p != seat.position]
        if m.audience == 0:
            return ""
        return "privately to you" + "".join(f", {labels.get(p, f'Seat {p + 1}')}" for p in others)

    shown = [MailedMessage(author=labels.get(m.position, f"Seat {m.position + 1}"), to=to_words(m), text=m.text,
                           html=chat_html(m.text, names=names, players=seat.game.players, me=seat.position),
                           when=deadline_local(m.created_at, user) or "") for m in found]
    return ChatForMail(seat=seat, messages=shown, up_to=found[-1].pk)


def chat_carried(chat: ChatForMail | None) -> None:
    """A queued mail carried these messages: they are not mailed again (the seat's window closes)."""
    if chat is not None:
        batch_mailed(seat=chat.seat, up_to=chat.up_to)


def _reply_help(seat: Seat, labels: dict[int, str]) -> list[str]:
    lines = ["say <your message>  - to the whole table (the rest of your reply, above the quoted part)"]
    if seat.game.press == Press.FULL:
        others = ", ".join(f"{p + 1} {label}" for p, label in sorted(labels.items()) if p != seat.position)
        lines.append(f"tell <seat number> <your message>  - privately (seats: {others}; several: tell 2,3 ...)")
    return lines


def render_chat(*, chat: ChatForMail, user: User) -> Rendered:
    seat = chat.seat
    game = seat.game
    labels, _ = _seat_labels(seat)
    count = len(chat.messages)
    ctx = {"game": game, "game_title": game_title(game), "user": user, "messages": chat.messages, "count": count,
           "reply_help": _reply_help(seat, labels), "site_url": settings.MAIL_BASE_URL,
           "game_url": settings.MAIL_BASE_URL.rstrip("/") + reverse("web:game", args=[game.pk]) + "#chat",
           "preferences_url": settings.MAIL_BASE_URL.rstrip("/") + reverse("account-preferences")}
    text = render_to_string("email/chat.txt", ctx).strip() + "\n"
    html = render_to_string("email/chat.html", ctx)
    return Rendered(subject=f"{game_title(game)}: {count} new message{'s' if count != 1 else ''}", text=text,
                    html=html, reply_to=current_reply_to(seat), unsubscribe=unsubscribe_url(user_id=user.pk))


def _send_one(seat_chat: SeatChat) -> bool:
    seat = seat_chat.seat
    user = wants_chat_mail(seat)
    chat = chat_for_mail(seat=seat, user=user, chat=seat_chat) if user is not None else None
    if chat is None:  # read on the page meanwhile, or no mail wanted: the window just closes
        batch_settled(seat=seat)
        return False
    row = notification_queue(kind=NotificationKind.CHAT, dedupe_key=f"chat:{seat.pk}:{chat.up_to}",
                             address=user.email, user_id=user.pk, game=seat.game, seat=seat,
                             render=lambda: render_chat(chat=chat, user=user))
    chat_carried(chat)  # queued now, or under this key before: either way these are mailed
    return row is not None


def chat_batches_send(*, now: datetime | None = None, run_seconds: float = RUN_SECONDS) -> int:
    """Queue every chat mail due (a batch of seats per transaction, for at most ``run_seconds``); returns
    how many emails were queued."""
    now = now or timezone.now()
    started, queued = time.monotonic(), 0
    while True:
        with transaction.atomic():
            due = due_seats_claim(now=now)
            queued += sum(_send_one(c) for c in due)
        if len(due) < DUE_BATCH or time.monotonic() - started > run_seconds:
            return queued


def moderation_notice_queue(*, message: ChatMessage, kind: str, reason: str):
    """Tell a message's author that staff hid (or restored) it, and why."""
    author = message.author
    if author is None or not author.is_active or not author.email or author.email_verified_at is None:
        return None
    game = message.game
    shown = message.text if len(message.text) <= 200 else message.text[:200] + "..."
    if kind == "hide":
        title = "A message of yours was hidden"
        lines = [f"The site's staff hid your message in {game_title(game)} from everyone but you.",
                 f"Reason: {reason or 'not given'}.", f"Your message: {shown}"]
    else:
        title = "A message of yours is shown again"
        lines = [f"The site's staff restored your message in {game_title(game)}: everyone who could read it "
                 "sees it again.", f"Your message: {shown}"]
    context = {"title": title, "lines": lines, "site_url": settings.MAIL_BASE_URL, "game_title": game_title(game)}

    def render() -> Rendered:
        return Rendered(subject=f"{game_title(game)}: {title.lower()}",
                        text=render_to_string("email/moderation.txt", context).strip() + "\n",
                        html=render_to_string("email/moderation.html", context), reply_to=settings.DEFAULT_FROM_EMAIL)

    with transaction.atomic():
        count = message.moderation.count()  # each act its own mail: hide, restore, hide again
        return notification_queue(kind=NotificationKind.MODERATION, user_id=author.pk, game=game, address=author.email,
                                  dedupe_key=f"moderation:{message.pk}:{count}", render=render)
