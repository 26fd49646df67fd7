"""Writes for accounts."""

from datetime import datetime

from django.contrib.auth.password_validation import validate_password
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone as dj_timezone
from rest_framework.authtoken.models import Token

from .models import NotificationPreferences, User, Vacation
from .throttle import throttle_hit
from .new_usernames import username_clean
from .vacation_caps import vacation_check_yearly
from .verification import email_verification_send


@transaction.atomic
def user_create(*, username: str, email: str, password: str, timezone: str = "UTC",
                email_verified: bool = False) -> User:
    """Create an active user with default notification preferences and an API token.

    The username follows the one rule (accounts/usernames.py, NFKC-normalised) and is free in any case
    (accounts/new_usernames.py); ValidationError names the field at fault. The address counts as
    unconfirmed unless ``email_verified`` (set only by operators' tools and tests): no game mail goes to it until then.
    """
    try:
        username = username_clean(username)
    except ValidationError as e:
        raise ValidationError({"username": e.error_list})
    user = User(username=username, email=email, timezone=timezone,
                email_verified_at=dj_timezone.now() if email_verified and email else None)
    try:
        validate_password(password, user)
    except ValidationError as e:
        raise ValidationError({"password": e.error_list})
    user.set_password(password)
    user.save()
    NotificationPreferences.objects.create(user=user)
    Token.objects.create(user=user)
    return user


@transaction.atomic
def user_register(*, username: str, email: str, password: str, base_url: str, timezone: str = "UTC") -> User:
    """A sign-up by web or API: the user, and a mail with the link that confirms the address.

    The account may log in and play at once; game mail waits until the address is confirmed.
    """
    user = user_create(username=username, email=email, password=password, timezone=timezone)
    # Many sign-ups naming one address must not flood it: past the limit the account is still made, and
    # its owner asks for the link again (itself limited) from the account page.
    if throttle_hit(scope="signup-mail:email", key=email, limit=settings.MAIL_REQUESTS_PER_EMAIL,
                    window_seconds=settings.MAIL_REQUEST_WINDOW_SECONDS):
        email_verification_send(user=user, base_url=base_url)
    return user


def token_for_user(*, user: User) -> str:
    """Return the user's API token, creating it on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


@transaction.atomic
def vacation_create(*, user: User, starts: datetime, ends: datetime) -> Vacation:
    """Record an absence; deadlines that fall in it are extended by the games layer.

    VacationLimitError (a ValueError) if it breaks the yearly cap (accounts/vacation_caps.py).
    """
    if ends <= starts:
        raise ValueError("a vacation must end after it starts")
    User.objects.select_for_update().filter(pk=user.pk).first()  # two bookings at once cannot both pass
    vacation_check_yearly(user_id=user.pk, starts=starts, ends=ends)
    return Vacation.objects.create(user=user, starts=starts, ends=ends)
