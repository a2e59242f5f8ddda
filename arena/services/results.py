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

import json
import logging
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

import engine
from arena.models import GameRating, Match, MatchSeat, Rating, RatingChange, Tournament
from arena.ratings import rate_cooperative, rate_ranked, seat_outcome
from arena.services import challenges, response_cache, rounds, rows, standings
from arena.stored_text import REASON_CHARS, STDERR_CHARS, clean_json, clean_text

log = logging.getLogger(__name__)


_RATING_FIELDS_COUNTED = ["games", "wins", "draws", "losses", "score_total", "successes"]


class Outcome(Protocol):
    """What the referee returns (workers.referee.MatchOutcome), seen from here."""

    record: dict[str, Any]
    ranks: list[int]
    scores: list[Any]
    forfeits: dict[int, str]
    stderr: list[str]
    decisions: int
    seconds: float
    result: dict[str, Any]


@dataclass(frozen=True)
class Recorded:
    """What `record_result` did: `recorded` is False when the match was already done."""

    match_id: int
    recorded: bool
    status: str
    stale_claim: bool = False
    challenge_id: int | None = None
    # The claim's attempt was written with the result (a set's path, given the claims).
    attempt_logged: bool = False


class _MissingRows(Exception):
    """Rating rows to create before the recording transaction can lock them."""

    def __init__(self, game: str, bot_ids: list[int], players: int | None = None) -> None:
        super().__init__(game, bot_ids, players)
        self.game, self.bot_ids, self.players = game, bot_ids, players

    def create(self) -> None:
        # Committed on their own, outside any lock: ON CONFLICT DO NOTHING makes a row
        # another worker creates at the same moment harmless.
        if self.bot_ids:
            Rating.objects.bulk_create(
                [Rating(bot_id=bot_id, game=self.game) for bot_id in self.bot_ids],
                ignore_conflicts=True,
            )
        if self.players is not None:
            GameRating.objects.bulk_create(
                [GameRating(game=self.game, players=self.players)], ignore_conflicts=True
            )


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
        except _MissingRows as missing:
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
    from arena.services import set_results as _set_writes

    for _ in range(3):
        try:
            done = (
                _set_writes.record_set(items, claims) if connection.vendor == "postgresql" else None
            )
            if done is None:
                with transaction.atomic():
                    done = [_record(*item, savepoint=False) for item in items]
        except _MissingRows as missing:
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
        match, seats, ratings = _lock_match_and_ratings(match_id)
        if match.is_done():
            return Recorded(match_id, False, match.status)
        if _claim_taken(match, claim_token):
            log.warning("match %s: a result from a lapsed claim, discarded", match_id)
            stale = Recorded(
                match_id, False, match.status, stale_claim=True, attempt_logged=claim is not None
            )
            _log_attempt_with(claim, stale)
            return stale
        _check_outcome(match, seats, outcome)
        cooperative = _is_cooperative(match.game)
        rated = _fill(match, seats, outcome)
        moves = _rate(match, seats, ratings, outcome, cooperative) if rated else RatingMoves()
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


def _claim_taken(match: Match, claim_token: uuid.UUID | str | None) -> bool:
    """Whether the match is under a claim other than the one presenting this result.

    A match back to `queued` holds no claim: the database lost the claim in a crash (it
    commits without waiting for the disk, workers/claims.py) or the reaper re-queued it
    while nobody played it. The played result is then the match's, recorded once; the
    message that would play it again finds it finished.
    """
    if claim_token is None or str(match.claim_token) == str(claim_token):
        return False
    return match.status != Match.Status.QUEUED


