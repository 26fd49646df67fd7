"""Email verification for web sign-ups: a signed, expiring link; the account is active once it is opened.

A web sign-up creates an inactive user (Django's ModelBackend refuses inactive users, so nobody can log
in with an address they do not own). The token is signed with SECRET_KEY and names the user and the
address, so a link stops working if the address changes; opening it twice is harmless.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from .models import User

SALT = "accounts.verify-email"


class VerificationError(ValueError):
    """The link is broken, expired, or for an address the account no longer has."""


def email_verification_token(*, user: User) -> str:
    return signing.dumps({"u": user.pk, "e": user.email}, salt=SALT, compress=True)


def email_verification_send(*, user: User, base_url: str) -> None:
    """Mail the verification link (through Django's email backend) once the transaction commits."""
    link = base_url.rstrip("/") + reverse("verify-email", args=[email_verification_token(user=user)])
    body = render_to_string("accounts/verify_email.txt", {"user": user, "link": link})
    transaction.on_commit(lambda: send_mail("Confirm your email address for Faltisia", body,
                                            settings.DEFAULT_FROM_EMAIL, [user.email]))


@transaction.atomic
def email_verify(*, token: str) -> User:
    """Activate the account named by a verification token; VerificationError if it is not valid."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_VERIFICATION_MAX_AGE)
    except signing.SignatureExpired:
        raise VerificationError("This link has expired. Ask for a new one below.")
    except signing.BadSignature:
        raise VerificationError("This link is not valid. Check that you copied all of it.")
    user = User.objects.select_for_update().filter(pk=data.get("u")).first()
    if user is None or user.email != data.get("e"):
        raise VerificationError("This link is for an address this account no longer uses.")
    if not user.is_active:
        user.is_active = True
        user.save(update_fields=["is_active"])
    return user
