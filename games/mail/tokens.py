"""Per-seat reply tokens and reply addresses: ``<local>+<token>.<prompt ref>@<EMAIL_DOMAIN>``.

The token is the authority for a reply (the From header is easy to forge). It is derived from
SECRET_KEY and the mailbox's random nonce, so it can be printed in every email while the database
keeps only its SHA-256. Lower-case base32 survives MTAs that fold the local part's case.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from games.models import Seat

from .models import RetiredReplyToken, SeatMailbox

TOKEN_LENGTH = 24  # 120 bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.lower().encode()).hexdigest()


def _derive(nonce: str, seat_id: int) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), f"mail-seat-token:{seat_id}:{nonce}".encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode().lower()[:TOKEN_LENGTH]


def mailbox_for_seat(*, seat: Seat) -> SeatMailbox:
    """The seat's mailbox, created on first use (also fills Seat.email_token_hash for other layers)."""
    box = SeatMailbox.objects.filter(seat=seat).first()
    if box is not None:
        return box
    nonce = secrets.token_hex(16)
    digest = token_hash(_derive(nonce, seat.pk))
    try:
        with transaction.atomic():
            box = SeatMailbox.objects.create(seat=seat, nonce=nonce, token_hash=digest)
    except IntegrityError:  # created concurrently: use the winner's
        return SeatMailbox.objects.get(seat=seat)
    Seat.objects.filter(pk=seat.pk).update(email_token_hash=digest)
    return box


def mailboxes_for_seats(seat_ids) -> dict[int, SeatMailbox]:
    """The mailboxes of these seats, seat id -> mailbox, those missing created (as mailbox_for_seat, in
    bulk): two queries for a batch that has them all, four when some are new (the reminders task)."""
    seat_ids = sorted(set(seat_ids))
    boxes = {b.seat_id: b for b in SeatMailbox.objects.filter(seat_id__in=seat_ids)}
    missing = [pk for pk in seat_ids if pk not in boxes]
    if missing:
        new = {}
        for pk in missing:
            nonce = secrets.token_hex(16)
            new[pk] = SeatMailbox(seat_id=pk, nonce=nonce, token_hash=token_hash(_derive(nonce, pk)))
        with transaction.atomic():  # created concurrently by another worker: that one's row wins
            SeatMailbox.objects.bulk_create(new.values(), ignore_conflicts=True)
        boxes.update({b.seat_id: b for b in SeatMailbox.objects.filter(seat_id__in=missing)})
        ours = [Seat(pk=pk, email_token_hash=box.token_hash) for pk, box in new.items()
                if boxes.get(pk) is not None and boxes[pk].token_hash == box.token_hash]
        Seat.objects.bulk_update(ours, ["email_token_hash"])
    return boxes


def mailbox_rotate(*, seat_id: int, previous_user_id: int | None, reason: str) -> SeatMailbox | None:
    """The seat changed hands: retire its reply token and every one-click link issued for it.

    Runs inside the transaction that changed the seat. The old token's hash is kept (RetiredReplyToken)
    so a reply to it is answered "this address no longer belongs to you" and changes nothing; the
    generation goes up, which voids every outstanding link (links carry the generation they were issued
    under). What was still unsent to the old holder is withdrawn beside it (unsent.seat_deliveries_withdraw).
    A seat that never had a mailbox has nothing to revoke.
    """
    box = SeatMailbox.objects.select_for_update().filter(seat_id=seat_id).first()
    if box is None:
        return None
    RetiredReplyToken.objects.create(mailbox=box, token_hash=box.token_hash, user_id=previous_user_id,
                                     reason=reason)
    box.nonce = secrets.token_hex(16)
    box.token_hash = token_hash(_derive(box.nonce, seat_id))
    box.generation += 1
    box.save(update_fields=["nonce", "token_hash", "generation"])
    Seat.objects.filter(pk=seat_id).update(email_token_hash=box.token_hash)
    return box


def holder_generation_suffix(seat: Seat) -> str:
    """":g<n>" after the seat's mailbox was rotated n times (it changed hands), "" before: a dedupe key with it
    is a new one for each holder of the seat."""
    try:
        generation = seat.mailbox.generation
    except SeatMailbox.DoesNotExist:
        generation = 0
    return f":g{generation}" if generation else ""


def retired_token(token: str) -> RetiredReplyToken | None:
    """The retired token ``token`` was, if it was one of ours (with the seat and its holder then)."""
    if not token or len(token) != TOKEN_LENGTH:
        return None
    return (RetiredReplyToken.objects.select_related("mailbox__seat__game", "user")
            .filter(token_hash=token_hash(token)).first())


def seat_token(*, seat: Seat, mailbox: SeatMailbox | None = None) -> str:
    box = mailbox or mailbox_for_seat(seat=seat)
    return _derive(box.nonce, seat.pk)


def mailbox_for_token(token: str) -> SeatMailbox | None:
    if not token or len(token) != TOKEN_LENGTH:
        return None
    box = SeatMailbox.objects.select_related("seat", "seat__game", "seat__user").filter(
        token_hash=token_hash(token)).first()
    # The hash lookup already proves the token; compare again in constant time for good measure.
    if box is None or not hmac.compare_digest(box.token_hash, token_hash(token)):
        return None
    return box


def reply_address(*, seat: Seat, prompt_pk: int | None = None, mailbox: SeatMailbox | None = None) -> str:
    """The seat's reply address (``mailbox``: the seat's, read already, e.g. by mailboxes_for_seats)."""
    ref = f".{prompt_pk}" if prompt_pk else ""
    return f"{settings.EMAIL_REPLY_LOCAL}+{seat_token(seat=seat, mailbox=mailbox)}{ref}@{settings.EMAIL_DOMAIN}"


@dataclass(frozen=True)
class ReplyTarget:
    token: str
    prompt_pk: int | None


def _address_re() -> re.Pattern:
    local = re.escape(settings.EMAIL_REPLY_LOCAL)
    domain = re.escape(settings.EMAIL_DOMAIN)
    return re.compile(rf"(?<![\w.+-]){local}\+([a-z2-7]{{{TOKEN_LENGTH}}})(?:\.([0-9]{{1,18}}))?@{domain}(?![\w-])",
                      re.IGNORECASE)


def reply_targets(text: str) -> list[ReplyTarget]:
    """Every reply address of ours found in ``text`` (an envelope recipient or address headers)."""
    return [ReplyTarget(m.group(1).lower(), int(m.group(2)) if m.group(2) else None)
            for m in _address_re().finditer(text or "")]
