"""What a game's presentation provides, and the generic behaviour every game gets until it draws its own.

A game's presentation package (``games/presentation/<slug>/__init__.py``) exposes ``presentation``, an
instance of a subclass of :class:`Presentation` that overrides what the game draws itself; anything it does
not override falls back to the generic behaviour here, which renders the engine's view as structured data.
An engine without a package at all is served entirely by ``Presentation()`` (the registry's fallback), so a
new engine is playable on the web and by mail the moment it is registered.

Every method reads only what it is given: the engine's ``view`` for one seat (already stripped of other
seats' secrets by the engine), the seats' public rows, an event's public data. So a presentation can never
show more than the engine let through.

Templates: a template named ``games/<slug>/<file>`` is the file ``<file>`` in the ``templates/`` folder of
that slug's package (games/presentation/loader.py); the generic ones are ``games/generic/<file>``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .generic.board import view_tree
from .generic.mail import Section, generic_situation
from .wording import fill_wording

if TYPE_CHECKING:
    from django import forms

    from games.engines.base import Engine

    from .glossary import Glossary


class Presentation:
    """The generic presentation; a game's package subclasses it and overrides what it draws itself."""

    # --- web: the board -----------------------------------------------------------------------------
    def board(self, *, view: dict[str, Any], seats: list[dict[str, Any]],
              prompt_options: list[dict[str, str]]) -> dict[str, Any]:
        """The board's template context for one viewer.

        Keys the shared page templates read (all optional except ``template``):
          ``template``              the board's template, drawn in the game page and the replay;
          ``option_cards``          option id -> {"card", "verb"}: picks drawn as a card in the decision box;
          ``option_card_template``  the template that draws such a card (context: ``card``);
          ``status_template``       pills for the status line over the board (round, phase...);
          ``result`` and ``result_template``  the final scores table, drawn when ``result`` is set (else the
                                    page shows the generic table of ``Game.result``);
          ``view``                  the view itself (the replay passes it on to the template);
          ``phone_focus``           the id of the board's element the viewer's current decision is about (Mage
                                    Knight's combat panel in a fight, the hand for a card to play, the map for a
                                    move): on a phone the page puts it right under the decision box, and the rest
                                    of the board can be folded with a tap
                                    (game.js, board_layout.css). None: no such part;
          ``phone_board_first``     without a focus too, the board before the players list on a phone.
        """
        return {"template": "games/generic/board.html", "tree": view_tree(view), "option_cards": {}, "view": view}

    # --- email ----------------------------------------------------------------------------------------
    def mail_sections(self, view: dict[str, Any], seat: int) -> list[Section]:
        """The seat's situation in a prompt email, as (title, lines) sections of plain text."""
        return generic_situation(view, seat)

    def score_label(self, category: str) -> str:
        """A score breakdown category in words for the game-over email ("attendance_award" -> the game's label);
        the generic one keeps the engine's key as is."""
        return category

    def where(self, view: dict[str, Any]) -> str:
        """A short "where are we" line for an email's heading and the daily digest."""
        return f"Step {view.get('step', '?')}"

    # --- the log --------------------------------------------------------------------------------------
    def step_label(self, data: Mapping[str, Any]) -> str:
        """A heading for one step of the history, from the public data of its first event.

        Generic convention: an engine that stamps ``phase`` (and ``term``) on its events' data gets
        "Term 3 · Lecture" or "Lecture"; others get no heading. (The event texts themselves are the
        engine's plain English; the grouping by ``data["round"]`` is the server's, games/web/selectors.py.)
        """
        phase, term = data.get("phase"), data.get("term")
        if not isinstance(phase, str) or not phase:
            return ""
        name = phase.replace("_", " ").capitalize()
        if isinstance(term, int) and not isinstance(term, bool) and term > 0:
            return f"Term {term} · {name}"
        return name

    def event_text(self, data: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
        """One event's text in plain English with the players' names; None keeps the engine's.

        ``names``: seat position -> its label ("alice", "Bot 2"). The generic one fills an event's
        ``data["wording"]`` (games/presentation/wording.py); a game overrides it to add what it knows (a
        character beside the name) or to word events of its own kinds.
        """
        return fill_wording(data, names)

    def opens_step(self, data: Mapping[str, Any]) -> bool:
        """Whether an event, from its public data, starts a history group of its own even inside a step (a
        turn that begins in the write that ended the turn before); the generic one groups by step only."""
        return False

    def step_labeller(self, seats: list[dict[str, Any]]) -> Callable[[Mapping[str, Any]], str]:
        """``step_label`` for one game's page, knowing its seats' public rows (so a heading can name a player,
        "Round 2 · Alice's turn"); the generic one ignores them."""
        return self.step_label

    # --- the glossary ---------------------------------------------------------------------------------
    def glossary(self) -> Glossary | None:
        """The game's terms (its package's ``glossary.toml``, games/presentation/glossary.py), explained where they
        appear on the game page and listed on the rules page; None for a game without one (and the generic)."""
        if type(self) is Presentation:
            return None
        from .glossary import glossary_in  # Django's html utilities; base.py is imported before apps load

        module = sys.modules[type(self).__module__]
        return glossary_in(str(Path(module.__file__).resolve().parent))

    # --- the rules page -------------------------------------------------------------------------------
    rules_template = "games/generic/rules.html"

    def rules_context(self, engine: Engine) -> dict[str, Any]:
        """Extra context for the rules page (it always gets ``engine``, ``players`` and ``standing_orders``)."""
        return {}

    # --- the lobby form -------------------------------------------------------------------------------
    def players_note(self, engine: Engine) -> str:
        """How many players the game takes, in words, from the engine's own bounds."""
        return f"{engine.min_players}-{engine.max_players} players"

    # Whether the engine takes any options at all: a game that takes none (Miskatonic) gets neither fields nor the
    # "Other options (JSON)" box. The generic fallback cannot know, so it offers the box.
    takes_options = True

    def seat_range(self, engine: Engine) -> tuple[int, int]:
        """The fewest and most seats the lobby offers for this game (the browser's bounds; the engine's
        ``validate_options`` still has the last word, with its own message)."""
        return engine.min_players, engine.max_players

    def option_fields(self, engine: Engine) -> dict[str, forms.Field]:
        """The game's options as form fields for the lobby's "Start a game" form.

        Field names must not clash with another game's (the lobby form holds every game's fields); a game
        that declares none gets the form's "Other options (JSON)" box instead.
        """
        return {}

    def game_options(self, engine: Engine, cleaned: Mapping[str, Any], *, seats: int) -> dict[str, Any]:
        """The engine's options from the cleaned values of this game's fields (and the seat count)."""
        return {}
