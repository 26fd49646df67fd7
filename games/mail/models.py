"""Rows of the email layer: seat mailboxes (reply tokens), the outbox, used one-click links, inbound log.

The outbox row is the idempotency key of every email we send: its ``dedupe_key`` is unique, so a
signal delivered twice, a retried task or a second sweep can never send the same notification twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce


class SeatMailbox(models.Model):
    """The secret behind a seat's reply address. Only a hash of the token is stored.

    The token itself is derived from SECRET_KEY and ``nonce`` (tokens.py), so the server can put it in
    every email without keeping it; a database dump alone does not reveal it. A new nonce revokes it.

    When the seat changes hands (a new player, a bot, back from the bot) the mailbox is rotated
    (tokens.mailbox_rotate): a new nonce, and ``generation`` goes up by one. One-click links carry the
    generation they were issued under, so one rotation revokes every outstanding link of the seat too,
    without storing the links.
    """

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="mailbox")
    nonce = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    generation = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"mailbox of {self.seat}"


class RetiredReplyToken(models.Model):
    """A seat's former reply token (its hash), kept so a reply to it gets a clear answer.

    Such a reply changes nothing; it is answered at the registered address of ``user``, who held the
    seat when the token was retired ("this address no longer belongs to you").
    """

    mailbox = models.ForeignKey(SeatMailbox, on_delete=models.CASCADE, related_name="retired_tokens")
    token_hash = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    reason = models.CharField(max_length=20)  # why the seat's token was rotated (tokens.mailbox_rotate)
    retired_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"retired reply token of {self.mailbox.seat} ({self.reason})"


class NotificationKind(models.TextChoices):
    PROMPT = "prompt"
    REMINDER = "reminder"
    RESULT = "result"
    DIGEST = "digest"
    FINISHED = "finished"
    ANSWER = "answer"  # our answer to an inbound message (confirmation or error)
    CHAT = "chat"  # a game's table talk the player has not read, batched (chat_mail.py)
    MODERATION = "moderation"  # staff hid or restored one of the player's messages


class Channel(models.TextChoices):
    """How a delivery reaches its player; each channel has its own address and sender (delivery.SENDERS)."""
    MAIL = "mail"  # an email to ``address``
    # A signed POST to the player's hook (player_hooks.py; ``body_text`` is the JSON). ``address`` is empty: the
    # hook's URL, which may carry a token of the receiver, is read and checked at send time, never stored here.
    WEBHOOK = "webhook"


# Deliveries to whoever holds a seat, about the seat: when the seat changes hands the ones still unsent are
# withdrawn (unsent.seat_deliveries_withdraw), and a send checks the holder again (delivery.py). A new channel
# that writes to a seat's holder belongs here.
SEAT_HOLDER_KINDS = (NotificationKind.PROMPT, NotificationKind.REMINDER, NotificationKind.CHAT)
# Of those, the ones about one prompt: they carry the seat's reply address and links, which the handover revokes,
# so they are withdrawn even when the same player takes the seat back from a bot (and are owed afresh).
PROMPT_KINDS = (NotificationKind.PROMPT, NotificationKind.REMINDER)


# When a pending delivery falls due: at ``not_before`` if it is held for later, else when it was queued (a row is
# never held to before it was queued, so this is also the later of the two).
DUE_AT = Coalesce("not_before", "created_at")


class NotificationStatus(models.TextChoices):
    PENDING = "pending"
    SENT = "sent"
    SKIPPED = "skipped"  # no longer relevant when its turn came (the prompt was answered meanwhile)
    FAILED = "failed"  # gave up after the retries


class Notification(models.Model):
    """One delivery to a player on one channel (an email, a webhook call), rendered when it is queued and sent by
    a task exactly once: the outbox. ``kind`` says what it is about, ``channel`` how it goes."""

    kind = models.CharField(max_length=10, choices=NotificationKind.choices)
    # The database's default too: a node still running the code before the channel existed inserts emails.
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.MAIL, db_default=Channel.MAIL)
    dedupe_key = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="mail_notifications")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="mail_notifications")
    seat = models.ForeignKey("games.Seat", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="mail_notifications")
    prompt = models.ForeignKey("games.Prompt", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="mail_notifications")
    deadline = models.DateTimeField(null=True, blank=True)  # the prompt's deadline this mail was about
    # Not to be sent before this; the send task is enqueued with a countdown and the outbox sweep leaves
    # the row alone until then. A reminder queued ahead of its lead time carries it (reminders.py). (Held-
    # back follow-up prompts used it too; they are now queued only once due, by the prompt sweep.)
    not_before = models.DateTimeField(null=True, blank=True)
    lead_hours = models.PositiveIntegerField(null=True, blank=True)  # reminders only
    # A prompt (or webhook) mailed "when I'm away": its send re-checks that the player is not on
    # the game's page, and waits while they are (wants.py). Rows from before are sent as they were queued.
    away_only = models.BooleanField(default=False)
    # Held by the player's quiet hours: sent when they end, together with the others held (quiet.py).
    quiet_held = models.BooleanField(default=False)
    # Where it goes on its channel (see Channel). The column keeps its first name, so nodes of the code before it
    # and after it can run side by side during an upgrade.
    address = models.CharField(max_length=254, blank=True, db_column="to_email")
    subject = models.CharField(max_length=300)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    message_id = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=NotificationStatus.choices,
                              default=NotificationStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            # The outbox sweep finds lost sends through this, in the order they fell due: it reads only the
            # rows due by now, never those held for later (quiet hours, "when away", a reminder's lead time).
            models.Index(DUE_AT, name="mail_notification_due", condition=Q(status="pending")),
            models.Index(fields=["prompt", "kind"], name="mail_notification_prompt"),
            models.Index(fields=["user", "kind", "created_at"], name="mail_notification_user"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} by {self.channel} to {self.address or f'user {self.user_id}'} ({self.status})"


class MailJobKind(models.TextChoices):
    RESULT = "result"  # a step was resolved: each result reader's email about it
    FINISHED = "finished"  # the game is over: each player's game-over email


class MailJobStatus(models.TextChoices):
    PENDING = "pending"
    DONE = "done"  # its emails were queued (Notification rows) in the transaction that marked it
    FAILED = "failed"  # gave up after MAX_JOB_ATTEMPTS (logged); never retried


class MailJob(models.Model):
    """Emails a write owes, recorded in that write's transaction (jobs.py).

    The resolution or finish that causes them inserts the row, so it commits (or rolls back) with the
    write. The task enqueued on commit claims it and renders its emails; if that task is lost (broker
    flushed, worker killed, database restarted), the job sweep runs the row once it is due. The
    Notification dedupe keys make a second run send nothing twice.
    """

    kind = models.CharField(max_length=10, choices=MailJobKind.choices)
    # No index of its own: the (game, kind, phase) index below starts with it.
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="mail_jobs", db_index=False)
    phase = models.PositiveIntegerField(null=True, blank=True)  # result: the resolved step
    event_ids = models.JSONField(default=list, blank=True)  # result: the resolution's events
    status = models.CharField(max_length=10, choices=MailJobStatus.choices, default=MailJobStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the sweep may run it: the write's time plus the grace its own task gets, later after a failure.
    due_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            # The job sweep reads only this: its cost grows with jobs still pending, not with games played.
            models.Index(fields=["due_at"], name="mail_job_pending", condition=Q(status="pending")),
            # The enqueued task finds its write's job by what its message carries (game, kind, phase).
            models.Index(fields=["game", "kind", "phase"], name="mail_job_game"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} mails of game {self.game_id} step {self.phase} ({self.status})"


class UsedLink(models.Model):
    """A one-click link that has been used; the unique nonce makes every link work once."""

    nonce = models.CharField(max_length=40, unique=True)
    prompt = models.ForeignKey("games.Prompt", on_delete=models.CASCADE, related_name="used_links")
    option_id = models.CharField(max_length=100)
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"one-click link for prompt {self.prompt_id}"  # neither the nonce nor the (secret) pick


class InboundOutcome(models.TextChoices):
    RECORDED = "recorded"  # a pick was applied
    COMMAND = "command"  # status, help, orders, vacation
    REFUSED = "refused"  # an error answer was sent (or would have been, if not rate-limited)
    IGNORED = "ignored"  # auto-reply, bounce, duplicate, garbled: nothing done, nothing answered


class InboundMessage(models.Model):
    """Every message we received, so duplicates are recognised and answers can be rate-limited."""

    mailbox = models.ForeignKey(SeatMailbox, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="inbound_messages")
    message_key = models.CharField(max_length=64)  # hash of the Message-ID (or of the raw bytes)
    from_address = models.CharField(max_length=254, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    outcome = models.CharField(max_length=10, choices=InboundOutcome.choices)
    reason = models.CharField(max_length=60, blank=True)
    answered = models.BooleanField(default=False)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # The same message delivered twice (an MTA retry, a provider redelivery) is handled once.
            models.UniqueConstraint(fields=["message_key"], name="mail_inbound_unique_message"),
        ]
        indexes = [
            models.Index(fields=["mailbox", "received_at"], name="mail_inbound_mailbox"),
            models.Index(fields=["from_address", "received_at"], name="mail_inbound_from"),
        ]

    def __str__(self) -> str:
        return f"inbound {self.message_key[:8]} ({self.outcome})"
