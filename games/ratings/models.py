"""Player ratings per game (openskill's Plackett-Luce model) and the record that a game was rated."""

from django.conf import settings
from django.db import models


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    engine = models.CharField(max_length=40)  # registry slug: ratings of different games never mix
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: a conservative skill estimate that rises only with evidence; leaderboards sort by it.
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "engine"], name="rating_one_per_user_engine")]
        indexes = [models.Index(fields=["engine", "-ordinal"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} {self.engine}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatedGame(models.Model):
    """A game whose result has moved ratings. The one-to-one is what makes rating idempotent."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rating_record")
    # per user id (as str): {"before": [mu, sigma], "after": [mu, sigma], "rank": r}
    changes = models.JSONField(default=dict)
    rated_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"ratings of game {self.game_id}"
