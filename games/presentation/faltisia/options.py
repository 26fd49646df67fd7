"""Faltisia's options as lobby form fields: characters chosen or dealt, the Battle for London expansion, and the
Solo Mode difficulty.

Choices and bounds come from the engine (games/engines/faltisia/solo.py, FaltisiaEngine's player counts);
the engine's validate_options has the last word, and its messages are what the form shows.
"""

from __future__ import annotations

from typing import Any, Mapping

from django import forms

from games.engines.faltisia.solo import DEFAULT_DIFFICULTY, DIFFICULTY


def option_fields(engine) -> dict[str, forms.Field]:
    return {
        "choose_characters": forms.BooleanField(
            required=False, label="Players choose their characters (Faltisia)",
            help_text="Instead of dealing them at random."),
        "battle_for_london": forms.BooleanField(  # the engine's option {"expansion": "battle_for_london"}
            required=False, label="The Battle for London expansion (Faltisia, 2-6 seats)"),
        "solo_difficulty": forms.ChoiceField(
            required=False, label=f"Solo difficulty (Faltisia, {engine.solo_players} seat)", initial=DEFAULT_DIFFICULTY,
            choices=[(k, f"{k.capitalize()}: the Classmate starts with every attribute at {v}")
                     for k, v in DIFFICULTY.items()],
            help_text=f"With {engine.solo_players} seat you play Solo Mode against the Classmate, an automaton. "
                      "Solo games are unrated."),
    }


def game_options(engine, cleaned: Mapping[str, Any], *, seats: int) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if cleaned.get("choose_characters"):
        options["choose_characters"] = True
    if cleaned.get("battle_for_london"):
        options["expansion"] = "battle_for_london"
    if seats == engine.solo_players:
        options["solo"] = {"difficulty": cleaned.get("solo_difficulty") or DEFAULT_DIFFICULTY}
    return options
