"""Challenges: a sequential test (pentanomial GSPRT) of one bot version against another.

The maths is in arena/ratings/sprt.py; arena/services/challenges.py creates the pairs of
matches batch by batch, a few batches at a time, and updates the test when a batch is done. A challenge's matches
point back here (`Match.challenge`, with `challenge_pair` numbering the pair) and are
never rated on the leaderboard.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


def empty_counts() -> list[int]:
    return [0, 0, 0, 0, 0]


class Challenge(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        ACCEPTED = "accepted"  # H1: the candidate is better by elo1
        REJECTED = "rejected"  # H0
        INCONCLUSIVE = "inconclusive"  # max_games reached first
        CANCELLED = "cancelled"

    game = models.CharField(max_length=64)
    candidate = models.ForeignKey(
        "arena.BotVersion", on_delete=models.PROTECT, related_name="challenges_as_candidate"
    )
    baseline = models.ForeignKey(
        "arena.BotVersion", on_delete=models.PROTECT, related_name="challenges_as_baseline"
    )
    # Versions filling the other seats (players > 2), the same in both games of a pair.
    opponents = models.ManyToManyField(
        "arena.BotVersion", blank=True, related_name="challenges_as_opponent"
    )
    players = models.PositiveSmallIntegerField(default=2)
    options = models.JSONField(default=dict, blank=True)
    limits = models.JSONField(default=dict, blank=True)
    elo0 = models.FloatField(default=0.0)
    elo1 = models.FloatField(default=5.0)
    alpha = models.FloatField(default=0.05)
    beta = models.FloatField(default=0.05)
    max_games = models.PositiveIntegerField(default=2000)
    batch_pairs = models.PositiveIntegerField(default=8)
    # Batches queued at a time: each is one set task, so this is how many workers a
    # challenge keeps busy.
    batches_in_flight = models.PositiveSmallIntegerField(default=2)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    # Pentanomial counts of the finished pairs' scores (0, 1/4, 1/2, 3/4, 1).
    counts = models.JSONField(default=empty_counts)
    llr = models.FloatField(default=0.0)
    games = models.PositiveIntegerField(default=0)  # games of counted pairs
    discarded_pairs = models.PositiveIntegerField(default=0)  # a game failed
    batches = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="challenges"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"challenge {self.pk}: v{self.candidate_id} vs v{self.baseline_id} ({self.status})"

    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING
