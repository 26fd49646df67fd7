"""Miskatonic School for Girls' presentation: board, mail situation, log headings and rules page, in one place.

    board.py       the drawn board (House Boards with the Sanity track, the School Store, your hand, the Class)
    mail.py        the situation in a prompt email, and the "round, whose turn, which step" line
    history.py     the history's step headings ("Round 2 · Alice's turn")
    templates/     board.html, card.html, status.html, result.html, rules.html (named games/miskatonic/<file>)

The engine has no options (games/engines/miskatonic/setup.py refuses any), so the lobby declares no fields.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Presentation
from . import board, history, mail


class MiskatonicPresentation(Presentation):
    rules_template = "games/miskatonic/rules.html"
    takes_options = False  # the engine refuses any option (games/engines/miskatonic/setup.py)

    def board(self, *, view, seats, prompt_options):
        return board.board(view=view, seats=seats, prompt_options=prompt_options)

    def mail_sections(self, view, seat):
        return mail.situation(view, seat)

    def where(self, view):
        return mail.where_in_game(view)

    def step_label(self, data: Mapping[str, Any]) -> str:
        return history.step_label(data)

    def step_labeller(self, seats):
        return history.labeller(seats)

    def rules_context(self, engine):
        return board.rules_context()


presentation = MiskatonicPresentation()
