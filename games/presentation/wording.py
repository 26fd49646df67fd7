"""Event texts in plain English with the players' names, for every surface that shows the history
(issue 11 item 1): the game page and its "since your last visit", the replay, the emails, the API log's text.

An engine event may carry a ``wording`` in its data: its sentence with ``{key}`` where a seat is named, each
``key`` a data field holding a 0-based seat position or a list of them. The game's presentation
(``Presentation.event_text``) fills those in with the seats' labels ("alice", "Bot 2": 1-based, as people
count); an event without a wording (the server's own, or one stored before wordings existed) keeps the
engine's text. The API keeps the structured ``data`` with its 0-based positions untouched.
"""

from __future__ import annotations

import copy
from string import Formatter
from typing import Any, Iterable, Mapping

from games.models import Event, Seat


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


def seat_labels_for_game(game_id: int) -> dict[int, str]:
    """Each seat's label (position -> label), in one query."""
    rows = Seat.objects.filter(game_id=game_id).values_list("position", "user__username", "is_bot")
    return {pos: seat_label(position=pos, username=name, is_bot=bot) for pos, name, bot in rows}


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


def worded_events(events: Iterable[Event], *, engine: str, labels: Mapping[int, str]) -> list[Event]:
    """Copies of ``events`` whose ``text`` is the game's plain-English wording with the players' names.

    Copies, never saved: the stored text stays the engine's (the admin and the audit read it).
    """
    from games.presentation.registry import presentation_for  # the registry imports the packages

    presentation = presentation_for(engine)
    out = []
    for event in events:
        data = event.data if isinstance(event.data, dict) else {}
        text = presentation.event_text(data, labels)
        if text is not None and text != event.text:
            event = copy.copy(event)
            event.text = text
        out.append(event)
    return out


def worded_events_for_game(events: Iterable[Event], *, game) -> list[Event]:
    """``worded_events`` for one game, its seats' labels read here."""
    return worded_events(events, engine=game.engine, labels=seat_labels_for_game(game.pk))
