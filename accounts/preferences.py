"""Writes behind the account pages: API token, preferences, vacations (sign-up: accounts.services)."""

from __future__ import annotations

from datetime import datetime, time

from django.db import transaction
from rest_framework.authtoken.models import Token

from .models import GamePromptMail, NotificationPreferences, PromptMail, User, Vacation
from .player_hook_urls import player_hook_secret_for, player_hook_secret_nonce_new

# What saving the preferences form writes: every field but the hook's secret nonce, which only its rotation
# writes, so a form loaded before a rotation cannot put the old secret back.
_FORM_FIELDS = [f.name for f in NotificationPreferences._meta.concrete_fields
                if not f.primary_key and f.name != "hook_secret_nonce"]


@transaction.atomic
def token_regenerate(*, user: User) -> str:
    """Replace the user's API token; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user).key


def preferences_for(*, user: User) -> NotificationPreferences:
    prefs, _ = NotificationPreferences.objects.get_or_create(user=user)
    return prefs


@transaction.atomic
def preferences_update(*, user: User, timezone: str, email_prompts: bool, email_results: bool, digest: bool,
                       reminder_lead_hours: list[int], email_chat: bool = True, prompt_mail: str = "",
                       quiet_start: time | None = None, quiet_end: time | None = None,
                       webhook_url: str | None = None, game_modes: dict[int, str] | None = None) -> NotificationPreferences:
    """Save the player's time zone and which emails they get, and when (which decisions, per account and
    per game; quiet hours; a webhook). ``prompt_mail`` "" and ``webhook_url`` None keep theirs."""
    user.timezone = timezone
    user.save(update_fields=["timezone"])
    prefs = preferences_for(user=user)
    prefs.email_prompts, prefs.email_results, prefs.digest = email_prompts, email_results, digest
    prefs.email_chat = email_chat
    prefs.reminder_lead_hours = sorted(set(reminder_lead_hours), reverse=True)
    if prompt_mail:
        prefs.prompt_mail = prompt_mail
        if prompt_mail == PromptMail.DIGEST:
            prefs.digest = True  # "digest only": the digest is what they get
    prefs.quiet_start, prefs.quiet_end = (quiet_start, quiet_end) if quiet_start and quiet_end else (None, None)
    if webhook_url is not None:
        prefs.webhook_url = webhook_url
    prefs.save(update_fields=_FORM_FIELDS)
    for game_id, mode in (game_modes or {}).items():
        game_mode_set(user=user, game_id=game_id, mode=mode)
    return prefs


def game_mode_set(*, user: User, game_id: int, mode: str) -> None:
    """One game's own choice of decision mails ("" : as the account's)."""
    if not mode:
        GamePromptMail.objects.filter(user=user, game_id=game_id).delete()
        return
    GamePromptMail.objects.update_or_create(user=user, game_id=game_id, defaults={"mode": mode})


def webhook_set(*, user: User, url: str) -> NotificationPreferences:
    """Set (or with "" remove) the player's webhook; the caller checked the URL (accounts.player_hook_urls)."""
    prefs = preferences_for(user=user)
    prefs.webhook_url = url
    prefs.save(update_fields=["webhook_url"])
    return prefs


@transaction.atomic
def player_hook_secret_rotate(*, user: User) -> str:
    """A new signing secret for the player's hook (a new nonce); returns it. The secret is derived at
    every call, so the old one signs nothing from now on; other players' secrets do not depend on it."""
    prefs = preferences_for(user=user)
    prefs.hook_secret_nonce = player_hook_secret_nonce_new()
    prefs.save(update_fields=["hook_secret_nonce"])
    return player_hook_secret_for(user_id=user.pk, nonce=prefs.hook_secret_nonce)


def vacation_delete(*, user: User, vacation_id: int, now: datetime) -> bool:
    """Cancel one of the user's own vacations that has not started; False if there is no such vacation.

    A vacation that has started already stretched deadlines, so it stays (and keeps counting towards the
    yearly cap): otherwise booking, using and cancelling would get round the cap.
    """
    deleted, _ = Vacation.objects.filter(user=user, pk=vacation_id, starts__gt=now).delete()
    return bool(deleted)


def vacations_upcoming(*, user: User, now: datetime) -> list[Vacation]:
    return list(Vacation.objects.filter(user=user, ends__gt=now).order_by("starts"))
