"""The chat mail's batches: which seats owe a mail of new messages, which messages it carries.

A message starts the batch window of each seat it is for (services._mail_owed: ``SeatChat.mail_due_at``,
CHAT_MAIL_BATCH_SECONDS after the first message not yet read or mailed). When the window has passed, the
mail layer's beat task claims the seat (``due_seats_claim``), mails ``unmailed_messages`` in one email and
records it (``batch_mailed``); a seat whose messages were all read on the page meanwhile gets nothing
(``batch_settled``). A prompt email that goes sooner carries them instead, and records the same.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest

from games.models import Seat

from .models import ChatMessage, SeatChat
from .selectors import Reader, messages_for

DUE_BATCH = 200  # seats claimed per run: the run's memory and time are bounded by it


def due_seats_claim(*, now: datetime, limit: int = DUE_BATCH) -> list[SeatChat]:
    """Seats whose chat mail is due, locked for the caller's transaction (skipping rows another run holds),
    oldest due first, through the partial index chat_seat_mail_due."""
    assert transaction.get_connection().in_atomic_block, "claim inside the sending transaction"
    return list(SeatChat.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(mail_due_at__isnull=False, mail_due_at__lte=now)
                .select_related("seat__game", "seat__user").order_by("mail_due_at")[:limit])


def unmailed_messages(*, seat: Seat, chat: SeatChat | None = None) -> list[ChatMessage]:
    """The messages for this seat's player that they have neither seen nor been mailed, oldest first (their
    own seat's left out); [] for a seat with no player."""
    if seat.user_id is None:
        return []
    chat = chat or SeatChat.objects.filter(seat=seat).first()
    after = max(chat.read_id, chat.mailed_id) if chat is not None else 0
    reader = Reader(game=seat.game, user=seat.user, seat=seat)
    return [m for m in messages_for(reader=reader, since=after) if m.seat_id != seat.pk and m.hidden_at is None]


def batch_mailed(*, seat: Seat, up_to: int) -> None:
    """A mail carried the seat's messages up to ``up_to``: they are not mailed again, and the next batch
    window starts with the next new message."""
    SeatChat.objects.filter(seat=seat).filter(Q(mailed_id__lt=up_to) | Q(mail_due_at__isnull=False)).update(
        mailed_id=Greatest(F("mailed_id"), up_to), mail_due_at=None)


def batch_settled(*, seat: Seat) -> None:
    """Nothing to mail the seat (all read, or no mail wanted): close its window."""
    SeatChat.objects.filter(seat=seat, mail_due_at__isnull=False).update(mail_due_at=None)
