"""Recording a played match: seats, result, Elo ratings and history in one transaction.

`record_result` is the only place a match result is written. It is idempotent: it
locks the match row first and does nothing if the match is already done, so a
task delivered twice, retried or finished by two workers after a reaper requeue
commits its result and moves ratings exactly once.

Rating rows are locked in one global order (by bot id, then the cooperative
game's own row, then the tournament row) so that workers finishing matches at
the same time queue behind each other instead of losing updates or deadlocking.
A bot's rating is per game and continues across its versions; each seat keeps
the version that played it. The maths is in arena/ratings/ (no ORM).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from arena.models import Match, MatchSeat, RatingChange, Tournament
from arena.services import challenges, response_cache, rounds, rows, set_results, standings
from arena.services.result_rows import (
    MATCH_FIELDS,
    RATING_FIELDS,
    SEAT_AND_RATING_ROWS_SQL,
    SEAT_FIELDS,
    MissingRows,
    Outcome,
    RatingMoves,
    Recorded,
    check_outcome,
    claim_taken,
    fill_result,
    is_cooperative,
    json_text,
    lock_match_and_ratings,
    rate_match,
)
from arena.stored_text import REASON_CHARS, clean_text

log = logging.getLogger(__name__)


def record_result(
    match_id: int,
    claim_token: uuid.UUID | str | None,
    outcome: Outcome,
    claim: Match | None = None,
) -> Recorded:
    """Store a finished match and move the ratings of its bots, exactly once.

    A result presented with a claim token that is no longer the match's (its lease
    lapsed: the reaper re-queued it, or another worker took it over) is discarded and
    `stale_claim` says so: that worker was paused or cut off, and whatever its clocks
    charged to the bots meanwhile is not theirs to carry. The current claim's result is
    the one recorded. A claim whose lease lapsed but which nobody took (the database was
    down) is still the match's, and its result is recorded.

    A bot's first rated match in a game finds no Rating row to lock: the transaction
    is rolled back, the rows are created on their own, and it runs again. Creating
    rows inside the locking transaction could deadlock two workers that each lock one
    existing row and wait on the other's new one.

    With `claim` (the worker's match, carrying its claim), the claim's attempt is written
    in the same transaction (`attempt_logged`): a worker lost between the result's commit
    and a write of its own left a recorded result with no attempt.
    """
    for _ in range(3):
        try:
            recorded = _record(match_id, claim_token, outcome, claim=claim)
        except MissingRows as missing:
            missing.create()
            continue
        _after_recorded(recorded)
        return recorded
    raise RuntimeError(f"match {match_id}: rating rows vanished while recording")


def _after_recorded(recorded: Recorded) -> None:
    if recorded.recorded and recorded.challenge_id is not None:
        # In its own transaction, after the result's: the recording transaction runs
        # in pipeline mode, where the ORM's row counts are not known. A worker lost
        # in between leaves a complete batch that the reaper advances.
        with transaction.atomic():
            challenges.advance(recorded.challenge_id)


def record_results(
    items: Sequence[tuple[int, uuid.UUID | str | None, Outcome]],
    claims: Sequence[Match] | None = None,
) -> list[Recorded]:
    """`record_result` for each match of a set, in order, with one commit for all.

    Each match is still checked, written and rated on its own (a done match is left
    alone), in the given order, so ratings move exactly as if recorded one by one; the
    set only shares the transaction, so a set of 16 waits for the disk once, not 16
    times. If anything goes wrong (a rating row to create, a bad outcome, a lock
    conflict), nothing of the batch is kept and each match is recorded on its own.

    `claims`, the worker's own matches in the items' order (their claim token, worker and
    start): the set's path then writes each claim's attempt in the same transaction, and
    `attempt_logged` says which; the other paths leave the attempts to the caller.
    """
    if len(items) > 1:
        done = _record_together(items, claims)
        if done is not None:
            for recorded in done:
                _after_recorded(recorded)
            return done
    return [record_result(*item) for item in items]


def _record_together(
    items: Sequence[tuple[int, uuid.UUID | str | None, Outcome]],
    claims: Sequence[Match] | None,
) -> list[Recorded] | None:
    """The set in one transaction, or None for the caller to record match by match.

    New bots' rating rows are created (outside the locks, as `record_result` does) and
    the set tried again: their first set is as common as any other on a ladder, and a
    fallback match by match costs ~16 transactions instead of one.
    """
    for _ in range(3):
        try:
            done = (
                set_results.record_set(items, claims) if connection.vendor == "postgresql" else None
            )
            if done is None:
                with transaction.atomic():
                    done = [_record(*item, savepoint=False) for item in items]
        except MissingRows as missing:
            missing.create()
            continue
        except (ValueError, DatabaseError) as exc:
            log.info("recording a set one match at a time (%s)", type(exc).__name__)
            return None
        return done
    log.info("recording a set one match at a time (rating rows still missing)")
    return None


def _record(
    match_id: int,
    claim_token: uuid.UUID | str | None,
    outcome: Outcome,
    savepoint: bool = True,
    claim: Match | None = None,
) -> Recorded:
    writer = _writer()
    # Two round trips with the one-statement writer: BEGIN and both locks, then the
    # write and COMMIT. (The ORM's writes read row counts: no pipeline for them.)
    with (
        rows.pipelined(writer is _write_all_postgresql) as sync,
        transaction.atomic(savepoint=savepoint),
    ):
        match, seats, ratings = lock_match_and_ratings(match_id)
        if match.is_done():
            return Recorded(match_id, False, match.status)
        if claim_taken(match, claim_token):
            log.warning("match %s: a result from a lapsed claim, discarded", match_id)
            stale = Recorded(
                match_id, False, match.status, stale_claim=True, attempt_logged=claim is not None
            )
            _log_attempt_with(claim, stale)
            return stale
        check_outcome(match, seats, outcome)
        cooperative = is_cooperative(match.game)
        rated = fill_result(match, seats, outcome)
        moves = rate_match(match, seats, ratings, outcome, cooperative) if rated else RatingMoves()
        # Stamped last, so the time is that of the write (the benchmark's clock reads it).
        match.finished_at = timezone.now()
        writer(match, seats, moves)
        if match.tournament_id is not None:
            sync()  # the tournament's update reads its row count
            # Standings are running sums, added to here so a read never recomputes them.
            standings.add_match(match.tournament_id, seats, match.result)
            _try_finish_tournament(match.tournament_id)
        _touch_cached_answers(match, seats)
        recorded = Recorded(
            match_id,
            True,
            Match.Status.FINISHED,
            challenge_id=match.challenge_id,
            attempt_logged=claim is not None,
        )
        _log_attempt_with(claim, recorded)
    return recorded


def _log_attempt_with(claim: Match | None, recorded: Recorded) -> None:
    """The claim's attempt, in the recording's transaction (and pipeline, on PostgreSQL)."""
    from arena.services import attempts

    end = attempts.ending(recorded) if claim is not None else None
    if claim is None or end is None:
        return
    if connection.vendor == "postgresql":
        with rows.prepared_cursor() as cursor:
            attempts.insert_attempts(cursor, [(claim, *end)])
    else:
        attempts.log_attempt(claim, *end)


def record_failure(match_id: int, claim_token: uuid.UUID | str | None, error: str) -> Recorded:
    """Mark a match failed (it could not be played at all); ratings do not move."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.is_done():
            return Recorded(match_id, False, match.status)
        match.status = Match.Status.FAILED
        # A failure's message may quote a bot (an exception's text, a reply).
        match.error = clean_text(error, REASON_CHARS)
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "error", "finished_at"])
        _try_finish_tournament(match.tournament_id)
        if match.challenge_id is not None:
            challenges.advance(match.challenge_id)
        _touch_cached_answers(match, match.seats.all())
    return Recorded(match_id, True, Match.Status.FAILED)


def finish_tournament_if_done(tournament_id: int | None) -> bool:
    """Close a tournament whose matches are all done (e.g. after the reaper failed one)."""
    with transaction.atomic():
        return _try_finish_tournament(tournament_id)


def after_failure(match: Match) -> None:
    """After a match was failed outside `record_failure` (the reaper, out of attempts):
    close its tournament if it was the last one, advance its challenge's batch."""
    with transaction.atomic():
        _try_finish_tournament(match.tournament_id)
        if match.challenge_id is not None:
            challenges.advance(match.challenge_id)
        _touch_cached_answers(match, match.seats.all())


def _touch_cached_answers(match: Match, seats: Iterable[MatchSeat]) -> None:
    """The API's cached answers that showed this match before its result: its game's
    leaderboard and lists, its bots, its tournament, the match itself (now and at commit)."""
    response_cache.touch(
        games=[match.game],
        bots=[seat.bot_id for seat in seats],
        tournaments=[match.tournament_id],
        matches=[match.pk],
        lists=True,
    )


# ----- writing: one statement on PostgreSQL, the ORM elsewhere --------------------------------

# Every write of a recorded match in one round trip. Data-modifying WITH clauses always
# run to completion, read or not; each touches its own rows, which this transaction has
# already locked (the match, then the ratings by bot id, then the game's own rating).
_WRITE_ALL_SQL = (
    SEAT_AND_RATING_ROWS_SQL
    + """), history_rows AS (
    INSERT INTO arena_ratingchange (rating_id, match_id, before, after, created_at)
    SELECT v.rating_id, %s, v.before, v.after, %s
    FROM unnest(%s::bigint[], %s::double precision[], %s::double precision[])
        AS v(rating_id, before, after)
), game_rows AS (
    UPDATE arena_gamerating SET rating = %s, games = %s, updated_at = %s WHERE id = %s
)
UPDATE arena_match
SET status = %s, finished_at = %s, record = %s::jsonb, result = %s::jsonb, decisions = %s,
    duration_seconds = %s, error = %s, rated = %s
WHERE id = %s
"""
)


