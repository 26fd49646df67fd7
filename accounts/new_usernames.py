"""A username offered for a new account (web sign-up, API sign-up, accounts.services.user_create).

It is normalised and held to the one rule (accounts/usernames.py), then looked up in the User table so a
name taken in any case is refused with a clear message before the database's constraint would be.
A module of its own because it reads the models, which themselves import the rule.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from .models import User
from .usernames import username_normalize, validate_username


def username_clean(value: str) -> str:
    """The normalised username if it follows the rule and is free (any case); ValidationError otherwise."""
    username = username_normalize(value)
    validate_username(username)
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError("That username is taken.", code="username_taken")
    return username
