"""Signed links in emails: one-click picks (expire, work once) and unsubscribe (RFC 8058 one-click).

A pick link carries the prompt row, the option, a random nonce and the generation of the seat's
mailbox it was issued under, signed with SECRET_KEY and a timestamp. The signature proves we issued
it; the timestamp makes it expire; UsedLink's unique nonce makes it work once; the generation makes
it die when the seat changes hands (tokens.mailbox_rotate). Nothing happens on GET (mail scanners
prefetch links): the page asks for a POST.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

PICK_SALT = "games.mail.pick"
UNSUBSCRIBE_SALT = "games.mail.unsubscribe"


class LinkError(Exception):
    """A link that is forged, expired or malformed; ``detail`` is shown to the player."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class PickLink:
    prompt_pk: int
    option_id: str
    nonce: str
    generation: int  # of the seat's mailbox when the link was issued (links from before it existed: 0)


def absolute(path: str) -> str:
    return settings.MAIL_BASE_URL.rstrip("/") + path


def pick_link_token(*, prompt_pk: int, option_id: str, generation: int) -> str:
    return signing.dumps({"p": prompt_pk, "o": option_id, "n": secrets.token_urlsafe(12), "g": generation},
                         salt=PICK_SALT, compress=True)


def pick_link_url(*, prompt_pk: int, option_id: str, generation: int) -> str:
    token = pick_link_token(prompt_pk=prompt_pk, option_id=option_id, generation=generation)
    return absolute(reverse("mail-pick", args=[token]))


def pick_link_read(token: str) -> PickLink:
    """Check signature and age; raise LinkError saying which check failed."""
    try:
        data = signing.loads(token, salt=PICK_SALT, max_age=settings.MAIL_LINK_MAX_AGE_SECONDS)
    except signing.SignatureExpired:
        raise LinkError("expired", "This link has expired. Reply to the email, or use a newer one.") from None
    except signing.BadSignature:
        raise LinkError("forged", "This link is not valid (it was altered or not issued by us).") from None
    try:
        return PickLink(int(data["p"]), str(data["o"]), str(data["n"]), int(data.get("g", 0)))
    except (KeyError, TypeError, ValueError):
        raise LinkError("forged", "This link is not valid.") from None


def unsubscribe_token(*, user_id: int) -> str:
    return signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(*, user_id: int) -> str:
    return absolute(reverse("mail-unsubscribe", args=[unsubscribe_token(user_id=user_id)]))


def unsubscribe_read(token: str) -> int:
    try:
        return int(signing.loads(token, salt=UNSUBSCRIBE_SALT)["u"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise LinkError("forged", "This unsubscribe link is not valid.") from None
