"""Writes for accounts."""

from datetime import datetime

from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from rest_framework.authtoken.models import Token

from .models import NotificationPreferences, User, Vacation


@transaction.atomic
def user_create(*, username: str, email: str, password: str, timezone: str = "UTC") -> User:
    """Create a user with default notification preferences and an API token."""
    user = User(username=username, email=email, timezone=timezone)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    NotificationPreferences.objects.create(user=user)
    Token.objects.create(user=user)
    return user


def token_for_user(*, user: User) -> str:
    """Return the user's API token, creating it on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def vacation_create(*, user: User, starts: datetime, ends: datetime) -> Vacation:
    """Record an absence; deadlines that fall in it are extended by the games layer."""
    if ends <= starts:
        raise ValueError("a vacation must end after it starts")
    return Vacation.objects.create(user=user, starts=starts, ends=ends)
