"""Each game's presentation in one place: ``games/presentation/<slug>/``.

A game is two folders: its rules in ``games/engines/<slug>/`` (no Django) and its presentation here: board
presenter and templates, mail situation renderer, step headings for the log, rules page, and the lobby's
option fields. ``registry.presentation_for(slug)`` finds the package (or the generic fallback, base.py);
docs/games.md says what a package must provide.
"""
