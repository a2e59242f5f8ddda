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

    def points_by_version(self) -> dict[int, float]:
        """Each version's points over the set's finished matches, as one unit.

        A seat scores 1 for every seat ranked below it and 1/2 for every tie, over
        players − 1 (so 1 for first alone, 0 for last alone): in a 2-player set, the
        pair score a sequential test counts (0, 1/2, 1, 3/2 or 2 for two games).
        """
        points: dict[int, float] = {}
        finished = self.matches.filter(status=Match.Status.FINISHED).prefetch_related("seats")
        for match in finished:
            seats = [s for s in match.seats.all() if s.rank is not None]
            for seat in seats:
                beaten = sum(1.0 for o in seats if o.rank > seat.rank)
                tied = sum(0.5 for o in seats if o is not seat and o.rank == seat.rank)
                share = (beaten + tied) / max(1, len(seats) - 1)
                points[seat.bot_version_id] = points.get(seat.bot_version_id, 0.0) + share
        return points
