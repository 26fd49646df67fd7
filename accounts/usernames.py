"""The one rule for usernames, shared by web sign-up, API sign-up and the admin.

A username appears in URLs (/players/<name>/), page titles, email headers and the leaderboard, so it is
kept to a small safe alphabet: ASCII letters, digits and ``. _ -``, starting with a letter or digit,
2 to 30 characters. Input is NFKC-normalised first (full-width "ａｌｉｃｅ" becomes "alice"), and names are
unique regardless of case ("ALICE" is taken once "alice" exists; the database enforces it too).

Only the rule lives here, with no model: accounts/models.py imports it for the User field's validator (and
migration 0002 names ``UsernameValidator`` by this path). Whether a name is still free is asked of the User
table by accounts/new_usernames.py, above the models.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible

USERNAME_MIN_LENGTH = 2
USERNAME_MAX_LENGTH = 30
_ALLOWED = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
RULE = (f"{USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH} characters: letters a-z, digits and . _ - "
        "(starting with a letter or digit)")


def username_normalize(value: str) -> str:
    """NFKC, as Django's own AbstractBaseUser.normalize_username (compatibility forms fold together)."""
    return unicodedata.normalize("NFKC", value or "")


@deconstructible
class UsernameValidator:
    """Model-field validator: the safe alphabet and the length bounds (uniqueness is the database's)."""

    message = f"Usernames are {RULE}."
    code = "invalid_username"

    def __call__(self, value: str) -> None:
        if not USERNAME_MIN_LENGTH <= len(value) <= USERNAME_MAX_LENGTH:
            raise ValidationError(f"A username has {USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH} characters.",
                                  code="username_length")
        if not _ALLOWED.fullmatch(value):
            raise ValidationError(self.message, code=self.code)

    def __eq__(self, other) -> bool:
        return isinstance(other, UsernameValidator)


validate_username = UsernameValidator()