def _fill(match: Match, seats: Sequence[MatchSeat], outcome: Outcome) -> bool:
    """Put the outcome on the match and its seats (in memory); whether it is rated.

    The bots' text (forfeit reasons, stderr) goes through `clean_text` here: one NUL or
    lone surrogate from a bot must not make the whole result unwritable."""
    forfeits = {seat: clean_text(reason) for seat, reason in outcome.forfeits.items()}
    match.status = Match.Status.FINISHED
    match.record = outcome.record
    if "forfeits" in outcome.record:
        match.record = {**outcome.record, "forfeits": _forfeits_by_seat(forfeits)}
    match.result = _result_summary(outcome, forfeits)
    match.decisions = outcome.decisions
    match.duration_seconds = round(float(outcome.seconds), 6)
    match.error = ""
    # A challenge's games test two versions against each other: rating them would
    # over-weight those two on the leaderboard (and in the whole-history fit).
    match.rated = bool(seats) and match.challenge_id is None
    for seat in seats:
        seat.rank = outcome.ranks[seat.seat]
        seat.score = outcome.scores[seat.seat]
        seat.forfeit_reason = forfeits.get(seat.seat, "")
        stderr = outcome.stderr[seat.seat] if seat.seat < len(outcome.stderr) else ""
        seat.stderr = clean_text(stderr or "", STDERR_CHARS)
    return match.rated


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


# ----- inside the transaction ----------------------------------------------------------------


def _check_outcome(match: Match, seats: Sequence[MatchSeat], outcome: Outcome) -> None:
    players = len(outcome.ranks)
    if players != match.players or len(outcome.scores) != players:
        raise ValueError(
            f"match {match.pk} has {match.players} seats but the outcome has {players} ranks "
            f"and {len(outcome.scores)} scores"
        )
    if seats and sorted(s.seat for s in seats) != list(range(players)):
        raise ValueError(f"match {match.pk}: seat rows do not cover seats 0..{players - 1}")


def _is_cooperative(game_name: str) -> bool:
    return engine.get_game(game_name).cooperative


def _result_summary(outcome: Outcome, forfeits: dict[int, str]) -> dict[str, Any]:
    summary = dict(outcome.result)
    summary["ranks"] = list(outcome.ranks)
    summary["scores"] = list(outcome.scores)
    summary["forfeits"] = _forfeits_by_seat(forfeits)
    return summary


def _forfeits_by_seat(forfeits: dict[int, str]) -> dict[str, str]:
    return {str(seat): reason for seat, reason in sorted(forfeits.items())}


# The locking reads are written out (arena/services/rows.py says why); only the columns
# used here are read, the instances' other fields are deferred.
_MATCH_COLUMNS = rows.columns(
    Match, ["id", "status", "claim_token", "game", "players", "tournament_id", "challenge_id"]
)
_SEAT_COLUMNS = rows.columns(MatchSeat, ["id", "match_id", "seat", "bot_id"])
_RATING_COLUMNS = rows.columns(Rating, ["id", "bot_id", "game", "rating", *_RATING_FIELDS_COUNTED])
_RATING_BOT = _RATING_COLUMNS.index("bot_id")


_LOCK_MATCH_SQL = (
    f"SELECT {rows.select_list(_MATCH_COLUMNS, 'm')}, {rows.select_list(_SEAT_COLUMNS, 's')}"
    " FROM arena_match m LEFT JOIN arena_matchseat s ON s.match_id = m.id"
    " WHERE m.id = %s ORDER BY s.seat{for_update}"
)
# The match's bots found by subquery (its seats never change), so this statement does
# not wait for the match's rows to come back: sent together, the two cost one round
# trip. The server runs them in order, so the match is locked before the ratings.
# On PostgreSQL the bots are an array computed once, so the rows are found through the
# (bot, game) unique index; with `IN (subquery)` the planner chose a join over the
# leaderboard index on game, which every rating update fills with dead entries
# (0.9 ms a match after a few thousand, against 0.03 ms).
_LOCK_RATINGS_SQL = (
    f"SELECT {', '.join(_RATING_COLUMNS)} FROM arena_rating"
    " WHERE game = (SELECT game FROM arena_match WHERE id = %s)"
    " AND bot_id {seat_bots} ORDER BY bot_id{for_update}"
)
_SEAT_BOTS = "(SELECT bot_id FROM arena_matchseat WHERE match_id = %s)"


