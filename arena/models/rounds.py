"""Rounds of Swiss and knockout tournaments.

A round is created when the previous one's last match is recorded (arena/services/rounds.py,
inside the result's transaction, with the tournament row locked), so the unique
(tournament, number) pair is a second guard: a round is never created twice.

`tables` holds the round's plan, one entry per table: the bots in the seat order of its
first game, the knockout tie it plays (if any), and, once the round is closed, its outcome
(`winner` of a tie, `order` of a multiplayer table). `byes` lists the bots that sat out.
"""

from __future__ import annotations

from django.db import models


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"

    tournament = models.ForeignKey(
        "arena.Tournament", on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    tables = models.JSONField(default=list)
    byes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"

    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED
