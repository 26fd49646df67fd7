"""Users, their notification preferences and their vacations (which stretch their deadlines)."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models


def default_reminder_lead_hours() -> list[int]:
    return [24, 2]


class User(AbstractUser):
    email = models.EmailField("email address", blank=True)
    # IANA name ("Europe/London"); pages and emails show deadlines in the player's own time.
    timezone = models.CharField(max_length=64, default="UTC")


class NotificationPreferences(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_preferences")
    email_prompts = models.BooleanField(default=True)
    email_results = models.BooleanField(default=True)
    digest = models.BooleanField(default=False)
    reminder_lead_hours = models.JSONField(default=default_reminder_lead_hours)

    class Meta:
        verbose_name_plural = "notification preferences"

    def __str__(self) -> str:
        return f"preferences of {self.user}"


class Vacation(models.Model):
    """While a player is away, their deadlines are pushed back by the overlap."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    starts = models.DateTimeField()
    ends = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "ends"])]
        constraints = [models.CheckConstraint(condition=models.Q(ends__gt=models.F("starts")),
                                              name="vacation_ends_after_start")]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts:%Y-%m-%d} to {self.ends:%Y-%m-%d}"
