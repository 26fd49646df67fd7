"""tinygame's presentation package (tests/fake_engine.py), kept under tests/ to prove that a game
is its engine, its own presentation package and one registry line (``registry.register("tinygame", ...)``
here, as it lives outside games/presentation/). Nothing in games/ or templates/ knows this game.
"""

from __future__ import annotations

from django import forms

from games.presentation.base import Presentation
from tests.fake_engine import HAND_SIZE


class TinyPresentation(Presentation):
    rules_template = "games/tinygame/rules.html"

    def board(self, *, view, seats, prompt_options):
        return {"template": "games/tinygame/board.html", "view": view, "option_cards": {},
                "scores": list(enumerate(view["scores"])), "hand": view.get("hand") or []}

    def mail_sections(self, view, seat):
        return [("Your tiny hand", [", ".join(f"card {c}" for c in view.get("hand") or []) or "(empty)"]),
                ("Tiny scores", [f"Seat {s}: {n}" for s, n in enumerate(view["scores"])])]

    def where(self, view):
        return f"Tiny step {view['step']} ({view['kind'] or 'over'})"

    def step_label(self, data):
        return f"Tiny step {data['step']}" if "step" in data else ""

    def option_fields(self, engine):
        # The engine's own bound: as many rounds as cards in hand.
        return {"tiny_rounds": forms.TypedChoiceField(label="Rounds (Tiny Game)", coerce=int, initial=2,
                                                      choices=[(n, str(n)) for n in range(1, HAND_SIZE + 1)])}

    def game_options(self, engine, cleaned, *, seats):
        return {"rounds": cleaned["tiny_rounds"]} if cleaned.get("tiny_rounds") else {}


presentation = TinyPresentation()
