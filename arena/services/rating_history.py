"""A bot's rating history for its page's chart, thinned in the database.

The chart is 640 units wide: a few hundred points draw everything it can show. A bot on
the ladder plays thousands of matches, and reading every rating change into Python to
drop most of them cost ~10 µs a row (31 ms of CPU for a bot with 3,000 matches, growing
with every match). Here PostgreSQL numbers the rows and returns only the first of each of
`points - 1` equal buckets and the last one, with the total; the newest few rows (for the
table beside the chart) come from their own small query.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from arena.models import RatingChange, SkillEntry, SkillFit
from arena.models.ratings import Rating

POINTS = 300
LATEST = 30

# {rows} is a query with the columns wanted, then the ordering keys `ord` and `tie` (the tie
# keeps changes of one transaction, which share a timestamp, in order), filter applied.
# Row k of n (0-based) is kept when it opens a bucket of k * (points - 1) / (n - 1), integer
# division: evenly spread, the first and the last always kept, at most `points` rows.
_THINNED = """
SELECT * FROM (
  SELECT t.*, row_number() OVER (ORDER BY ord, tie) - 1 AS k, count(*) OVER () AS n
  FROM ({rows}) t
) numbered
WHERE n <= %(points)s OR k = 0
   OR (k * (%(points)s - 1)) / NULLIF(n - 1, 0)
      <> ((k - 1) * (%(points)s - 1)) / NULLIF(n - 1, 0)
ORDER BY k
"""

_ELO_ROWS = f"""
SELECT c.match_id, c.created_at, c.before, c.after, c.created_at AS ord, c.id AS tie
FROM {RatingChange._meta.db_table} c JOIN {Rating._meta.db_table} r ON r.id = c.rating_id
WHERE r.bot_id = %(bot)s AND r.game = %(game)s
"""

_SKILL_ROWS = f"""
SELECT e.fit_id, f.fitted_at, e.skill, e.skill_low, e.skill_high, e.rank_low, e.rank_high,
       e.games, f.fitted_at AS ord, e.fit_id AS tie
FROM {SkillEntry._meta.db_table} e JOIN {SkillFit._meta.db_table} f ON f.id = e.fit_id
WHERE e.bot_id = %(bot)s AND f.game = %(game)s
"""


def _elo(row: tuple[Any, ...]) -> dict[str, Any]:
    match, at, before, after = row[:4]
    return {"match": match, "at": at, "before": round(before, 1), "after": round(after, 1)}


def _skill(row: tuple[Any, ...]) -> dict[str, Any]:
    fit, at, skill, low, high, rank_low, rank_high, games = row[:8]
    return {
        "fit": fit,
        "fitted_at": at,
        "skill": round(skill, 1),
        "skill_low": round(low, 1),
        "skill_high": round(high, 1),
        "rank_low": rank_low,
        "rank_high": rank_high,
        "games": round(games, 1),
    }


def _query(sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def chart_history(
    bot_id: int, game: str, points: int = POINTS, latest: int = LATEST
) -> dict[str, Any]:
    """Elo after matches and skill at refits, oldest first, each thinned to `points`.

    Returns `elo` and `skill` (the thinned series), `elo_count` and `skill_count` (before
    thinning) and `elo_latest` / `skill_latest` (the newest `latest` of each, newest first).
    """
    params = {"bot": bot_id, "game": game, "points": max(points, 2), "latest": latest}
    elo = _query(_THINNED.format(rows=_ELO_ROWS), params)
    skill = _query(_THINNED.format(rows=_SKILL_ROWS), params)
    elo_latest = _query(
        f"{_ELO_ROWS} ORDER BY c.created_at DESC, c.id DESC LIMIT %(latest)s", params
    )
    skill_latest = _query(f"{_SKILL_ROWS} ORDER BY e.fit_id DESC LIMIT %(latest)s", params)
    return {
        "elo": [_elo(r) for r in elo],
        "elo_count": elo[0][-1] if elo else 0,
        "elo_latest": [_elo(r) for r in elo_latest],
        "skill": [_skill(r) for r in skill],
        "skill_count": skill[0][-1] if skill else 0,
        "skill_latest": [_skill(r) for r in skill_latest],
    }
