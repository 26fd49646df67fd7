"""Mage Knight's options as lobby form fields: a hero per seat (or dealt in seat order) and the elite units.

Choices come from the engine (games/engines/mage_knight/setup.py HEROES, HERO_ORDER); the engine's validate_options
has the last word ("each seat needs a different hero"), and its message is what the form shows.
"""

from __future__ import annotations

from typing import Any, Mapping

from django import forms

SEAT_FIELDS = tuple(f"mk_hero_{n}" for n in range(1, 5))  # Mage Knight seats 1-4


def _heroes() -> tuple[dict[str, dict[str, Any]], tuple[str, ...]]:
    from games.engines.mage_knight.setup import HERO_ORDER, HEROES  # read when the lobby asks, not at import
    return HEROES, HERO_ORDER


def option_fields(engine) -> dict[str, forms.Field]:
    heroes, order = _heroes()
    choices = [("", "Dealt in seat order")] + [(h, heroes[h]["name"]) for h in order]
    fields: dict[str, forms.Field] = {
        name: forms.ChoiceField(required=False, choices=choices, label=f"Hero of seat {n} (Mage Knight)")
        for n, name in enumerate(SEAT_FIELDS, start=1)}
    fields["mk_elite_units"] = forms.BooleanField(
        required=False, label="Elite units in the unit offer (Mage Knight)",
        help_text="First Reconnaissance leaves them out; the Dummy Player takes a hero nobody chose.")
    return fields


def game_options(engine, cleaned: Mapping[str, Any], *, seats: int) -> dict[str, Any]:
    """{"heroes": [...]} when any seat's hero was chosen (the others get the first free ones in seat order),
    {"elite_units": True} when ticked; nothing else, so the engine's defaults stand."""
    _, order = _heroes()
    options: dict[str, Any] = {}
    chosen = [cleaned.get(name) or None for name in SEAT_FIELDS[:seats]]
    if any(chosen):
        free = [h for h in order if h not in chosen]
        options["heroes"] = [h if h else (free.pop(0) if free else "") for h in chosen]
    if cleaned.get("mk_elite_units"):
        options["elite_units"] = True
    return options
