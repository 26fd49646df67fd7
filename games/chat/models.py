"""Rows of table talk: messages, what each seat has read and been mailed, notes, and moderation.

A message belongs to the seat that wrote it, and a private thread to a set of seats, not to the people who
sat there: whoever holds a seat now reads its threads, and a player who left it reads them no more.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.models import Game, Seat


class ChatMessage(models.Model):
    """One message: to the whole table (``audience`` 0) or to a set of seats (a private thread)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="chat_messages")  # the author's seat
    position = models.PositiveSmallIntegerField()  # the author seat's position (never changes)
    # Who typed it: blocks, mutes and a deactivated account's messages are about people, not seats.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    # 0: the table. Else a bit per seat position of the thread, the author's included (bit p: 1 << p), so
    # "may seat p read it" is one bitwise test in SQL and the thread of a set of seats is one number.
    audience = models.PositiveBigIntegerField(default=0)
    text = models.TextField()
    phase = models.PositiveIntegerField()  # the game's step when it was written: where the replay shows it
    created_at = models.DateTimeField()
    # Hidden by staff (moderation.message_hide): shown to nobody but its author, who is told why.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_message_game")]

    @property
    def is_private(self) -> bool:
        return self.audience != 0

    def __str__(self) -> str:
        return f"message {self.pk} of game {self.game_id} by seat {self.position}"


class SeatChat(models.Model):
    """What a seat has read and been mailed of its game's messages, and when its next chat mail is due."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="chat")
    read_id = models.BigIntegerField(default=0)  # the newest message its player saw (page or API)
    mailed_id = models.BigIntegerField(default=0)  # the newest message a mail carried to it
    # When the batched mail of its unread messages goes (the first unread one's time + CHAT_MAIL_BATCH_SECONDS);
    # NULL: nothing waits. The beat task reads only the rows that have one (index chat_seat_mail_due).
    mail_due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["mail_due_at"], name="chat_seat_mail_due",
                                condition=Q(mail_due_at__isnull=False))]

    def __str__(self) -> str:
        return f"chat of {self.seat}"


class SeatNote(models.Model):
    """A player's private notes at a seat: read and written by that player only, kept after the game."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "user"], name="chat_note_one_per_seat_player")]

    def __str__(self) -> str:
        return f"notes at {self.seat}"  # never the text: admin pages title rows with this


class TableMute(models.Model):
    """A player who may not post at one game's table (muted by its creator or staff)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_mutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="chat_mute_once_per_table")]

    def __str__(self) -> str:
        return f"{self.user} muted in game {self.game_id}"


class UserBlock(models.Model):
    """``blocker`` sees nothing ``blocked`` writes, at any table, and gets no private message from them."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="chat_block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="chat_block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class ChatReport(models.Model):
    """A reader's report of a message to staff, with the reason they gave."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when staff hide or restore the message: the report has been acted on.
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]

    def __str__(self) -> str:
        return f"report of message {self.message_id}"


class ModerationKind(models.TextChoices):
    HIDE = "hide"
    RESTORE = "restore"
    MUTE = "mute"
    UNMUTE = "unmute"


class ModerationAction(models.Model):
    """The log of what moderators did: who, to which message or player, at which table, and why."""

    kind = models.CharField(max_length=10, choices=ModerationKind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="moderation")
    target = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind} in game {self.game_id}"