def _write_all_postgresql(match: Match, seats: Sequence[MatchSeat], moves: RatingMoves) -> None:
    now = match.finished_at
    game_row = moves.game_rating
    params: list[Any] = [
        [s.pk for s in seats],
        [s.rank for s in seats],
        [json_text(s.score) for s in seats],
        [s.forfeit_reason for s in seats],
        [s.stderr for s in seats],
        [s.rating_before for s in seats],
        [s.rating_after for s in seats],
        now,
        [r.pk for r in moves.ratings],
        *([getattr(r, name) for r in moves.ratings] for name in RATING_FIELDS),
        match.pk,
        now,
        [r.pk for r in moves.ratings],
        [moves.before[r.bot_id] for r in moves.ratings],
        [r.rating for r in moves.ratings],
        game_row.rating if game_row else None,
        game_row.games if game_row else None,
        now,
        game_row.pk if game_row else None,
        match.status,
        now,
        json_text(match.record),
        json_text(match.result),
        match.decisions,
        match.duration_seconds,
        match.error,
        match.rated,
        match.pk,
    ]
    with rows.prepared_cursor() as cursor:
        cursor.execute(_WRITE_ALL_SQL, params)


def _write_all_orm(match: Match, seats: Sequence[MatchSeat], moves: RatingMoves) -> None:
    """The same writes through the ORM, for databases without writable WITH (SQLite)."""
    if moves.game_rating is not None:
        moves.game_rating.save(update_fields=["rating", "games", "updated_at"])
    for row in moves.ratings:
        row.save(update_fields=[*RATING_FIELDS, "updated_at"])
    RatingChange.objects.bulk_create(
        RatingChange(rating=row, match=match, before=moves.before[row.bot_id], after=row.rating)
        for row in moves.ratings
    )
    match.save(update_fields=MATCH_FIELDS)
    for seat in seats:
        seat.save(update_fields=SEAT_FIELDS)


def _writer() -> Callable[[Match, Sequence[MatchSeat], RatingMoves], None]:
    if connection.vendor == "postgresql":
        return _write_all_postgresql
    return _write_all_orm


def _try_finish_tournament(tournament_id: int | None) -> bool:
    if tournament_id is None:
        return False
    # Locking the tournament row serialises the last matches' transactions: the second
    # one to get here sees the first one's match as finished and closes the tournament.
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or tournament.status not in (
        Tournament.Status.RUNNING,
        Tournament.Status.PAUSED,
    ):
        return False
    if tournament.has_rounds():
        # Swiss and knockouts: the round's last result opens the next round, here, in
        # the same transaction (arena/services/rounds.py).
        return rounds.advance(tournament)
    return tournament.try_finish()
