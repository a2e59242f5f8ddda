"""A set's results in two round trips to PostgreSQL: the locks, then one write and COMMIT.

`record_results` (arena/services/results.py) recorded a set's matches in one
transaction but still match by match: a locking read and a write per match, 32 round
trips for a set of 16 and as many statements for the server to run. Here the set's
matches, seats and ratings are locked by two statements sent together, each match is
checked, filled and rated in memory in the set's order (exactly as one by one: the
rating rows carry each match's change into the next), and one statement writes every
match, seat, rating and rating-history row of the set with multi-row `unnest` arrays.

Per match, nothing changes in what is decided: a done match is left alone (a
re-delivered set rates nothing twice), a result from a lapsed claim is discarded for
that match only, a bad outcome or a missing rating row aborts the batch (the caller
then records each match on its own, as before).

Only sets whose matches are rated the plain way take this path: a cooperative game
(its game row moves with each match) or a tournament's match (standings, the round's
end) returns None and the caller keeps the per-match path.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from arena.models import Match, MatchSeat, Rating
from arena.services import attempts, rows
from arena.services.result_rows import (
    MATCH_COLUMNS,
    RATING_COLUMNS,
    RATING_FIELDS,
    SEAT_AND_RATING_ROWS_SQL,
    SEAT_COLUMNS,
    Outcome,
    Recorded,
    check_outcome,
    claim_taken,
    fill_result,
    is_cooperative,
    json_text,
    rate_match,
)

log = logging.getLogger(__name__)

_RATING_BOT = RATING_COLUMNS.index("bot_id")
_RATING_GAME = RATING_COLUMNS.index("game")

# The matches in id order, then their bots' ratings in (bot, game) order: the order
# every recording transaction locks in (results.py), so sets and single matches queue
# behind each other rather than deadlock.
_LOCK_SET_SQL = (
    f"SELECT {rows.select_list(MATCH_COLUMNS, 'm')}, {rows.select_list(SEAT_COLUMNS, 's')}"
    " FROM arena_match m"
    # The ids on the seats too: see workers/queue/claims.py's read, which has the same join.
    " LEFT JOIN arena_matchseat s ON s.match_id = m.id AND s.match_id = ANY(%s::bigint[])"
    " WHERE m.id = ANY(%s::bigint[]) ORDER BY m.id, s.seat FOR UPDATE OF m"
)
_LOCK_SET_RATINGS_SQL = (
    f"SELECT {', '.join(RATING_COLUMNS)} FROM arena_rating"
    " WHERE game = ANY(ARRAY(SELECT DISTINCT game FROM arena_match WHERE id = ANY(%s::bigint[])))"
    " AND bot_id = ANY(ARRAY(SELECT DISTINCT bot_id FROM arena_matchseat"
    " WHERE match_id = ANY(%s::bigint[])))"
    " ORDER BY bot_id, game FOR UPDATE OF arena_rating"
)

# The set's records and results travel as one JSON array each, not as text[]: psycopg
# quotes a text array's elements one by one in Python (~4.5 ms for a set of 16 records of
# ~6 KB, as much CPU as a whole match), where one string goes as it is. A JSON null is
# SQL NULL, as `json_text` makes it for a single match.
_JSONB_ITEMS = (
    "ARRAY(SELECT NULLIF(item, 'null'::jsonb)"
    " FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS items(item, n) ORDER BY n)"
)

_WRITE_SET_SQL = (
    SEAT_AND_RATING_ROWS_SQL
    + """), history_rows AS (
    INSERT INTO arena_ratingchange (rating_id, match_id, before, after, created_at)
    SELECT v.rating_id, v.match_id, v.before, v.after, %s
    FROM unnest(%s::bigint[], %s::bigint[], %s::double precision[], %s::double precision[])
        AS v(rating_id, match_id, before, after)
)
UPDATE arena_match AS m
SET status = v.status, finished_at = %s, record = v.record, result = v.result,
    decisions = v.decisions, duration_seconds = v.duration_seconds, error = '',
    rated = v.rated
FROM unnest(%s::bigint[], %s::text[], """
    + _JSONB_ITEMS
    + ", "
    + _JSONB_ITEMS
    + """, %s::integer[],
            %s::double precision[], %s::boolean[])
    AS v(id, status, record, result, decisions, duration_seconds, rated)
