"""Persistence of games: the engine's state snapshot, seats, open prompts, submissions and the event log.

A game's rules live in its engine (games/engines); these rows only record who sits where, what each
seat has been asked, what it answered, and what happened.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .fields import JSONField


class GameStatus(models.TextChoices):
    OPEN = "open"  # waiting for players to join
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class SubmissionSource(models.TextChoices):
    API = "api"
    WEB = "web"
    EMAIL = "email"
    DEFAULT = "default"  # the engine's default pick at a missed deadline
    BOT = "bot"  # a bot playing a seat (bot player, or a seat taken over after repeated misses)
    STANDING = "standing"  # a standing order set ahead by the player
    FORCED = "forced"  # the prompt's only option, picked by the server when it opened


HUMAN_SOURCES = frozenset({SubmissionSource.API, SubmissionSource.WEB, SubmissionSource.EMAIL})


class BotReason(models.TextChoices):
    """Why a bot plays a seat: it decides who may give the seat back to its player."""

    NONE = "", "no bot, or a bot seat from the start"
    MISSES = "misses", "the player missed deadlines in a row"  # the player may reclaim it
    PLAYER = "player", "the player left the seat to a bot"  # the player may reclaim it
    ADMIN = "admin", "an admin handed the seat to a bot"  # only an admin gives it back


class Press(models.TextChoices):
    """What a game's players may say to one another, chosen when it is created.

    ``none`` is the usual competitive setting; ``table`` lets every seat talk to the whole table;
    ``full`` adds private messages between seats.
    """

    NONE = "none", "No messages"
    TABLE = "table", "Table chat"
    FULL = "full", "Table chat and private messages"


class Game(models.Model):
    engine = models.CharField(max_length=40)  # registry slug, e.g. "faltisia"
    options = JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    players = models.PositiveSmallIntegerField()
    state = JSONField(null=True, blank=True)  # engine snapshot; None until the game starts
    phase = models.PositiveIntegerField(default=0)  # = engine.step(state)
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN)
    clock = JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="created_games")
    is_public = models.BooleanField(default=True)
    rated = models.BooleanField(default=False)  # a finished rated game moves its players' ratings
    press = models.CharField(max_length=5, choices=Press.choices, default=Press.TABLE)
    result = JSONField(null=True, blank=True)
    # Set when the current step is complete but not yet resolved; the sweep resolves games whose
    # request is older than a grace period, so a lost task (broker down, worker killed) never stalls.
    resolve_requested_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Bumped in the transaction of every write that can change what any caller of GET /api/games/{id}/
    # sees (the game, its seats, its open prompts) or the game page's history (its events): the API's ETag,
    # what a blocking GET waits on, and the web page's live-update version.
    # A counter, not updated_at: a QuerySet.update() does not bump auto_now, and two writes within one
    # clock tick would look alike.
    version = models.PositiveBigIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["resolve_requested_at"], name="game_resolve_requested",
                         condition=Q(resolve_requested_at__isnull=False)),
            models.Index(fields=["status", "is_public"], name="game_status_public"),
        ]

    def __str__(self) -> str:
        return f"{self.engine} #{self.pk} ({self.status})"

    @property
    def in_play(self) -> bool:
        """Not over yet: its secrets (hands, picks, deck order) must stay hidden from everyone, staff too."""
        return self.status not in (GameStatus.FINISHED, GameStatus.ABANDONED)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="seats")
    position = models.PositiveSmallIntegerField()
    missed_deadlines = models.PositiveIntegerField(default=0)  # consecutive misses; reset by a pick
    extensions_used = models.PositiveIntegerField(default=0)
    bank_seconds = models.FloatField(null=True, blank=True)  # time-bank clocks only
    standing_orders = JSONField(default=list, blank=True)  # engine order ids, in priority order
    is_bot = models.BooleanField(default=False)  # a bot plays this seat (until its player reclaims it)
    # Why the bot plays it and who handed it over (an admin's hand-off is undone only by an admin).
    bot_reason = models.CharField(max_length=10, choices=BotReason.choices, default=BotReason.NONE, blank=True)
    bot_handed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    # Not a column: whether the seat's player is an active account, read with the seats by the write path
    # (selectors.seats_with_open_prompts); None where it was not read or the seat has no player.
    player_active: bool | None = None
    email_token_hash = models.CharField(max_length=128, blank=True)  # for the email layer's reply address
    # The newest event this seat's player has seen on the game page: what "since your last visit" starts
    # after. None until the page was first viewed.
    web_seen_event_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], condition=Q(user__isnull=False),
                                    name="seat_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of game {self.game_id}"


class Prompt(models.Model):
    """One pick a seat was asked for. Open while closed_at is null; at most one open per seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="prompts")
    # Indexed with closed_at (Meta.indexes: prompt_seat_closed), not alone: see there.
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="prompts", db_index=False)
    prompt_id = models.CharField(max_length=100)  # the engine's id; changes whenever the options do
    phase = models.PositiveIntegerField()
    text = models.TextField()
    options = JSONField()  # [{"id", "label"}]
    deadline = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    answered = models.BooleanField(default=False)  # closed by a pick (vs. superseded or game over)
    # What the mail layer's periodic jobs need to find their due work through small partial indexes, rather
    # than walking every open prompt (a job's cost then grows with its due work, not with the games running):
    # - mail_pending: the prompt email is not settled yet (neither queued nor found needless); the
    #   prompt sweep reads only these.
    # - reminder_planned / next_reminder_at: when the seat's next deadline reminder is due (NULL: none),
    #   planned by the reminders task after the prompt opens and planned again whenever the deadline,
    #   the player's preferences or vacations, or the seat's holder change (reminder_planned = False).
    mail_pending = models.BooleanField(default=True)
    reminder_planned = models.BooleanField(default=False)
    next_reminder_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat"], condition=Q(closed_at__isnull=True),
                                    name="prompt_one_open_per_seat"),
        ]
        indexes = [
            # A seat's prompts, by seat and closed_at: "seat_id = s AND closed_at IS NULL" is a condition on the
            # index itself, so the open prompt is found without visiting the closed ones. It stands in for the
            # seat's foreign-key index: with that one beside the partial unique index above, the planner can,
            # on statistics that do not yet know a seat's history (a young table, one not analysed since a busy
            # hour), read every prompt of the seat and filter out the closed ones; a pick's and a view's read of
            # the seats with their open prompts then grows with the game's length (migration 0014).
            models.Index(fields=["seat", "closed_at"], name="prompt_seat_closed"),
            # The sweep's index: only open prompts, so its cost grows with due prompts, not history.
            models.Index(fields=["deadline"], name="prompt_open_deadline",
                         condition=Q(closed_at__isnull=True)),
            # The mail jobs' indexes (games/mail/reminders.py, prompt_mails.py). A query must repeat the
            # predicate word for word for the planner to use one (sweep.py, reminders.py).
            # A write's open prompts (the mail task of that write finds them by the write's time).
            models.Index(fields=["game", "opened_at"], name="prompt_open_game_opened",
                         condition=Q(closed_at__isnull=True)),
            models.Index(fields=["opened_at"], name="prompt_mail_pending",
                         condition=Q(closed_at__isnull=True, mail_pending=True)),
            models.Index(fields=["opened_at"], name="prompt_reminder_unplanned",
                         condition=Q(closed_at__isnull=True, reminder_planned=False)),
            models.Index(fields=["next_reminder_at"], name="prompt_reminder_due",
                         condition=Q(closed_at__isnull=True, next_reminder_at__isnull=False)),
        ]

    def option_ids(self) -> set[str]:
        return {o["id"] for o in self.options}

    def __str__(self) -> str:
        return f"{self.prompt_id} for {self.seat}"


class Submission(models.Model):
    """One applied pick. The one-to-one with Prompt makes a double application impossible."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="submissions")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="submissions")
    prompt_row = models.OneToOneField(Prompt, on_delete=models.CASCADE, related_name="submission")
    phase = models.PositiveIntegerField()
    prompt_id = models.CharField(max_length=100)
    option_id = models.CharField(max_length=100)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    source = models.CharField(max_length=10, choices=SubmissionSource.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "idempotency_key"],
                                    condition=Q(idempotency_key__isnull=False),
                                    name="submission_unique_idempotency_key"),
        ]
        indexes = [models.Index(fields=["seat", "prompt_id"], name="submission_seat_prompt")]

    def __str__(self) -> str:
        # Not the option: a pick (a draft card, a card played face down) is a secret while the game runs.
        return f"{self.seat}: pick at {self.prompt_id}"


class Event(models.Model):
    """Append-only log. visibility None: everyone; else the list of seat positions that may see it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    phase = models.PositiveIntegerField()
    text = models.TextField()
    data = JSONField(default=dict, blank=True)
    visibility = JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def visible_to(self, position: int | None) -> bool:
        return self.visibility is None or (position is not None and position in self.visibility)

    def __str__(self) -> str:
        # Not a private event's text (a card drawn, told to one seat): admin pages title rows with this.
        about = self.text[:40] if self.visibility is None else f"private to seat {self.visibility}"
        return f"game {self.game_id} phase {self.phase}: {about}"


class TakeBack(models.Model):
    """A pick its seat may still take back: the engine state just before it, the events it stored
    and what it was, for "Undo: ...". One row per player's pick since the seat's last checkpoint of the step;
    the rows go when a checkpoint or the step's end makes them moot (games/services/undo.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="take_backs")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="take_backs")
    phase = models.PositiveIntegerField()
    # No foreign-key constraint in the database: its check, run at each commit that stores a take-back
    # point, locked the pick's own new Submission row and cost ~6% of PostgreSQL's CPU under the load benchmark
    # (pg_stat_statements: 0.14 ms a pick). The row is written in the same transaction as its pick and
    # deleted with it (an undo deletes both in one statement; the ORM's CASCADE still applies), and the unique
    # index stays, so nothing can point at a missing or a second pick.
    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="take_back",
                                      db_constraint=False)
    # The engine state before the pick, as the JSON text the game row held (stored as is: no re-serialising).
    state = models.TextField()
    event_ids = JSONField(default=list)  # the events this pick and its automatic follow-ups stored
    label = models.CharField(max_length=300)  # the option as the seat was offered it (its own secret)
    prompt_text = models.TextField(blank=True)
    # The seat's time bank before the pick (a bank clock; NULL otherwise): an undo gives back neither the
    # increment the pick earned nor the time spent since the reopened prompt opened.
    bank_seconds = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "seat", "phase"], name="take_back_seat_phase")]

    def __str__(self) -> str:
        return f"take-back of {self.seat} at step {self.phase}"  # never the label: a secret while the game runs


class UndoTo(models.TextChoices):
    LAST = "last", "the last pick"
    TURN = "turn", "back to the seat's first pick of its turn (or step)"


class Undo(models.Model):
    """One applied undo: who took back how many picks; the Idempotency-Key makes a resend a replay."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="undos")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="undos")
    phase = models.PositiveIntegerField()
    prompt_id = models.CharField(max_length=100)  # the prompt the request named
    to = models.CharField(max_length=4, choices=UndoTo.choices)
    moves = models.PositiveIntegerField()  # the player's picks taken back
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    source = models.CharField(max_length=10, choices=SubmissionSource.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "idempotency_key"], condition=Q(idempotency_key__isnull=False),
                                    name="undo_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: undo at step {self.phase}"
