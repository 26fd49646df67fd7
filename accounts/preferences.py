"""Writes behind the account pages: API token, preferences, vacations (sign-up: accounts.services)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from rest_framework.authtoken.models import Token

from .models import NotificationPreferences, User, Vacation


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
                       reminder_lead_hours: list[int], email_chat: bool = True) -> NotificationPreferences:
    """Save the player's time zone and which emails they get, and when."""
    user.timezone = timezone
    user.save(update_fields=["timezone"])
    prefs = preferences_for(user=user)
    prefs.email_prompts, prefs.email_results, prefs.digest = email_prompts, email_results, digest
    prefs.email_chat = email_chat
    prefs.reminder_lead_hours = sorted(set(reminder_lead_hours), reverse=True)
    prefs.save()
    return prefs


def vacation_delete(*, user: User, vacation_id: int, now: datetime) -> bool:
    """Cancel one of the user's own vacations that has not started; False if there is no such vacation.

    A vacation that has started already stretched deadlines, so it stays (and keeps counting towards the
    yearly cap): otherwise booking, using and cancelling would get round the cap (issue 10 item 11).
    """
    deleted, _ = Vacation.objects.filter(user=user, pk=vacation_id, starts__gt=now).delete()
    return bool(deleted)


def vacations_upcoming(*, user: User, now: datetime) -> list[Vacation]:
    return list(Vacation.objects.filter(user=user, ends__gt=now).order_by("starts"))
