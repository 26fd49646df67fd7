"""Users, their notification preferences and their vacations (which stretch their deadlines)."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower

from .usernames import RULE, validate_username


def default_reminder_lead_hours() -> list[int]:
    return [24, 2]


class User(AbstractUser):
    """A player. ``is_active`` is the admin's switch (False: banned, nothing logs in, not even its token);
    ``email_verified_at`` says whether ``email`` was confirmed by its link. Both are needed for game mail.
    """

    # The one username rule (accounts/usernames.py); unique regardless of case (constraint below).
    username = models.CharField("username", max_length=150, unique=True, validators=[validate_username],
                                help_text=f"Required. {RULE}.",
                                error_messages={"unique": "That username is taken."})
    email = models.EmailField("email address", blank=True)
    # When ``email`` was confirmed by its link; None until then, and again when the address changes.
    # No game mail goes to an unconfirmed address (games/mail/recipients.py).
    email_verified_at = models.DateTimeField("email verified at", null=True, blank=True)
    # IANA name ("Europe/London"); pages and emails show deadlines in the player's own time.
    timezone = models.CharField(max_length=64, default="UTC")

    class Meta(AbstractUser.Meta):
        constraints = [models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique",
                                               violation_error_message="That username is taken.")]


class PromptMail(models.TextChoices):
    """When a decision is emailed: the player's choice, per account and per game."""

    EVERY = "every", "Email me every decision"
    AWAY = "away", "Email me when I'm away from the game's page"
    DIGEST = "digest", "Only the daily digest"
    NEVER = "never", "Never email me my decisions"


class NotificationPreferences(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_preferences")
    # The master switch of prompt and reminder mails (List-Unsubscribe turns it off); when on,
    # ``prompt_mail`` says which prompts are mailed (a game's own GamePromptMail overrides it).
    email_prompts = models.BooleanField(default=True)
    prompt_mail = models.CharField(max_length=6, choices=PromptMail.choices, default=PromptMail.AWAY)
    # Quiet hours in the player's time zone (``User.timezone``): no mail then; what fell due is sent in one
    # mail when they end (games/mail/quiet.py). Both or neither; start after end spans midnight.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    # A Discord/Slack-compatible webhook for the player's turns (games/mail/player_hooks.py); checked when set
    # and again at every send (accounts/player_hook_urls.py).
    webhook_url = models.CharField(max_length=500, blank=True)
    # Mixed into the derivation of the hook's signing secret (accounts/player_hook_urls.py) so the player can
    # rotate it; "" derives the secret of the form without a nonce, so rows without one keep their secret.
    hook_secret_nonce = models.CharField(max_length=64, blank=True, default="")
    # Off unless asked for: a player with nothing to decide gets a step's result only if they asked, since every
    # step mailed would flood them; a prompt email already opens with what happened. Existing rows keep their value.
    email_results = models.BooleanField(default=False)
    digest = models.BooleanField(default=False)
    # Table talk by mail: new messages in one batched email per game (games/mail/chat_mail.py).
    email_chat = models.BooleanField(default=True)
    reminder_lead_hours = models.JSONField(default=default_reminder_lead_hours)
    # The digest task reads only the readers whose digest is due, not every reader: NULL is due now.
    # digest_since: the start of what the next digest covers (NULL: the last 24 hours).
    next_digest_at = models.DateTimeField(null=True, blank=True)
    digest_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "notification preferences"
        indexes = [
            models.Index(fields=["next_digest_at"], name="prefs_digest_due", condition=models.Q(digest=True)),
            # Readers never looked at: nearly always none. An index of its own (its predicate is the query's),
            # or the planner, seeing most rows NULL (non-readers), scans the table for them.
            models.Index(fields=["user"], name="prefs_digest_never_read",
                         condition=models.Q(digest=True, next_digest_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"preferences of {self.user}"


class GamePromptMail(models.Model):
    """One game's own choice of prompt mails, over the account's ``prompt_mail``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_prompt_mail")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=6, choices=PromptMail.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_prompt_mail_unique")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}: {self.mode}"


class GamePresence(models.Model):
    """When the player last showed they are on a game's page (the page, its live updates, a web pick):
    a prompt is not mailed to a player seen within PRESENCE_WINDOW (accounts/presence.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_presence_unique")]

    def __str__(self) -> str:
        return f"{self.user} on game {self.game_id} at {self.seen_at:%H:%M:%S}"


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
