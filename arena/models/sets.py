"""Sets: matches between the same bot versions on one seed, the seats rotated.

Dice and decks are the same in every match of a set; only who sits where changes. Two
players: both seatings; n players: the n cyclic rotations, so each version sits in each
seat once. Luck of the draw then cancels within the set, and ratings and statistics can
take the set as one unit (a pentanomial pair score for challenges, a set score for the
ladder). The ladder, duplicate-seat round robins and challenges all make them.

`versions` keeps the versions in the seat order of the set's first match (rotation 0);
the match with `set_index = i` seats them rotated by i (arena/ladder/tables.py).
"""

from __future__ import annotations

from django.db import models

from arena.models.matches import Match


class MatchSet(models.Model):
    game = models.CharField(max_length=64, db_index=True)
    purpose = models.CharField(
        max_length=16, choices=Match.Purpose.choices, default=Match.Purpose.TOURNAMENT
    )
    tournament = models.ForeignKey(
        "arena.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="sets"
    )
    seed = models.BigIntegerField()
    players = models.PositiveSmallIntegerField()
    # [bot_version id per seat of rotation 0].
    versions = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"set {self.pk} ({self.game}, {self.players} seats, seed {self.seed})"

    def size(self) -> int:
        """How many matches a full set has: one per rotation."""
        return int(self.players)

    def is_done(self) -> bool:
        done = self.matches.filter(status__in=[Match.Status.FINISHED, Match.Status.FAILED])
        return done.count() == self.size()
