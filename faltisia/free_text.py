"""The rule for every free text a person types and the server stores: a message, a note, a reason, a name.

Refused, not stripped, so a text is always shown exactly as typed: NUL and the other C0 and C1 control
characters but tab and line breaks (PostgreSQL refuses NUL in text; the others hide in a page or a mail), and
the bidirectional embeddings, overrides and isolates U+202A-U+202E, U+2066-U+2069, which can make a text (or a
link in it) read as something else than what it says. Each field keeps its own length limit.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def forbidden_character(text: str) -> str | None:
    """Why ``text`` may not be stored (its first forbidden character, named), or None."""
    bad = _FORBIDDEN.search(text)
    if bad is None:
        return None
    return (f"the character U+{ord(bad.group()):04X} is not allowed (control characters and bidirectional "
            "overrides are refused; tabs and line breaks are fine)")


def validate_free_text(value: str) -> None:
    """A validator for forms, serializers and model fields (Django's and DRF's both call it)."""
    problem = forbidden_character(value or "")
    if problem is not None:
        raise ValidationError(problem, code="bad_characters")
