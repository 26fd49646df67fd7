"""One-click unsubscribe (List-Unsubscribe, RFC 8058): the signed link's page (views.unsubscribe) turns off
every game email of the account it names."""

from __future__ import annotations

from accounts.models import NotificationPreferences, User


def preferences_unsubscribe(*, user_id: int) -> bool:
    """Stop every game email to the user (List-Unsubscribe); True if the user exists."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return False
    prefs, _ = NotificationPreferences.objects.get_or_create(user=user)
    prefs.email_prompts = prefs.email_results = prefs.digest = False
    prefs.save(update_fields=["email_prompts", "email_results", "digest"])
    return True