def _lock_match_and_ratings(match_id: int) -> tuple[Match, list[MatchSeat], dict[int, Rating]]:
    """Lock the match, read its seats, and lock its bots' ratings in bot-id order.

    Raises match.DoesNotExist if there is no such match. The ratings are locked even
    when the match turns out to be done already: a rare duplicate pays a lock held for
    one round trip, every recorded match saves one.
    """
    with rows.prepared_cursor() as match_cursor, rows.prepared_cursor() as rating_cursor:
        match_cursor.execute(_LOCK_MATCH_SQL.format(for_update=rows.for_update("m")), [match_id])
        seat_bots = (
            f"= ANY(ARRAY{_SEAT_BOTS})" if connection.vendor == "postgresql" else f"IN {_SEAT_BOTS}"
        )
        rating_cursor.execute(
            _LOCK_RATINGS_SQL.format(
                seat_bots=seat_bots, for_update=rows.for_update("arena_rating")
            ),
            [match_id, match_id],
        )
        found = match_cursor.fetchall()
        locked = rating_cursor.fetchall()
    if not found:
        raise Match.DoesNotExist(f"match {match_id} does not exist")
    width = len(_MATCH_COLUMNS)
    match = rows.instance(Match, _MATCH_COLUMNS, found[0][:width])
    seats = [
        rows.instance(MatchSeat, _SEAT_COLUMNS, row[width:])
        for row in found
        if row[width] is not None
    ]
    ratings = {row[_RATING_BOT]: rows.instance(Rating, _RATING_COLUMNS, row) for row in locked}
    return match, seats, ratings


def _lock_game_rating(game: str, players: int) -> GameRating:
    row = GameRating.objects.select_for_update().filter(game=game, players=players).first()
    if row is None:
        raise _MissingRows(game, [], players)
    return row


@dataclass
class RatingMoves:
    """The rows a match moves, locked and updated in memory, for the writer to store."""

    ratings: list[Rating] = field(default_factory=list)
    before: dict[int, float] = field(default_factory=dict)
    game_rating: GameRating | None = None


def _rate(
    match: Match,
    seats: Sequence[MatchSeat],
    ratings: dict[int, Rating],
    outcome: Outcome,
    cooperative: bool,
) -> RatingMoves:
    missing = sorted({s.bot_id for s in seats} - ratings.keys())
    if missing:
        raise _MissingRows(match.game, missing)
    before = {bot_id: row.rating for bot_id, row in ratings.items()}
    seat_before = [before[s.bot_id] for s in seats]
    delta = dict.fromkeys(before, 0.0)
    game_row = None

    if cooperative:
        success = outcome.result.get("outcome") == "success"
        seat_success = [success and s.seat not in outcome.forfeits for s in seats]
        game_row = _lock_game_rating(match.game, match.players)
        update = rate_cooperative(seat_before, game_row.rating, seat_success)
        game_row.rating = update.game
        game_row.games += 1
        after = update.seats
        team_score = outcome.result.get("team_score", outcome.scores[0])
        for seat, won in zip(seats, seat_success, strict=True):
            row = ratings[seat.bot_id]
            row.games += 1
            if won:
                row.wins += 1
                row.successes += 1
            else:
                row.losses += 1
            if isinstance(team_score, int | float) and not isinstance(team_score, bool):
                row.score_total += float(team_score)
    else:
        after = rate_ranked(seat_before, outcome.ranks, identities=[s.bot_id for s in seats])
        for seat in seats:
            row = ratings[seat.bot_id]
            row.games += 1
            kind = seat_outcome(outcome.ranks, seat.seat)
            if kind == "win":
                row.wins += 1
            elif kind == "draw":
                row.draws += 1
            else:
                row.losses += 1

    for seat, old, new in zip(seats, seat_before, after, strict=True):
        delta[seat.bot_id] += new - old
    for bot_id, row in ratings.items():
        row.rating = before[bot_id] + delta[bot_id]
    for seat in seats:
        seat.rating_before = before[seat.bot_id]
        seat.rating_after = ratings[seat.bot_id].rating
    return RatingMoves(list(ratings.values()), before, game_row)


