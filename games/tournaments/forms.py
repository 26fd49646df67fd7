"""The players' tournament proposal form; tournament_propose checks the settings, this checks the input."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from faltisia.free_text import validate_free_text
from games.models import Press
from games.web.forms import CLOCKS, game_choices

from .models import TournamentFormat


class TournamentProposalForm(forms.Form):
    name = forms.CharField(max_length=120, help_text="For example: “Winter Swiss, 3 rounds”.",
                           validators=[validate_free_text])
    game = forms.ChoiceField(choices=game_choices, initial="faltisia")
    format = forms.ChoiceField(choices=TournamentFormat.choices, initial=TournamentFormat.SWISS)
    table_size = forms.IntegerField(min_value=2, max_value=12, initial=3, label="Players per table")
    rounds = forms.IntegerField(min_value=0, max_value=50, initial=3, required=False,
                                help_text="Swiss only; round robin and elimination work theirs out.")
    clock = forms.ChoiceField(choices=[(k, v[0]) for k, v in CLOCKS.items()], initial="fixed-48h",
                              label="Time per decision")
    max_players = forms.IntegerField(min_value=2, max_value=1000, required=False, label="Most players",
                                     help_text="Leave empty for no limit.")
    registration_closes = forms.DateTimeField(
        required=False, label="Registration closes", help_text="In your time zone; leave empty and the director starts it.",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    rated = forms.BooleanField(required=False, initial=True, label="Rated",
                               help_text="The games move the players' ratings on the leaderboard.")
    press = forms.ChoiceField(choices=Press.choices, initial=Press.NONE, required=False, label="Table talk",
                              help_text="What the players of its games may say to one another; none is the usual "
                                        "competitive setting.")

    def clean_registration_closes(self):
        closes = self.cleaned_data["registration_closes"]
        if closes is not None and closes <= timezone.now():
            raise forms.ValidationError("Pick a time in the future.")
        return closes

    def proposal(self) -> dict:
        """The cleaned input as tournament_propose's arguments."""
        d = self.cleaned_data
        return {"name": d["name"], "engine": d["game"], "format": d["format"], "table_size": d["table_size"],
                "rounds": d["rounds"] or 0, "clock": CLOCKS[d["clock"]][1], "rated": d["rated"],
                "press": d["press"] or Press.NONE, "registration_closes": d["registration_closes"], "max_players": d["max_players"]}
