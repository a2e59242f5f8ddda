"""Swiss standings with tie-breaks (pure): plain results in, ordered rows out.

Two-player events rank by points, then Buchholz cut-1 (the sum of the opponents' final
scores less the lowest one), then Sonneborn–Berger (each opponent's final score times the
points scored against them), then the direct encounter (points scored in the games among
the tied entrants). These are the FIDE Handbook's definitions (C.07, Tie-Break Regulations,
articles on BH, BH-C1, SB and DE); a bye is an unplayed round, so it adds its points to the
score and nothing to Buchholz or Sonneborn–Berger.

Multiplayer events rank by points, then the sum of the opponents' points (each table
counts every other entrant at it once), then the average finishing rank (lower is better).
Remaining ties keep the order the caller gave (the seeds).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Encounter:
    """One table in one round: the points each entrant scored there (0..1 per round when
    normalised by the caller) and, for multiplayer tables, its average finishing rank."""

    points: Mapping[Hashable, float]
    ranks: Mapping[Hashable, float] = field(default_factory=dict)


@dataclass
class Row:
    bot: Hashable
    points: float = 0.0
    tiebreaks: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "bot_id": self.bot,
            "points": round(self.points, 4),
            # An entrant with no table yet has no mean rank (inf): JSON has no infinity.
            **{k: round(v, 4) if v != float("inf") else None for k, v in self.tiebreaks.items()},
        }


def _scores(
    bots: Sequence[Hashable], encounters: Sequence[Encounter], byes: Mapping[Hashable, float]
) -> dict[Hashable, float]:
    score = dict.fromkeys(bots, 0.0)
    for encounter in encounters:
        for bot, points in encounter.points.items():
            score[bot] = score.get(bot, 0.0) + points
    for bot, points in byes.items():
        score[bot] = score.get(bot, 0.0) + points
    return score


def two_player_standings(
    bots: Sequence[Hashable],
    encounters: Sequence[Encounter],
    byes: Mapping[Hashable, float] | None = None,
) -> list[Row]:
    """Rows best first: points, Buchholz cut-1, Sonneborn–Berger, direct encounter."""
    byes = byes or {}
    score = _scores(bots, encounters, byes)
    opponents: dict[Hashable, list[float]] = defaultdict(list)
    berger: dict[Hashable, float] = defaultdict(float)
    against: dict[tuple[Hashable, Hashable], float] = defaultdict(float)
    for encounter in encounters:
        players = list(encounter.points)
        for bot in players:
            for other in players:
                if other == bot:
                    continue
                opponents[bot].append(score[other])
                berger[bot] += encounter.points[bot] * score[other]
                against[(bot, other)] += encounter.points[bot]
    rows = []
    for bot in score:
        faced = sorted(opponents[bot])
        cut = sum(faced[1:]) if faced else 0.0
        rows.append(
            Row(
                bot,
                score[bot],
                {"buchholz_cut1": cut, "buchholz": sum(faced), "sonneborn_berger": berger[bot]},
            )
        )
    seed = {bot: i for i, bot in enumerate(score)}
    rows.sort(
        key=lambda r: (-r.points, -r.tiebreaks["buchholz_cut1"], -r.tiebreaks["sonneborn_berger"])
    )
    # Direct encounter inside each group still level on every tie-break above.
    ordered: list[Row] = []
    i = 0
    while i < len(rows):
        j = i
        key = _level_key(rows[i])
        while j < len(rows) and _level_key(rows[j]) == key:
            j += 1
        group = rows[i:j]
        members = [r.bot for r in group]
        for row in group:
            row.tiebreaks["direct_encounter"] = sum(
                against[(row.bot, other)] for other in members if other != row.bot
            )
        group.sort(key=lambda r: (-r.tiebreaks["direct_encounter"], seed[r.bot]))
        ordered.extend(group)
        i = j
    return ordered


def _level_key(row: Row) -> tuple[float, float, float]:
    return (
        round(row.points, 9),
        round(row.tiebreaks["buchholz_cut1"], 9),
        round(row.tiebreaks["sonneborn_berger"], 9),
    )


def multiplayer_standings(
    bots: Sequence[Hashable],
    encounters: Sequence[Encounter],
    byes: Mapping[Hashable, float] | None = None,
) -> list[Row]:
    """Rows best first: points, opponents' points, average finishing rank."""
    byes = byes or {}
    score = _scores(bots, encounters, byes)
    opponents_points: dict[Hashable, float] = defaultdict(float)
    rank_total: dict[Hashable, float] = defaultdict(float)
    tables: dict[Hashable, int] = defaultdict(int)
    for encounter in encounters:
        for bot in encounter.points:
            opponents_points[bot] += sum(score[o] for o in encounter.points if o != bot)
            if bot in encounter.ranks:
                rank_total[bot] += encounter.ranks[bot]
                tables[bot] += 1
    seed = {bot: i for i, bot in enumerate(score)}
    rows = []
    for bot in score:
        mean_rank = rank_total[bot] / tables[bot] if tables[bot] else float("inf")
        rows.append(
            Row(
                bot,
                score[bot],
                {"opponents_points": opponents_points[bot], "mean_rank": mean_rank},
            )
        )
    rows.sort(
        key=lambda r: (
            -round(r.points, 9),
            -round(r.tiebreaks["opponents_points"], 9),
            round(r.tiebreaks["mean_rank"], 9),
            seed[r.bot],
        )
    )
    return rows
