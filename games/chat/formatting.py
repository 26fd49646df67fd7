"""A message as HTML: escaped as typed, its web links clickable, mentions of seats marked.

The text is never trusted: every piece of it is escaped; a link is made only of an http(s) address, its
``href`` escaped too, and opened with ``rel="nofollow ugc noopener"`` (a spammer's link earns no search rank, and
the opened page cannot reach this one). Mentions are ``@name``
of a player at the table and ``seat N`` (1-based, as the pages number seats). Used by the page and by the
HTML of chat mail alike; the plain-text mail shows the text as typed.
"""

from __future__ import annotations

import re
from typing import Mapping

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_TOKEN = re.compile(r"(?P<url>https?://[^\s<>\"'`]+)|(?P<at>@[\w-]+(?:[.][\w-]+)*)|(?P<seat>\b[Ss]eat\s+(?P<n>[0-9]{1,2})\b)")
_TRAILING = ".,;:!?)]}'\""  # punctuation that ends a sentence rather than a link


def _plain(text: str) -> str:
    return escape(text).replace("\n", "<br>\n")


def chat_html(text: str, *, names: Mapping[str, int], players: int, me: int | None = None) -> SafeString:
    """``text`` as safe HTML. ``names``: {lower-case username: seat position} of the table's players (what
    an @mention may name); ``players``: the seat count; ``me``: the reader's position (their mentions stand
    out)."""
    out, at = [], 0
    for m in _TOKEN.finditer(text):
        out.append(_plain(text[at:m.start()]))
        token, tail = m.group(), ""
        if m.group("url"):
            while token and token[-1] in _TRAILING:
                token, tail = token[:-1], token[-1] + tail
            out.append(f'<a href="{escape(token)}" rel="nofollow ugc noopener" target="_blank">{escape(token)}</a>')
        else:
            position = names.get(token[1:].lower()) if m.group("at") else _seat_position(m.group("n"), players)
            if position is None:
                out.append(_plain(token))
            else:
                mine = " mention-me" if position == me else ""
                out.append(f'<mark class="mention{mine}" data-seat="{position}">{escape(token)}</mark>')
        out.append(_plain(tail))
        at = m.end()
    out.append(_plain(text[at:]))
    return mark_safe("".join(out))


def _seat_position(number: str, players: int) -> int | None:
    n = int(number)
    return n - 1 if 1 <= n <= players else None