WHERE m.id = v.id
"""
)


def record_set(
    items: Sequence[tuple[int, uuid.UUID | str | None, Outcome]],
    claims: Sequence[Match] | None = None,
) -> list[Recorded] | None:
    """Record a set's results in one transaction of two round trips; None when the set
    is not one this path takes (a tournament's or a cooperative game's matches).

    With `claims` (the worker's matches, in the items' order) the claims' attempts are
    written in the same transaction and round trip (`attempt_logged`): on their own they
    were one more round trip and commit a set (~1.6 ms of a set of 16).
    """
    ids = [match_id for match_id, _, _ in items]
    if claims is not None and [m.pk for m in claims] != ids:
        raise ValueError("the claims are not the items' matches")
    with_attempts = claims is not None
    if len(set(ids)) != len(ids):
        return None  # the same match twice: the per-match path settles it
    # BEGIN and both locks travel together; the write and COMMIT together (pipeline mode).
    with rows.pipelined(), transaction.atomic():
        matches, seats, ratings = _lock_set(ids)
        if any(m.tournament_id is not None or is_cooperative(m.game) for m in matches.values()):
            return None  # nothing written: the commit only lets the locks go
        done: list[Recorded] = []
        written: list[tuple[Match, list[MatchSeat]]] = []
        history: list[tuple[int, int, float, float]] = []  # rating, match, before, after
        moved: dict[int, Rating] = {}
        for match_id, claim_token, outcome in items:
            match = matches.get(match_id)
            if match is None:
                raise Match.DoesNotExist(f"match {match_id} does not exist")
            if match.is_done():
                done.append(Recorded(match_id, False, match.status))
                continue
            if claim_taken(match, claim_token):
                log.warning("match %s: a result from a lapsed claim, discarded", match_id)
                done.append(
                    Recorded(
                        match_id,
                        False,
                        match.status,
                        stale_claim=True,
                        attempt_logged=with_attempts,
                    )
                )
                continue
            its_seats = seats[match_id]
            check_outcome(match, its_seats, outcome)
            if fill_result(match, its_seats, outcome):
                own = {
                    s.bot_id: ratings[(s.bot_id, match.game)]
                    for s in its_seats
                    if (s.bot_id, match.game) in ratings
                }
                # Moves the shared rows in memory: the next match of the set starts from here.
                moves = rate_match(match, its_seats, own, outcome, cooperative=False)
                for row in moves.ratings:
                    history.append((row.pk, match.pk, moves.before[row.bot_id], row.rating))
                    moved[row.pk] = row
            written.append((match, its_seats))
            done.append(
                Recorded(
                    match_id,
                    True,
                    Match.Status.FINISHED,
                    challenge_id=match.challenge_id,
                    attempt_logged=with_attempts,
                )
            )
        ended = []
        if claims is not None:
            for claim, recorded in zip(claims, done, strict=True):
                end = attempts.ending(recorded)
                if end is not None:
                    ended.append((claim, *end))
        if written or ended:
            _write(written, list(moved.values()), history, ended)
    return done


def _lock_set(
    ids: list[int],
) -> tuple[dict[int, Match], dict[int, list[MatchSeat]], dict[tuple[int, str], Rating]]:
    with rows.prepared_cursor() as match_cursor, rows.prepared_cursor() as rating_cursor:
        match_cursor.execute(_LOCK_SET_SQL, [ids, ids])
        rating_cursor.execute(_LOCK_SET_RATINGS_SQL, [ids, ids])
        found = match_cursor.fetchall()
        locked = rating_cursor.fetchall()
    width = len(MATCH_COLUMNS)
    matches: dict[int, Match] = {}
    seats: dict[int, list[MatchSeat]] = {}
    for row in found:
        match_id = row[0]
        if match_id not in matches:
            matches[match_id] = rows.instance(Match, MATCH_COLUMNS, row[:width])
            seats[match_id] = []
        if row[width] is not None:
            seats[match_id].append(rows.instance(MatchSeat, SEAT_COLUMNS, row[width:]))
    ratings = {
        (row[_RATING_BOT], row[_RATING_GAME]): rows.instance(Rating, RATING_COLUMNS, row)
        for row in locked
    }
    return matches, seats, ratings


def _write(
    written: list[tuple[Match, list[MatchSeat]]],
    ratings: list[Rating],
    history: list[tuple[int, int, float, float]],
    ended: list[tuple[Match, str, str]],
) -> None:
    # One time for the set's rows: they are committed together.
    now = timezone.now()
    matches = [match for match, _ in written]
    for match in matches:
        match.finished_at = now
    assert connection.vendor == "postgresql"
    with rows.prepared_cursor() as cursor:
        if matches:
            cursor.execute(_WRITE_SET_SQL, _write_params(written, matches, ratings, history, now))
        if ended:
            attempts.insert_attempts(cursor, ended)


def _write_params(
    written: list[tuple[Match, list[MatchSeat]]],
    matches: list[Match],
    ratings: list[Rating],
    history: list[tuple[int, int, float, float]],
    now: datetime,
) -> list[Any]:
    """`_WRITE_SET_SQL`'s parameters: one array per column (`matches`: written's)."""
    seats = [seat for _, its_seats in written for seat in its_seats]
    return [
        [s.pk for s in seats],
        [s.rank for s in seats],
        [json_text(s.score) for s in seats],
        [s.forfeit_reason for s in seats],
        [s.stderr for s in seats],
        [s.rating_before for s in seats],
        [s.rating_after for s in seats],
        now,
        [r.pk for r in ratings],
        *([getattr(r, name) for r in ratings] for name in RATING_FIELDS),
        now,
        [rating_id for rating_id, _, _, _ in history],
        [match_id for _, match_id, _, _ in history],
        [before for _, _, before, _ in history],
        [after for _, _, _, after in history],
        now,
        [m.pk for m in matches],
        [m.status for m in matches],
        json_text([m.record for m in matches]),
        json_text([m.result for m in matches]),
        [m.decisions for m in matches],
        [m.duration_seconds for m in matches],
        [m.rated for m in matches],
    ]
