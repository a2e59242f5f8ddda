"""Whole-history skill refits: read a game's rated matches, fit, store the fit.

`refit(game)` is what the Celery task `workers.tasks.refit_skills` runs: after every
ARENA_SKILL_REFIT_EVERY new rated results of a game (`request_refit_if_due`, called by the
match task after it recorded a result) and on demand (`POST /api/leaderboards/{game}/refit/`,
`python manage.py refit_skills`). Each refit is warm-started from the game's last fit and
stored as a new SkillFit with one SkillEntry per bot; the leaderboard serves the latest.

Reading a million matches through the ORM would take longer than the fit, so on
PostgreSQL the seats come as one binary value parsed by numpy (3 integers a row).
Challenge games are never rated (`Match.rated` is false), so they never reach a fit.
"""

from __future__ import annotations

import contextlib
import logging
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

import engine
from arena.errors import NotFound, Unavailable
from arena.models import Match, MatchSeat, SkillEntry, SkillFit
from arena.ratings.cooperative_fit import fit_cooperative
from arena.ratings.elo_maths import team_outcome
from arena.ratings.plackett_luce import from_seat_arrays
from arena.ratings.whole_history import fit_skills
from arena.services import response_cache, rows

log = logging.getLogger(__name__)

# Every rated seat of a game as one bytea value: 8-byte match id, 8-byte bot id, 2-byte
# rank, big-endian, fetched in binary and read by numpy without a Python object per row.
# (A COPY sends a message per row: 2.6 s of this process's CPU for 4M seats, against 0.1.)
# One value holds up to 1 GB, about 55 million seats.
_SEATS_SQL = (
    "SELECT string_agg(int8send(s.match_id) || int8send(s.bot_id) || int2send(s.rank::int2),"
    " ''::bytea)"
    " FROM arena_matchseat s JOIN arena_match m ON m.id = s.match_id"
    " WHERE m.game = %s AND m.rated AND m.status = 'finished' AND s.rank IS NOT NULL"
)
_SEAT_ROW = np.dtype([("match", ">i8"), ("bot", ">i8"), ("rank", ">i2")])


@dataclass(frozen=True)
class Seats:
    """One row per rated seat of a game: match id, bot id, rank."""

    match: np.ndarray
    bot: np.ndarray
    rank: np.ndarray


def load_seats(game: str) -> Seats:
    if connection.vendor == "postgresql":
        return _load_seats_postgresql(game)
    rows = MatchSeat.objects.filter(
        match__game=game, match__rated=True, match__status=Match.Status.FINISHED, rank__isnull=False
    ).values_list("match_id", "bot_id", "rank")
    array = np.array(list(rows), dtype=np.int64).reshape(-1, 3)
    return Seats(array[:, 0], array[:, 1], array[:, 2])


def _load_seats_postgresql(game: str) -> Seats:
    import psycopg

    connection.ensure_connection()
    # Django's cursors bind on the client, which cannot ask for binary results.
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(_SEATS_SQL, [game], binary=True)
        data = cursor.fetchone()[0] or b""
    rows = np.frombuffer(data, dtype=_SEAT_ROW)
    return Seats(
        rows["match"].astype(np.int64), rows["bot"].astype(np.int64), rows["rank"].astype(np.int64)
    )


def latest_fit(game: str) -> SkillFit | None:
    return SkillFit.objects.filter(game=game).order_by("-id").first()


def refit_every() -> int:
    return int(settings.ARENA_SKILL_REFIT_EVERY)


def new_results(game: str, since_match_id: int, limit: int) -> int:
    """Rated results of the game newer than a match id, counted up to `limit`."""
    ids = Match.objects.filter(game=game, rated=True, pk__gt=since_match_id).values("pk")[:limit]
    return Match.objects.filter(pk__in=ids).count() if limit else 0


# After every recorded match, one statement: the rated results of the game since its
# last fit, counted up to a bound. The (game, id) index makes it a short range scan
# whatever the size of the table.
_NEW_RESULTS_SQL = (
    "SELECT count(*) FROM (SELECT 1 FROM arena_match WHERE game = %s AND id > COALESCE("
    "(SELECT last_match_id FROM arena_skillfit WHERE game = %s ORDER BY id DESC LIMIT 1), 0)"
    " AND rated LIMIT %s) AS new_results"
)


# From 2N results on (a trigger missed, or refits slower than results), this process asks
# again at most this often per game: not after every set, which filled the refit queue
# with duplicates whenever no refit worker kept up (one publish to the broker a set).
REASK_SECONDS = 30.0
_asked_at: dict[str, float] = {}


def request_refit_if_due(game: str, recorded: int = 1, now: float | None = None) -> bool:
    """Enqueue a refit when the game has N (or 2N and more) rated results since its last fit.

    Called after each recorded match, or once after a set's `recorded` results: one
    bounded count, one round trip (a prepared statement on PostgreSQL). Triggering when
    these results reach N keeps duplicates rare; from 2N on it asks again, in case a
    trigger was missed, at most every REASK_SECONDS per game and process (`now`: a
    monotonic clock reading, for tests).
    """
    every = refit_every()
    if every <= 0:
        return False
    with rows.prepared_cursor() as cursor:
        cursor.execute(_NEW_RESULTS_SQL, [game, game, 2 * every])
        count = int(cursor.fetchone()[0])
    reached = count - max(1, recorded) < every <= count
    if not reached and count < 2 * every:
        return False
    now = time.monotonic() if now is None else now
    if not reached and now - _asked_at.get(game, -REASK_SECONDS) < REASK_SECONDS:
        return False
    _asked_at[game] = now
    enqueue = _enqueue_refit()
    transaction.on_commit(lambda: enqueue(game, False), robust=True)
    return True


def _enqueue_refit() -> Callable[[str, bool], object]:
    path = settings.ARENA_ENQUEUE_REFIT
    try:
        return import_string(path)
    except ImportError as exc:
        raise Unavailable(f"the refit queue is not available ({path}: {exc})") from exc


def request_refit(game: str) -> None:
    """Enqueue a refit now (on demand); the game must exist."""
    try:
        engine.get_game(game)
    except engine.UnknownGame as exc:
        raise NotFound(str(exc)) from None
    enqueue = _enqueue_refit()
    transaction.on_commit(lambda: enqueue(game, True), robust=True)


def refit(
    game: str,
    *,
    force: bool = False,
    now: datetime | None = None,
    cooperative: bool | None = None,
) -> SkillFit | None:
    """Fit the game's whole history and store it; None when another refit holds the game
    or (unless forced) fewer than ARENA_SKILL_REFIT_EVERY results came since the last fit.

    `cooperative` defaults to the registered game's (the benchmark's synthetic game is
    not registered, and says so).
    """
    if cooperative is None:
        cooperative = engine.get_game(game).cooperative
    with transaction.atomic():
        if not _try_lock(game):
            return None
        previous = latest_fit(game)
        since = previous.last_match_id if previous else 0
        if not force and new_results(game, since, max(refit_every(), 1)) < max(refit_every(), 1):
            return None
        started = time.perf_counter()
        phases: dict[str, float] = {}
        if cooperative:
            fit = _fit_cooperative(game, previous)
        else:
            fit = _fit_competitive(game, previous, phases)
        if fit is None:
            return None
        record, entries = fit
        record.fitted_at = now or timezone.now()
        record.seconds = round(time.perf_counter() - started, 4)
        record.save()
        for entry in entries:
            entry.fit = record
        with _timed(phases, "store"):
            SkillEntry.objects.bulk_create(entries, batch_size=2000)
        # A fit changes the skills every answer of the game shows (leaderboards, bots,
        # rating histories): rare enough to make every cached answer stale.
        response_cache.touch(everything=True)
        record.phases = phases  # seconds per phase, for the benchmark (not stored)
    log.info(
        "refit %s: %d bots, %d matches, %d iterations, %.2fs%s",
        game,
        record.bots,
        record.matches,
        record.iterations,
        record.seconds,
        " (warm)" if record.warm else "",
    )
    return record


@contextlib.contextmanager
def _timed(phases: dict[str, float], name: str) -> Iterator[None]:
    """Record a phase's wall-clock and CPU seconds (for the benchmark's breakdown)."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        phases[name] = time.perf_counter() - wall
        phases[f"{name}_cpu"] = time.process_time() - cpu


def _try_lock(game: str) -> bool:
    """One refit per game at a time (a transaction-scoped advisory lock on PostgreSQL)."""
    if connection.vendor != "postgresql":
        return True
    key = zlib.crc32(f"moon-arena:refit:{game}".encode()) - 2**31
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
        return bool(cursor.fetchone()[0])


def _warm_start(previous: SkillFit | None, bot_ids: np.ndarray) -> np.ndarray | None:
    if previous is None:
        return None
    known = dict(previous.entries.values_list("bot_id", "theta"))
    if not known:
        return None
    return np.array([known.get(int(b), 0.0) for b in bot_ids])


def _fit_competitive(
    game: str, previous: SkillFit | None, phases: dict[str, float]
) -> tuple[SkillFit, list[SkillEntry]] | None:
    with _timed(phases, "read"):
        seats = load_seats(game)
    if len(seats.match) == 0:
        return None
    with _timed(phases, "orderings"):
        bot_ids, item = np.unique(seats.bot, return_inverse=True)
        data = from_seat_arrays(len(bot_ids), seats.match, item, seats.rank)
        start = _warm_start(previous, bot_ids)
    with _timed(phases, "fit"):
        result = fit_skills(data, start=start)
    record = SkillFit(
        game=game,
        cooperative=False,
        matches=int(len(np.unique(seats.match))),
        last_match_id=int(seats.match.max()),
        bots=len(bot_ids),
        iterations=result.iterations,
        converged=result.converged,
        warm=start is not None,
    )
    entries = _entries(
        bot_ids, result, rank_low=result.rank_low.tolist(), rank_high=result.rank_high.tolist()
    )
    return record, entries


def _entries(bot_ids: np.ndarray, result: Any, **columns: list[Any]) -> list[SkillEntry]:
    """One SkillEntry per bot from a fit's arrays, plus any extra columns (lists)."""
    return [
        SkillEntry(
            bot_id=int(bot_id),
            skill=float(result.skill[i]),
            skill_low=float(result.low[i]),
            skill_high=float(result.high[i]),
            games=float(result.games[i]),
            theta=float(result.theta[i]),
            **{name: values[i] for name, values in columns.items()},
        )
        for i, bot_id in enumerate(bot_ids)
    ]


