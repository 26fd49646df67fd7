"""Tournaments of multi-player games: entries, rounds, tables (one game each) and notices to players.

The rules of a tournament (format, table size, scoring, tie-breaks) live in the Tournament row; the
games themselves are ordinary games (games.Game) created through the games services.
"""

import secrets

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from faltisia.free_text import validate_free_text
from games.models import Press


def new_seed() -> int:
    return secrets.randbits(48)


class TournamentFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", "Round robin"
    SWISS = "swiss", "Swiss"
    SINGLE_ELIMINATION = "single_elimination", "Single elimination"


class TournamentStatus(models.TextChoices):
    # A player's proposal: listed to staff and the proposer only, until staff approve it (-> registration).
    PROPOSED = "proposed"
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Tournament(models.Model):
    name = models.CharField(max_length=120, validators=[validate_free_text])  # the admin's form checks it too
    engine = models.CharField(max_length=40)  # registry slug of the game played at every table
    format = models.CharField(max_length=20, choices=TournamentFormat.choices)
    table_size = models.PositiveSmallIntegerField()  # N: players per table
    # Swiss: the number of rounds; round robin and elimination compute theirs (0 = computed).
    rounds = models.PositiveSmallIntegerField(default=0)
    options = models.JSONField(default=dict, blank=True)  # game options, the same at every table
    clock = models.JSONField(default=dict, blank=True)  # game clock, the same at every table
    # Scoring and seating (see settings.py in this app): points_by_place, tie_breaks, odd_players,
    # bye_points, advance_per_table.
    settings = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    # What the players of its games may say to one another (games.models.Press); none by default, the usual
    # competitive setting. Tournaments older than the setting have "table" (migration 0005), what their earlier
    # rounds had.
    press = models.CharField(max_length=5, choices=Press.choices, default=Press.NONE)
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=TournamentStatus.choices,
                              default=TournamentStatus.REGISTRATION)
    seed = models.BigIntegerField(default=new_seed)  # games' seeds derive from it, so a tournament can be replayed
    current_round = models.PositiveSmallIntegerField(default=0)
    # The director (staff or whoever created it through the API); a proposal has none until approved, so
    # proposing gives a player no director's rights (start, cancel, drop) over the tournament.
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="created_tournaments")
    proposed_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="proposed_tournaments")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            # The registration sweep's index: only tournaments still taking entries, by closing time.
            models.Index(fields=["registration_closes"], name="tournament_registration_due",
                         condition=Q(status="registration", registration_closes__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()}, {self.engine})"


class EntryStatus(models.TextChoices):
    ACTIVE = "active"
    DROPPED = "dropped"  # left the tournament; keeps the points earned so far, is paired no more
    ELIMINATED = "eliminated"  # single elimination: did not advance


class Entry(models.Model):
    """A place in the tournament. A replacement player takes over the entry, its points and history."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    status = models.CharField(max_length=12, choices=EntryStatus.choices, default=EntryStatus.ACTIVE)
    # Bot entries play every seat through the games' bot (tests, filling a field); their user still rates.
    plays_as_bot = models.BooleanField(default=False)
    seed_no = models.PositiveIntegerField(default=0)  # elimination seeding; 1 is the top seed
    eliminated_in = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_users = models.JSONField(default=list, blank=True)  # usernames this entry was replaced from
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_one_per_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"


class RoundStatus(models.TextChoices):
    RUNNING = "running"
    FINISHED = "finished"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()  # 1-based
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.RUNNING)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        # Creating a round twice (two last games finishing at once) fails here, not silently.
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    """One game of a round. ``game`` is null for a bye (a lone entry that scores bye points)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="tournament_table")
    # Set once the game's result is counted (or the game was abandoned): results are counted once.
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    @property
    def is_bye(self) -> bool:
        return self.game_id is None

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


class TableSeat(models.Model):
    """An entry's place at a table, and what it earned there once the game is over."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="places")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="places")
    position = models.PositiveSmallIntegerField()  # the game's seat position
    place = models.PositiveSmallIntegerField(null=True, blank=True)  # the game's rank (1 = won)
    points = models.FloatField(null=True, blank=True)  # tournament points for the place
    mp = models.IntegerField(null=True, blank=True)  # the game's score (Faltisia: MP)
    tiebreak = models.IntegerField(null=True, blank=True)  # the game's own tie-break value

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="tableseat_unique_position"),
            models.UniqueConstraint(fields=["table", "entry"], name="tableseat_unique_entry"),
        ]


class NoticeKind(models.TextChoices):
    ROUND_STARTED = "round_started"
    GAME_ASSIGNED = "game_assigned"
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_CANCELLED = "tournament_cancelled"


class Notice(models.Model):
    """A message to a tournament player, for the email and web layers to deliver or show.

    This app sends a plain-text mail itself on commit (notifier.py); ``emailed_at`` records that, so
    a richer email layer can take over delivery of rows where it is still null.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="notices")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_notices")
    kind = models.CharField(max_length=24, choices=NoticeKind.choices)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["emailed_at"], name="notice_unsent",
                                condition=Q(emailed_at__isnull=True))]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user}"