# ----- writing: one statement on PostgreSQL, the ORM elsewhere --------------------------------

_MATCH_FIELDS = ["status", "finished_at", "record", "result", "decisions", "duration_seconds"]
_MATCH_FIELDS += ["error", "rated"]
_SEAT_FIELDS = ["rank", "score", "forfeit_reason", "stderr", "rating_before", "rating_after"]
_RATING_FIELDS = ["rating", *_RATING_FIELDS_COUNTED]

# The seat and rating updates of a recorded match (or of a whole set: one row per seat and
# per rating either way), shared by `_WRITE_ALL_SQL` here and set_results.py's statement.
SEAT_AND_RATING_ROWS_SQL = """
WITH seat_rows AS (
    UPDATE arena_matchseat AS seat
    SET rank = v.rank, score = v.score::jsonb, forfeit_reason = v.forfeit_reason,
        stderr = v.stderr, rating_before = v.rating_before, rating_after = v.rating_after
    FROM unnest(%s::bigint[], %s::integer[], %s::text[], %s::text[], %s::text[],
                %s::double precision[], %s::double precision[])
        AS v(id, rank, score, forfeit_reason, stderr, rating_before, rating_after)
    WHERE seat.id = v.id
), rating_rows AS (
    UPDATE arena_rating AS rating
    SET rating = v.rating, games = v.games, wins = v.wins, draws = v.draws,
        losses = v.losses, score_total = v.score_total, successes = v.successes,
        updated_at = %s
    FROM unnest(%s::bigint[], %s::double precision[], %s::integer[], %s::integer[],
                %s::integer[], %s::integer[], %s::double precision[], %s::integer[])
        AS v(id, rating, games, wins, draws, losses, score_total, successes)
    WHERE rating.id = v.id
"""

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


def _json(value: Any) -> str | None:
    # A JSONField stores Python None as SQL NULL; so does this. orjson: a match's record
    # in ~5 us instead of ~0.2 ms (it matters once a set makes matches cheap).
    if value is None:
        return None
    try:
        text = orjson.dumps(value)
    except TypeError:  # integers past 64 bits, non-string keys, a lone surrogate
        return json.dumps(clean_json(value))
    if b"\\u0000" in text:
        # jsonb refuses an escaped NUL too. `_fill` cleans what bots wrote; this catches a
        # string that came another way (a scan of the bytes costs ~1 us a record).
        return orjson.dumps(clean_json(value)).decode()
    return text.decode()


def _write_all_postgresql(match: Match, seats: Sequence[MatchSeat], moves: RatingMoves) -> None:
    now = match.finished_at
    game_row = moves.game_rating
    params: list[Any] = [
        [s.pk for s in seats],
        [s.rank for s in seats],
        [_json(s.score) for s in seats],
        [s.forfeit_reason for s in seats],
        [s.stderr for s in seats],
        [s.rating_before for s in seats],
        [s.rating_after for s in seats],
        now,
        [r.pk for r in moves.ratings],
        *([getattr(r, name) for r in moves.ratings] for name in _RATING_FIELDS),
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
        _json(match.record),
        _json(match.result),
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
        row.save(update_fields=[*_RATING_FIELDS, "updated_at"])
    RatingChange.objects.bulk_create(
        RatingChange(rating=row, match=match, before=moves.before[row.bot_id], after=row.rating)
        for row in moves.ratings
    )
    match.save(update_fields=_MATCH_FIELDS)
    for seat in seats:
        seat.save(update_fields=_SEAT_FIELDS)


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
