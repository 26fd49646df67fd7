"""Email verification: a single-use link that confirms the account's address; never a login.

Confirming is a fact of its own (``User.email_verified_at``), separate from ``is_active`` (the admin's
ban switch): opening a link never activates an account nor logs anyone in, so a deactivated account
stays deactivated whatever link it holds.

The token follows Django's password-reset tokens: an HMAC (keyed with SECRET_KEY) of the account's
current state (password hash, address, verification time, active flag) and a timestamp. It therefore
stops working once used (the verification time changes), after a password change, after an address
change, after a ban, and after EMAIL_VERIFICATION_MAX_AGE seconds.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import base36_to_int, int_to_base36

from .models import User

INVALID_LINK = ("This link is not valid any more: it was already used, it expired, or the account changed "
                "since it was sent. Ask for a new one below.")


class VerificationError(ValueError):
    """The link is broken, expired, already used, or for an account that changed since."""


class EmailVerificationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "accounts.verification.EmailVerificationTokenGenerator"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        return (f"{user.pk}|{user.password}|{user.email}|{user.email_verified_at}|{user.is_active}|"
                f"{timestamp}")

    def check_token(self, user: User, token: str) -> bool:
        """Django's check (PASSWORD_RESET_TIMEOUT included), then this link's own, usually shorter, age."""
        if not super().check_token(user, token):
            return False
        issued = base36_to_int(token.split("-")[0])
        return self._num_seconds(self._now()) - issued <= settings.EMAIL_VERIFICATION_MAX_AGE


token_generator = EmailVerificationTokenGenerator()


def email_verification_token(*, user: User) -> str:
    """``<user id>-<timestamp>-<hmac>``, all URL-safe."""
    return f"{int_to_base36(user.pk)}-{token_generator.make_token(user)}"


def email_verification_send(*, user: User, base_url: str) -> None:
    """Mail the verification link (through Django's email backend) once the transaction commits."""
    link = base_url.rstrip("/") + reverse("verify-email", args=[email_verification_token(user=user)])
    body = render_to_string("accounts/verify_email.txt", {"user": user, "link": link})
    transaction.on_commit(lambda: send_mail("Confirm your email address for Faltisia", body,
                                            settings.DEFAULT_FROM_EMAIL, [user.email]))


def _user_for(token: str) -> User | None:
    uid, _, rest = token.partition("-")
    try:
        pk = base36_to_int(uid)
    except ValueError:
        return None
    if not rest or pk > 2**63 - 1:
        return None
    return User.objects.select_for_update().filter(pk=pk).first()


@transaction.atomic
def email_verify(*, token: str) -> User:
    """Mark the account's address confirmed; VerificationError if the link is not valid (any more).

    A deactivated account is refused and left as it is.
    """
    user = _user_for(token)
    if user is None or not user.is_active or not user.email:
        raise VerificationError(INVALID_LINK)
    if not token_generator.check_token(user, token.partition("-")[2]):
        raise VerificationError(INVALID_LINK)
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email_verified_at"])
    return user


def verification_resend(*, email: str, base_url: str) -> None:
    """Send a new link to the active accounts with this address that still wait for one.

    Nothing is said about whether any exists: deactivated accounts, confirmed ones and unknown
    addresses get no mail, and the caller shows the same page in every case.
    """
    waiting = User.objects.filter(email__iexact=email, is_active=True, email_verified_at__isnull=True)
    for user in waiting.order_by("pk")[:3]:
        email_verification_send(user=user, base_url=base_url)
