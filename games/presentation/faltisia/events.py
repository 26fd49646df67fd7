"""Faltisia's event texts with the players' names and characters: "alice (Kaede) and Bot 3 (Nicole)
attended the yellow lecture: +1 Beauty."

The engine (games/engines/faltisia/flow.py ``_ev``) stamps each event that names seats with a ``wording``
and the seats' ``characters`` (public once chosen); an event stored before that keeps its own text.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..wording import fill_wording


def names_with_characters(data: Mapping[str, Any], names: Mapping[int, str]) -> dict[int, str]:
    """"alice (Kaede)" for a seat whose character the event names, else just "alice"."""
    chars = data.get("characters")
    chars = chars if isinstance(chars, list) else []
    out = {}
    for seat, name in names.items():
        char = chars[seat] if 0 <= seat < len(chars) else None
        out[seat] = f"{name} ({char})" if isinstance(char, str) and char else name
    return out


def event_text(data: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    return fill_wording(data, names_with_characters(data, names))
