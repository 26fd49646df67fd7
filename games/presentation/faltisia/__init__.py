"""Faltisia's presentation: board, mail situation, log headings, rules page and lobby options, in one place.

    board.py       the drawn board (class schedule, registration boards, store, hand, notebook, Classmate)
    london.py      the Battle for London: Peacekeeping board, Paladins, awards and checkpoints (page and email)
    mail.py        the situation in a prompt email, and the "round, term, phase" line
    events.py      the history's event texts with the players' names and characters
    options.py     the lobby's option fields (characters chosen or dealt, Solo Mode difficulty)
    templates/     board.html, _london.html, _london_mat.html, card.html, card_back.html, cards_row.html,
                   status.html, result.html, rules.html
                   (named games/faltisia/<file>)
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Presentation
from . import board, events, mail, options

# Headings of the history's steps, from the phase stamped on the engine's events.
PHASE_LABELS = {"registration": "Registration", "exams": "Exams", "over": "Game over", "characters": "Characters",
                "setup": "Setup", "lecture": "Lecture", "action": "Action",
                "route": "Peacekeeping route", "bigben": "Big Ben"}


class FaltisiaPresentation(Presentation):
    rules_template = "games/faltisia/rules.html"

    def board(self, *, view, seats, prompt_options):
        return board.board(view=view, seats=seats, prompt_options=prompt_options)

    def mail_sections(self, view, seat):
        return mail.faltisia_situation(view, seat)

    def where(self, view):
        return mail.where_in_game(view)

    def step_label(self, data: Mapping[str, Any]) -> str:
        phase, term = data.get("phase"), data.get("term")
        name = PHASE_LABELS.get(phase, "")
        if isinstance(term, int) and term > 0 and phase in ("lecture", "action"):
            return f"Term {term} · {name}"
        return name

    def score_label(self, category: str) -> str:
        return board.CATEGORY_LABELS.get(category, category.replace("_", " ").capitalize())

    def event_text(self, data, names):
        return events.event_text(data, names)

    def players_note(self, engine) -> str:
        return (f"{engine.min_players}-{engine.max_players} players, or {engine.solo_players} "
                "for Solo Mode against the Classmate")

    def seat_range(self, engine):
        return engine.solo_players, engine.max_players  # 1 seat is Solo Mode against the Classmate

    def option_fields(self, engine):
        return options.option_fields(engine)

    def game_options(self, engine, cleaned, *, seats):
        return options.game_options(engine, cleaned, seats=seats)


presentation = FaltisiaPresentation()
