"""Whole-history skill fits: one row per refit of a game, one entry per bot in it.

The maths is in arena/ratings/whole_history.py (competitive games) and
arena/ratings/cooperative_fit.py; arena/services/skills.py reads the rated matches, fits
and stores here. Fits are kept, so a bot's skill at each refit can be plotted; the
leaderboard serves the game's latest fit. Nothing here is locked by the match path.
"""

from __future__ import annotations

from django.db import models


class SkillFit(models.Model):
    game = models.CharField(max_length=64)
    fitted_at = models.DateTimeField()
    cooperative = models.BooleanField(default=False)
    # The rated matches the fit used: how many, and the newest id (the next refit is due
    # after ARENA_SKILL_REFIT_EVERY more).
    matches = models.PositiveIntegerField(default=0)
    last_match_id = models.BigIntegerField(default=0)
    bots = models.PositiveIntegerField(default=0)
    iterations = models.PositiveIntegerField(default=0)
    converged = models.BooleanField(default=True)
    warm = models.BooleanField(default=False)
    seconds = models.FloatField(default=0.0)

    class Meta:
        ordering = ["game", "-fitted_at", "-id"]
        indexes = [models.Index(fields=["game", "-id"], name="skillfit_latest")]

    def __str__(self) -> str:
        return f"{self.game} fit {self.pk} at {self.fitted_at:%Y-%m-%d %H:%M:%S}"


class SkillEntry(models.Model):
    """One bot's whole-history skill in one fit, in Elo points with 95% intervals."""

    fit = models.ForeignKey(SkillFit, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("arena.Bot", on_delete=models.CASCADE, related_name="skill_entries")
    skill = models.FloatField()
    skill_low = models.FloatField()
    skill_high = models.FloatField()
    rank_low = models.PositiveIntegerField(null=True, blank=True)
    rank_high = models.PositiveIntegerField(null=True, blank=True)
    games = models.FloatField(default=0.0)
    # The fit's log-strength (or log-odds): the next refit's warm start.
    theta = models.FloatField(default=0.0)
    # Cooperative games: what the bot adds to a team's score, in points, with its interval.
    contribution = models.FloatField(null=True, blank=True)
    contribution_low = models.FloatField(null=True, blank=True)
    contribution_high = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["fit", "-skill"]
        constraints = [models.UniqueConstraint(fields=["fit", "bot"], name="skillentry_unique")]
        indexes = [models.Index(fields=["bot", "fit"], name="skillentry_bot_history")]

    def __str__(self) -> str:
        return f"bot {self.bot_id} in fit {self.fit_id}: {self.skill:.0f}"
