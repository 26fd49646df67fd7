from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from accounts.services import user_create, vacation_create
from games.services.clock import extend_over_vacations


def test_the_custom_user_model_is_in_use():
    assert settings.AUTH_USER_MODEL == "accounts.User"


def test_user_create_makes_preferences_and_a_token(db):
    u = user_create(username="ann", email="ann@example.org", password="Long-pass-123", timezone="Asia/Tokyo")
    prefs = NotificationPreferences.objects.get(user=u)
    assert prefs.email_prompts and not prefs.email_results and not prefs.digest
    assert prefs.reminder_lead_hours == [24, 2]
    assert u.auth_token.key and User.objects.get(pk=u.pk).timezone == "Asia/Tokyo"


def test_weak_passwords_are_refused(db):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        user_create(username="bo", email="bo@example.org", password="123")


def test_vacation_time_does_not_count_towards_a_deadline(db):
    u = user_create(username="cy", email="cy@example.org", password="Long-pass-123")
    start = timezone.now()
    vacation_create(user=u, starts=start + timedelta(hours=2), ends=start + timedelta(hours=12))
    vacation_create(user=u, starts=start + timedelta(hours=20), ends=start + timedelta(hours=30))
    # 24h of active time: 2h, then 8h (12->20), then 14h after 30h.
    assert extend_over_vacations(user_id=u.pk, start=start, seconds=24 * 3600) == start + timedelta(hours=44)
    assert extend_over_vacations(user_id=None, start=start, seconds=60) == start + timedelta(seconds=60)
    with pytest.raises(ValueError):
        vacation_create(user=u, starts=start, ends=start)
