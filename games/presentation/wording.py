"""Event texts in plain English with the players' names, for every surface that shows the history:
the game page and its "since your last visit", the replay, the emails, the API log's text.

An engine event may carry a ``wording`` in its data: its sentence with ``{key}`` where a seat is named, each
``key`` a data field holding a 0-based seat position or a list of them. The game's presentation
(``Presentation.event_text``) fills those in with the seats' labels ("alice", "Bot 2": 1-based, as people
count); an event without a wording (the server's own, or one stored before wordings existed) keeps the
engine's text. The API keeps the structured ``data`` with its 0-based positions untouched.

Text only, from what it is given: no model is read here, so base.py and every game's package may import
it before Django's apps are loaded. Reading a game's events and seats and choosing the game's presentation
is games/presentation/worded_events.py's, above the registry.
"""

from __future__ import annotations

from string import Formatter
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from games.models import Seat


def seat_label(*, position: int, username: str | None, is_bot: bool) -> str:
    """A seat as people know it: its player's name, "Bot 2" for a bot seat, "Seat 2" for a free one."""
    if username:
        return username
    return f"Bot {position + 1}" if is_bot else f"Seat {position + 1}"


def seat_in_words(seat: Seat, *, capital: bool = False) -> str:
    """"seat 2 (alice)" ("Seat 2 (alice)" to start a sentence): a seat as the server's own events name it,
    1-based with its player or "Bot 2"."""
    label = seat_label(position=seat.position, username=seat.user.username if seat.user_id else None,
                       is_bot=seat.is_bot)
    return f"{'Seat' if capital else 'seat'} {seat.position + 1} ({label})"


def join_names(names: list[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def fill_wording(data: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    """The event's ``wording`` with each ``{key}`` replaced by the name(s) of the seat(s) in ``data[key]``;
    None when the event has no wording or it names a seat we cannot name (then the engine's text stands)."""
    wording = data.get("wording")
    if not isinstance(wording, str):
        return None
    values: dict[str, str] = {}
    for _, key, _, _ in Formatter().parse(wording):
        if key is None:
            continue
        seats = data.get(key)
        seats = [seats] if isinstance(seats, int) and not isinstance(seats, bool) else seats
        if not isinstance(seats, list) or not all(isinstance(s, int) and s in names for s in seats):
            return None
        values[key] = join_names([names[s] for s in seats])
    try:
        text = wording.format(**values)
    except (KeyError, IndexError, ValueError):
        return None
    # A sentence opening with a name keeps the name as its player wrote it ("alice", not "Alice").
    return text if wording.startswith("{") else text[:1].upper() + text[1:]

