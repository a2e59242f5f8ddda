"""Ratings: a bot's Elo and tallies in one game, a cooperative game's own rating, history.

The Elo maths lives in arena/ratings/ (no ORM) and the updates in arena/services/results.py,
which locks Rating rows in a consistent order (by id) inside the match's transaction.
"""

from __future__ import annotations

from django.db import models

INITIAL_RATING = 1500.0


class Rating(models.Model):
    bot = models.ForeignKey(
        "arena.Bot",
        on_delete=models.CASCADE,
        related_name="ratings",
        db_index=False,  # rating_unique_bot_game
    )
    game = models.CharField(max_length=64)
    rating = models.FloatField(default=INITIAL_RATING)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    # Cooperative games: sum of team scores and number of successful matches.
    score_total = models.FloatField(default=0.0)
    successes = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "game"], name="rating_unique_bot_game")
        ]
        indexes = [models.Index(fields=["game", "-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.bot_id} {self.game}: {self.rating:.0f}"


class GameRating(models.Model):
    """A cooperative game's own Elo at one player count: the opponent every team plays."""

    game = models.CharField(max_length=64)
    players = models.PositiveSmallIntegerField()
    rating = models.FloatField(default=INITIAL_RATING)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "players"]
        constraints = [
            models.UniqueConstraint(fields=["game", "players"], name="gamerating_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game} at {self.players}: {self.rating:.0f}"


class RatingChange(models.Model):
    """One rating move caused by one match (history for charts and audits)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey(
        "arena.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    @property
    def delta(self) -> float:
        return self.after - self.before


class Leaderboard(Rating):
    """Ratings shown as a per-game leaderboard (a proxy: same table, its own admin page)."""

    class Meta:
        proxy = True
        ordering = ["game", "-rating"]
        verbose_name = "leaderboard entry"
        verbose_name_plural = "leaderboards"
