"""Tournament standings from finished matches (pure: plain data in, plain data out).

Competitive games score each match pairwise by rank, like the Elo decomposition: a seat earns
1 for every seat it beat and 1/2 for every tie, divided by players - 1, so a match is worth at
most one point whatever its size. Cooperative games rank by successes, then mean team score.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeatResult:
    bot: Hashable
    rank: int
    forfeited: bool = False


@dataclass(frozen=True)
class MatchResult:
    seats: Sequence[SeatResult]
    outcome: str | None = None  # "success"/"failure" in cooperative games
    team_score: float | None = None


@dataclass
class Standing:
    bot: Hashable
    matches: int = 0
    points: float = 0.0
    wins: int = 0
    forfeits: int = 0
    rank_total: int = 0
    successes: int = 0
    team_score_total: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self, cooperative: bool) -> dict[str, Any]:
        row: dict[str, Any] = {
            "bot_id": self.bot,
            "matches": self.matches,
            "points": round(self.points, 4),
            "wins": self.wins,
            "forfeits": self.forfeits,
            "mean_rank": round(self.rank_total / self.matches, 4) if self.matches else None,
        }
        if cooperative:
            row["successes"] = self.successes
            row["mean_team_score"] = (
                round(self.team_score_total / self.matches, 4) if self.matches else None
            )
        return row


def tally(match: MatchResult) -> dict[Hashable, Standing]:
    """One match's contribution to each of its bots' standings.

    Standings are sums of these, so the arena stores the sums and adds each result's tally
    as it is recorded (arena/services/standings.py) instead of reading every match again.
    """
    rows: dict[Hashable, Standing] = {}
    n = len(match.seats)
    for seat in match.seats:
        row = rows.setdefault(seat.bot, Standing(seat.bot))
        row.matches += 1
        row.rank_total += seat.rank
        row.wins += seat.rank == 1 and match.outcome != "failure"
        row.forfeits += seat.forfeited
        if n > 1:
            beaten = sum(
                1.0 if seat.rank < other.rank else 0.5 if seat.rank == other.rank else 0.0
                for other in match.seats
                if other is not seat
            )
            row.points += beaten / (n - 1)
        if match.outcome == "success":
            row.successes += 1
        if match.team_score is not None:
            row.team_score_total += float(match.team_score)
    return rows


def add(into: Standing, other: Standing) -> None:
    into.matches += other.matches
    into.points += other.points
    into.wins += other.wins
    into.forfeits += other.forfeits
    into.rank_total += other.rank_total
    into.successes += other.successes
    into.team_score_total += other.team_score_total


def ordered(rows: Iterable[Standing], cooperative: bool) -> list[dict[str, Any]]:
    """The rows best first, as dicts with `position`."""

    def key(row: Standing) -> tuple:
        if cooperative:
            mean_score = row.team_score_total / row.matches if row.matches else 0.0
            rate = row.successes / row.matches if row.matches else 0.0
            return (-rate, -mean_score, str(row.bot))
        per_match = row.points / row.matches if row.matches else 0.0
        return (-round(row.points, 9), -per_match, str(row.bot))

    result = []
    for position, row in enumerate(sorted(rows, key=key), start=1):
        entry = row.as_dict(cooperative)
        entry["position"] = position
        result.append(entry)
    return result


def standings(
    matches: Sequence[MatchResult], bots: Sequence[Hashable], cooperative: bool
) -> list[dict[str, Any]]:
    """One row per bot (bots with no finished match included), best first, with `position`."""
    table = {bot: Standing(bot) for bot in bots}
    for match in matches:
        for bot, row in tally(match).items():
            add(table.setdefault(bot, Standing(bot)), row)
    return ordered(table.values(), cooperative)
