"""The fallback mail situation: one short line per key of the seat's view."""

from __future__ import annotations

import json
from typing import Any

Section = tuple[str, list[str]]  # (title, lines)

MAX_LINE = 300


def short(value: Any) -> str:
    """A value as one line of text, cut at MAX_LINE characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= MAX_LINE else text[:MAX_LINE - 3] + "..."


def generic_situation(view: dict[str, Any], seat: int) -> list[Section]:
    """Any engine: one line per key of the view."""
    return [("Your view of the game", [f"{key}: {short(value)}" for key, value in view.items()])]
