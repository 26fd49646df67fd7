"""Forms of the account pages. They validate input; the writes are in accounts.preferences."""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django import forms
from django.contrib.auth import password_validation
from django.utils import timezone

from .models import PromptMail, User
from .player_hook_urls import AddressNotAllowed, url_check
from .new_usernames import username_clean
from .usernames import RULE, USERNAME_MAX_LENGTH


@lru_cache(maxsize=1)
def timezone_choices() -> list[tuple[str, str]]:
    names = sorted(n for n in zoneinfo.available_timezones() if "/" in n or n == "UTC")
    return [(n, n.replace("_", " ")) for n in names]


class SignupForm(forms.Form):
    username = forms.CharField(max_length=USERNAME_MAX_LENGTH * 2, help_text=f"{RULE[0].upper()}{RULE[1:]}.")
    email = forms.EmailField(help_text="We send a link to confirm it, and your turn notices later.")
    password = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    timezone = forms.ChoiceField(choices=timezone_choices, initial="UTC",
                                 help_text="Deadlines are shown in this time zone.")

    def clean_username(self):
        return username_clean(self.cleaned_data["username"])  # the rule the API and the admin apply too

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("username"):
            probe = User(username=data["username"], email=data.get("email", ""))
            try:
                password_validation.validate_password(data["password"], probe)
            except forms.ValidationError as e:
                self.add_error("password", e)
        return data


class ResendVerificationForm(forms.Form):
    email = forms.EmailField()


class PreferencesForm(forms.Form):
    timezone = forms.ChoiceField(choices=timezone_choices)
    email_prompts = forms.BooleanField(required=False, label="Email me when I have a decision to make")
    email_results = forms.BooleanField(
        required=False, label="Also email me what happened at steps where I have nothing to decide",
        help_text="Off unless you turn it on: the email asking for your next decision already says what happened.")
    digest = forms.BooleanField(required=False, label="Bundle notices into one daily digest instead")
    email_chat = forms.BooleanField(
        required=False, label="Email me new table talk of my games",
        help_text="At most one email per game every so often, with every message you have not read yet.")
    reminder_lead_hours = forms.CharField(
        required=False, label="Reminders before a deadline (hours)",
        help_text="Comma-separated, e.g. 24, 2. Leave empty for no reminders.")
    prompt_mail = forms.ChoiceField(
        required=False, choices=PromptMail.choices, label="Which decisions to email",
        help_text="\"When I'm away\": not while you have the game's page open, and not if you answer within "
                  "a couple of minutes. A game below may have its own choice.")
    quiet_start = forms.TimeField(required=False, label="Quiet hours from", widget=forms.TimeInput(attrs={"type": "time"}),
                                  help_text="In your time zone. No mail then; what falls due comes in one mail when "
                                            "they end. Deadlines do not move.")
    quiet_end = forms.TimeField(required=False, label="Quiet hours until", widget=forms.TimeInput(attrs={"type": "time"}))
    webhook_url = forms.CharField(
        required=False, max_length=500, label="Webhook for your turns (Discord or Slack)",
        help_text="An https:// address; each turn is posted there as a short message with the game and its link, "
                  "signed with the secret shown below. An international address is saved in its encoded form.")

    def __init__(self, *args, games=(), **kwargs):
        """``games``: (game id, title) of the player's games still running: each gets its own choice."""
        super().__init__(*args, **kwargs)
        for game_id, title in games:
            self.fields[f"game_{game_id}"] = forms.ChoiceField(
                required=False, label=f"Decisions of {title}",
                choices=[("", "As chosen above"), *PromptMail.choices])

    def clean_webhook_url(self) -> str:
        url = self.cleaned_data["webhook_url"].strip()
        if url:
            try:
                url = url_check(url).url  # stored and shown back normalised: what is called is what is seen
            except AddressNotAllowed as e:
                raise forms.ValidationError(f"This address is not allowed: {e}.")
        return url

    def clean(self):
        data = super().clean()
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            self.add_error("quiet_end", "Give both ends of your quiet hours, or neither.")
        return data

    def game_modes(self) -> dict[int, str]:
        return {int(name[5:]): value for name, value in self.cleaned_data.items() if name.startswith("game_")}

    def clean_reminder_lead_hours(self) -> list[int]:
        raw = self.cleaned_data["reminder_lead_hours"].replace(";", ",")
        hours = []
        for part in filter(None, (p.strip() for p in raw.split(","))):
            if not part.isdigit() or not 1 <= int(part) <= 24 * 14:
                raise forms.ValidationError(f"{part!r} is not a whole number of hours between 1 and 336.")
            hours.append(int(part))
        if len(hours) > 5:
            raise forms.ValidationError("At most 5 reminders.")
        return hours


class VacationForm(forms.Form):
    starts = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                 help_text="In your time zone.")
    ends = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends:
            if ends <= starts:
                raise forms.ValidationError("A vacation must end after it starts.")
            if ends <= timezone.now():
                raise forms.ValidationError("That vacation is already over.")
            # The caps themselves (days per rolling year) are checked by accounts.services.vacation_create.
        return data
