"""Forms of the lobby pages. They check input; game_create and friends enforce the rules."""

from __future__ import annotations

import json

from django import forms

from games.engines.faltisia.solo import DEFAULT_DIFFICULTY, DIFFICULTY
from games.engines.registry import get_engine, slugs

HOUR = 3600
# Clock presets: a player picks one in plain words instead of writing the clock's JSON.
CLOCKS = {
    "fixed-12h": ("12 hours per decision", {"type": "fixed", "step_seconds": 12 * HOUR}),
    "fixed-24h": ("1 day per decision", {"type": "fixed", "step_seconds": 24 * HOUR}),
    "fixed-48h": ("2 days per decision", {"type": "fixed", "step_seconds": 48 * HOUR}),
    "fixed-7d": ("1 week per decision", {"type": "fixed", "step_seconds": 7 * 24 * HOUR}),
    "bank-7d": ("Time bank: 7 days, +12 hours per decision",
                {"type": "bank", "initial_seconds": 7 * 24 * HOUR, "increment_seconds": 12 * HOUR}),
    "none": ("No deadlines (friendly game)", {"type": "none"}),
}


def game_choices() -> list[tuple[str, str]]:
    out = []
    for slug in slugs():
        try:
            out.append((slug, get_engine(slug).name))
        except (ImportError, AttributeError):
            continue  # a broken engine is left out rather than breaking the form
    return out


class GameCreateForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices, initial="faltisia")
    seats = forms.IntegerField(min_value=1, max_value=12, initial=4, help_text="Including you.")
    bots = forms.IntegerField(min_value=0, max_value=11, initial=0, required=False,
                              help_text="Seats played by the computer.")
    clock = forms.ChoiceField(choices=[(k, v[0]) for k, v in CLOCKS.items()], initial="fixed-48h")
    choose_characters = forms.BooleanField(
        required=False, label="Players choose their characters (Faltisia)",
        help_text="Instead of dealing them at random.")
    battle_for_london = forms.BooleanField(  # issue 13: option {"expansion": "battle_for_london"}, 2-6 seats
        required=False, label="The Battle for London expansion (Faltisia, 2-6 seats)")
    solo_difficulty = forms.ChoiceField(
        required=False, label="Solo difficulty (Faltisia, 1 seat)", initial=DEFAULT_DIFFICULTY,
        choices=[(k, f"{k.capitalize()}: the Classmate starts with every attribute at {v}")
                 for k, v in DIFFICULTY.items()],
        help_text="With 1 seat you play Solo Mode against the Classmate, an automaton. Solo games are unrated.")
    is_public = forms.BooleanField(required=False, initial=True, label="Public game",
                                   help_text="Listed in the lobby for anyone to join or watch. "
                                             "A private game is reached only through its invite link.")
    rated = forms.BooleanField(required=False, label="Rated game",
                               help_text="The final ranks move the players' ratings on the leaderboard. "
                                         "Bots are not rated, so a rated game needs at least two people.")
    extra_options = forms.CharField(required=False, label="Other options (JSON, optional)",
                                    widget=forms.Textarea(attrs={"rows": 2, "placeholder": '{"rounds": 2}'}))

    def clean_extra_options(self) -> dict:
        raw = self.cleaned_data["extra_options"].strip()
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except ValueError as e:
            raise forms.ValidationError(f"Not valid JSON: {e}")
        if not isinstance(value, dict):
            raise forms.ValidationError('Write an object, e.g. {"rounds": 2}.')
        return value

    def clean(self):
        data = super().clean()
        seats, bots = data.get("seats"), data.get("bots") or 0
        if seats is not None and bots >= seats:
            self.add_error("bots", "Leave at least your own seat for a person.")
        elif seats is not None and data.get("rated") and seats - bots < 2:
            # ratings_update_for_game rates only seats with a player: this game would never be rated.
            self.add_error("rated", "A rated game needs at least two seats for people, not bots.")
        return data

    def game_options(self) -> dict:
        d = self.cleaned_data
        options = dict(d["extra_options"])
        if d["game"] == "faltisia" and d["choose_characters"]:
            options["choose_characters"] = True
        if d["game"] == "faltisia" and d.get("battle_for_london"):
            options["expansion"] = "battle_for_london"
        if d["game"] == "faltisia" and d["seats"] == 1 and "solo" not in options:
            options["solo"] = {"difficulty": d.get("solo_difficulty") or DEFAULT_DIFFICULTY}
        return options

    def clock_settings(self) -> dict:
        return dict(CLOCKS[self.cleaned_data["clock"]][1])


class InviteEmailForm(forms.Form):
    email = forms.EmailField(label="Friend's email address")
    note = forms.CharField(required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2}),
                           label="A note (optional)")
