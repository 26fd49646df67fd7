"""A game's events worded for people: each copy's text is its presentation's wording with the seats' labels,
for every surface that shows the history: the game page, the replay, the emails, the API.

Above the registry (it picks the game's presentation) and the models (it reads the seats' labels); the
text itself is filled by the presentation, from games/presentation/wording.py.
"""

from __future__ import annotations

import copy
from typing import Iterable, Mapping

from games.models import Event, Seat

from .registry import presentation_for
from .wording import seat_label


def seat_labels_for_game(game_id: int) -> dict[int, str]:
    """Each seat's label (position -> label), in one query."""
    rows = Seat.objects.filter(game_id=game_id).values_list("position", "user__username", "is_bot")
    return {pos: seat_label(position=pos, username=name, is_bot=bot) for pos, name, bot in rows}


def worded_events(events: Iterable[Event], *, engine: str, labels: Mapping[int, str]) -> list[Event]:
    """Copies of ``events`` whose ``text`` is the game's plain-English wording with the players' names.

    Copies, never saved: the stored text stays the engine's (the admin and the audit read it).
    """
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
