"""Mage Knight (First Reconnaissance): how people see it, in one place.

    hexgeom.py     pointy-top axial hex geometry (centres, corners, the viewBox)
    labels.py      words and colours: terrains, sites, enemy and mana colours, seats, tactics, scoring
    hexwords.py    a map hex in words (terrain and cost, site, tokens, heroes), shared by the mail and the map
    mapview.py     the SVG map's drawing instructions and the hexes a move or explore pick makes clickable
    board.py       the drawn board: map, hero areas, hand, source, offers, tactics, turn totals, combat, result
    mail.py        the situation in a prompt email (short in a decision mail, whole in the "status" answer), and
                   the "round, day or night, whose turn" line
    history.py     the history's step headings ("Round 2 · alice's turn")
    options.py     the lobby's fields: a hero per seat, elite units
    templates/     board.html, map.html, card.html, status.html, result.html, rules.html (games/mage_knight/<file>)

Everything is drawn from the engine's view (games/engines/mage_knight/view.py), which already hides other hands,
deck orders, face-down enemies' and ruins tokens' identities and the tile deck.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Presentation
from . import board, history, labels, mail, options


class MageKnightPresentation(Presentation):
    rules_template = "games/mage_knight/rules.html"

    def board(self, *, view, seats, prompt_options):
        return board.board(view=view, seats=seats, prompt_options=prompt_options)

    def mail_sections(self, view, seat):
        return mail.situation(view, seat)

    def mail_sections_short(self, view, seat):
        """The decision mail's situation in fewer lines, to be read at a glance; the "status" answer keeps
        mail_sections."""
        return mail.short_situation(view, seat)

    def where(self, view):
        return mail.where_in_game(view)

    def score_label(self, category: str) -> str:
        return labels.score_label(category)

    def step_label(self, data: Mapping[str, Any]) -> str:
        return history.step_label(data)

    def step_labeller(self, seats):
        return history.labeller(seats)

    def opens_step(self, data: Mapping[str, Any]) -> bool:
        return history.opens_step(data)

    def players_note(self, engine) -> str:
        lo, hi = engine.min_players, engine.max_players
        if lo == 1:
            return f"1-{hi} players (1: solo, against the Dummy Player)"
        return f"{lo}-{hi} players"

    def option_fields(self, engine):
        return options.option_fields(engine)

    def game_options(self, engine, cleaned, *, seats):
        return options.game_options(engine, cleaned, seats=seats)

    def rules_context(self, engine):
        return {"terrains": [{"name": n, "fill": f, "day": d, "night": ni}
                             for n, f, d, ni in labels.TERRAINS.values() if n != "City"]}


presentation = MageKnightPresentation()