def _fit_cooperative(
    game: str, previous: SkillFit | None
) -> tuple[SkillFit, list[SkillEntry]] | None:
    rows = list(
        MatchSeat.objects.filter(
            match__game=game, match__rated=True, match__status=Match.Status.FINISHED
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id", "match__players", "match__result")
    )
    if not rows:
        return None
    match_ids, table_index = np.unique([r[0] for r in rows], return_inverse=True)
    bot_ids, item = np.unique([r[1] for r in rows], return_inverse=True)
    first_seat = {}
    for r in rows:
        first_seat.setdefault(r[0], r)
    outcome, score, players = [], [], []
    for match_id in match_ids:
        _, _, count, result = first_seat[int(match_id)]
        result = result or {}
        outcome.append(team_outcome(result))
        team_score = result.get("team_score")
        if not isinstance(team_score, int | float) or isinstance(team_score, bool):
            team_score = (result.get("scores") or [0])[0]
        score.append(float(team_score) if isinstance(team_score, int | float) else 0.0)
        players.append(count)
    start = _warm_start(previous, bot_ids)
    result = fit_cooperative(len(bot_ids), table_index, item, outcome, score, players, start=start)
    record = SkillFit(
        game=game,
        cooperative=True,
        matches=len(match_ids),
        last_match_id=int(match_ids.max()),
        bots=len(bot_ids),
        iterations=0,
        converged=True,
        warm=start is not None,
    )
    entries = _entries(
        bot_ids,
        result,
        contribution=result.contribution.tolist(),
        contribution_low=result.contribution_low.tolist(),
        contribution_high=result.contribution_high.tolist(),
    )
    _rank_by_skill(entries)
    return record, entries


def _rank_by_skill(entries: list[SkillEntry]) -> None:
    """Cooperative fits carry no rank draws: the rank interval counts the bots whose
    intervals lie wholly above (for the best rank) or not wholly below (for the worst)."""
    for entry in entries:
        above = sum(1 for other in entries if other.skill_low > entry.skill_high)
        overlapping = sum(
            1 for other in entries if other is not entry and other.skill_high >= entry.skill_low
        )
        entry.rank_low = above + 1
        entry.rank_high = overlapping + 1


def history(bot_id: int, game: str) -> dict[str, list[dict[str, object]]]:
    """A bot's rating history in one game, oldest first, for plotting.

    `elo`: the live Elo after each rated match; `skill`: the whole-history skill and its
    interval at each refit that included the bot.
    """
    from arena.models import RatingChange

    changes = (
        RatingChange.objects.filter(rating__bot_id=bot_id, rating__game=game)
        .order_by("created_at", "id")
        .values_list("match_id", "created_at", "before", "after")
    )
    fits = (
        SkillEntry.objects.filter(bot_id=bot_id, fit__game=game)
        .order_by("fit_id")
        .values_list(
            "fit_id",
            "fit__fitted_at",
            "skill",
            "skill_low",
            "skill_high",
            "rank_low",
            "rank_high",
            "games",
        )
    )
    return {
        "elo": [
            {"match": m, "at": at, "before": round(b, 1), "after": round(a, 1)}
            for m, at, b, a in changes
        ],
        "skill": [
            {
                "fit": fit,
                "fitted_at": at,
                "skill": round(skill, 1),
                "skill_low": round(low, 1),
                "skill_high": round(high, 1),
                "rank_low": rank_low,
                "rank_high": rank_high,
                "games": round(games, 1),
            }
            for fit, at, skill, low, high, rank_low, rank_high, games in fits
        ],
    }
