"""Board presenters: turn an engine's view (already redacted for the viewer) into what a template draws.

One module per game that has a drawn board; any other game gets the generic structured-data page.
A presenter only reads the view it is given, so it can never show more than the engine let through.
"""

from __future__ import annotations

from typing import Any

from . import faltisia, generic

PRESENTERS = {"faltisia": faltisia}


def board_context(*, engine: str, view: dict[str, Any], seats: list[dict[str, Any]],
                  prompt_options: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The board template and its context for the game's view."""
    presenter = PRESENTERS.get(engine, generic)
    return presenter.board(view=view, seats=seats, prompt_options=prompt_options or [])
