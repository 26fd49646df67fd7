"""Forms of the lobby pages. They check input; game_create and friends enforce the rules."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ImproperlyConfigured

from faltisia.free_text import validate_free_text
from games.api.parsers import MAX_DEPTH, body_problem
from games.engines.registry import get_engine, slugs
from games.models import Press
from games.presentation.base import Presentation
from games.presentation.registry import presentation_for

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
    """Start a game. Each game's own options are fields declared by its presentation package
    (games/presentation/<slug>/); games without a package get the "Other options (JSON)" box instead."""

    game = forms.ChoiceField(choices=game_choices, initial="faltisia")
    seats = forms.IntegerField(min_value=1, max_value=12, initial=4, help_text="Including you.",
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    bots = forms.IntegerField(min_value=0, max_value=11, initial=0, required=False,
                              help_text="Seats played by the computer.")
    clock = forms.ChoiceField(choices=[(k, v[0]) for k, v in CLOCKS.items()], initial="fixed-48h")
    is_public = forms.BooleanField(required=False, initial=True, label="Public game",
                                   help_text="Listed in the lobby for anyone to join or watch. "
                                             "A private game is reached only through its invite link.")
    press = forms.ChoiceField(choices=Press.choices, initial=Press.TABLE, required=False, label="Table talk",
                              help_text="What the players may say to one another: nothing (the usual competitive "
                                        "setting), table chat, or table chat and private messages.")
    rated = forms.BooleanField(required=False, label="Rated game",
                               help_text="The final ranks move the players' ratings on the leaderboard. "
                                         "Bots are not rated, so a rated game needs at least two people.")
    # Still accepted for every game (it is merged over the declared fields' options, as the API takes any
    # options), but shown only for games whose package declares no fields.
    extra_options = forms.CharField(required=False, label="Other options (JSON, optional)",
                                    widget=forms.Textarea(attrs={"rows": 2, "placeholder": '{"rounds": 2}'}))

    COMMON_FIELDS = ("game", "seats", "bots", "clock")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.games: list[GameOptions] = [GameOptions.of(slug, name) for slug, name in game_choices()]
        common = {name: self.fields.pop(name) for name in self.COMMON_FIELDS}
        declared: dict[str, forms.Field] = {}
        for g in self.games:
            for name, field in g.fields.items():
                if name in declared or name in self.fields or name in common:
                    raise ImproperlyConfigured(f"lobby option field {name!r} of {g.slug} clashes with another's")
                declared[name] = field
        self.fields = {**common, **declared, **self.fields}
        # The browser checks the seat count against the selected game's bounds (game_new.html updates them when
        # the game changes); the server checks again in clean() with the engine's own message.
        low, high = self.selected_game().seats
        self.fields["seats"].widget.attrs.update({"min": low, "max": high})
        self.fields["bots"].widget.attrs.update({"min": 0, "max": high - 1})

    def selected_game(self) -> GameOptions:
        """The game the form is for: the posted one, else the initial one (the first known game as a last resort)."""
        slug = self.data.get("game") if self.is_bound else None
        slug = slug or self.initial.get("game") or self.fields["game"].initial
        return next((g for g in self.games if g.slug == slug), self.games[0])

    def seat_bounds(self) -> dict[str, dict]:
        """Each game's fewest and most seats and the engine's message for a count outside them, for the page's
        script (json_script): the browser says what the server would."""
        return {g.slug: {"min": g.seats[0], "max": g.seats[1], "message": g.seats_message} for g in self.games}

    def sections(self) -> list[dict]:
        """The form in blocks for the page: the common fields, each game's options (shown while that game
        is selected), the JSON box (for the games without fields), then the rest."""
        out = [{"games": "", "note": "", "fields": [self[n] for n in self.COMMON_FIELDS]}]
        for g in self.games:
            out.append({"games": g.slug, "title": f"{g.name}: options", "note": g.players_note,
                        "fields": [self[n] for n in g.fields]})
        # The JSON box only for a game that takes options but declares no fields (the generic fallback).
        without = " ".join(g.slug for g in self.games if not g.fields and g.takes_options)
        if without:
            out.append({"games": without, "note": "", "fields": [self["extra_options"]]})
        out.append({"games": "", "note": "", "fields": [self["press"], self["is_public"], self["rated"]]})
        return out

    def clean_press(self) -> str:
        return self.cleaned_data["press"] or Press.TABLE  # a form posted without it: the default

    def clean_extra_options(self) -> dict:
        raw = self.cleaned_data["extra_options"].strip()
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except RecursionError:
            raise forms.ValidationError(f"Nested more than {MAX_DEPTH} levels deep.")
        except json.JSONDecodeError as e:  # said for people, not Python's "Expecting value: line 1 column 1 (char 0)"
            raise forms.ValidationError(
                f'Write the options as a JSON object, e.g. {{"rounds": 2}}: names in double quotes, a colon, '
                f'the value. This text stops making sense at line {e.lineno}, character {e.colno}.')
        except ValueError:
            raise forms.ValidationError('Write the options as a JSON object, e.g. {"rounds": 2}.')
        if not isinstance(value, dict):
            raise forms.ValidationError('Write the options as a JSON object in braces, e.g. {"rounds": 2}.')
        problem = body_problem(value)  # the API's rule: no NUL (PostgreSQL refuses it), bounded depth
        if problem is not None:
            raise forms.ValidationError(problem.replace("the body", "the options"))
        return value

    def clean(self):
        data = super().clean()
        seats, bots = data.get("seats"), data.get("bots") or 0
        if seats is not None and bots >= seats:
            self.add_error("bots", "Leave at least your own seat for a person.")
        elif seats is not None and data.get("rated") and seats - bots < 2:
            # ratings_update_for_game rates only seats with a player: this game would never be rated.
            self.add_error("rated", "A rated game needs at least two seats for people, not bots.")
        if self.errors or data.get("game") is None or seats is None:
            return data
        game = next(g for g in self.games if g.slug == data["game"])
        engine = get_engine(game.slug)
        low, high = game.seats
        if not low <= seats <= high:
            self.add_error("seats", game.seats_message)
            return data
        declared = game.presentation.game_options(engine, {n: data.get(n) for n in game.fields}, seats=seats)
        try:
            # The engine's own words, before anything is created.
            self._options = engine.clean_options(seats, {**declared, **data["extra_options"]})
        except ValueError as e:
            self.add_error(None, str(e))
        return data

    def game_options(self) -> dict:
        return dict(self._options)

    def clock_settings(self) -> dict:
        return dict(CLOCKS[self.cleaned_data["clock"]][1])


@dataclass(frozen=True)
class GameOptions:
    """One game's block of the lobby form: its presentation, player counts in words, and option fields."""

    slug: str
    name: str
    presentation: Presentation
    players_note: str
    fields: dict[str, forms.Field]
    seats: tuple[int, int]  # the fewest and most seats
    takes_options: bool
    seats_message: str  # the engine's own words for a seat count it refuses

    @classmethod
    def of(cls, slug: str, name: str) -> GameOptions:
        engine, presentation = get_engine(slug), presentation_for(slug)
        return cls(slug=slug, name=name, presentation=presentation, players_note=presentation.players_note(engine),
                   fields=presentation.option_fields(engine), seats=presentation.seat_range(engine),
                   takes_options=presentation.takes_options, seats_message=_seats_message(engine, presentation))


def _seats_message(engine, presentation: Presentation) -> str:
    """The engine's message for one seat too many ("Miskatonic School for Girls takes 2-4 players")."""
    low, high = presentation.seat_range(engine)
    try:
        engine.validate_options(high + 1, {})
    except ValueError as e:
        return str(e)
    return f"{engine.name} takes {low}-{high} players."


class InviteEmailForm(forms.Form):
    email = forms.EmailField(label="Friend's email address")
    note = forms.CharField(required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2}),
                           label="A note (optional)", validators=[validate_free_text])
