"""What recording a match's result does inside its transaction, for one match
(results.py) and for a set at once (set_results.py): the outcome checked and put on the
match and its seats, the locking reads, the rating step, and the columns and statement
pieces the writers share.

Nothing here commits or decides what to record: the callers own the transaction, the
locking order and the writes. The maths is in arena/ratings/ (no ORM).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from django.db import connection

import engine
from arena.models import GameRating, Match, MatchSeat, Rating
from arena.ratings import rate_cooperative, rate_ranked, seat_outcome, team_outcome
from arena.services import rows
from arena.stored_text import STDERR_CHARS, clean_json, clean_text

_RATING_FIELDS_COUNTED = ["games", "wins", "draws", "losses", "score_total", "successes"]


class Outcome(Protocol):
    """What the referee returns (workers.play.referee.MatchOutcome), seen from here."""

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


class MissingRows(Exception):
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


def claim_taken(match: Match, claim_token: uuid.UUID | str | None) -> bool:
    """Whether the match is under a claim other than the one presenting this result.

    A match back to `queued` holds no claim: the database lost the claim in a crash (it
    commits without waiting for the disk, workers/queue/claims.py) or the reaper re-queued it
    while nobody played it. The played result is then the match's, recorded once; the
    message that would play it again finds it finished.
    """
    if claim_token is None or str(match.claim_token) == str(claim_token):
        return False
    return match.status != Match.Status.QUEUED


def fill_result(match: Match, seats: Sequence[MatchSeat], outcome: Outcome) -> bool:
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


# ----- inside the transaction ----------------------------------------------------------------


def check_outcome(match: Match, seats: Sequence[MatchSeat], outcome: Outcome) -> None:
    players = len(outcome.ranks)
    if players != match.players or len(outcome.scores) != players:
        raise ValueError(
            f"match {match.pk} has {match.players} seats but the outcome has {players} ranks "
            f"and {len(outcome.scores)} scores"
        )
    if seats and sorted(s.seat for s in seats) != list(range(players)):
        raise ValueError(f"match {match.pk}: seat rows do not cover seats 0..{players - 1}")


def is_cooperative(game_name: str) -> bool:
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
MATCH_COLUMNS = rows.columns(
    Match, ["id", "status", "claim_token", "game", "players", "tournament_id", "challenge_id"]
)
SEAT_COLUMNS = rows.columns(MatchSeat, ["id", "match_id", "seat", "bot_id"])
RATING_COLUMNS = rows.columns(Rating, ["id", "bot_id", "game", "rating", *_RATING_FIELDS_COUNTED])
_RATING_BOT = RATING_COLUMNS.index("bot_id")


_LOCK_MATCH_SQL = (
    f"SELECT {rows.select_list(MATCH_COLUMNS, 'm')}, {rows.select_list(SEAT_COLUMNS, 's')}"
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
    f"SELECT {', '.join(RATING_COLUMNS)} FROM arena_rating"
    " WHERE game = (SELECT game FROM arena_match WHERE id = %s)"
    " AND bot_id {seat_bots} ORDER BY bot_id{for_update}"
)
_SEAT_BOTS = "(SELECT bot_id FROM arena_matchseat WHERE match_id = %s)"


def lock_match_and_ratings(match_id: int) -> tuple[Match, list[MatchSeat], dict[int, Rating]]:
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
    width = len(MATCH_COLUMNS)
    match = rows.instance(Match, MATCH_COLUMNS, found[0][:width])
    seats = [
        rows.instance(MatchSeat, SEAT_COLUMNS, row[width:])
        for row in found
        if row[width] is not None
    ]
    ratings = {row[_RATING_BOT]: rows.instance(Rating, RATING_COLUMNS, row) for row in locked}
    return match, seats, ratings


def _lock_game_rating(game: str, players: int) -> GameRating:
    row = GameRating.objects.select_for_update().filter(game=game, players=players).first()
    if row is None:
        raise MissingRows(game, [], players)
    return row


@dataclass
class RatingMoves:
    """The rows a match moves, locked and updated in memory, for the writer to store."""

    ratings: list[Rating] = field(default_factory=list)
    before: dict[int, float] = field(default_factory=dict)
    game_rating: GameRating | None = None


def rate_match(
    match: Match,
    seats: Sequence[MatchSeat],
    ratings: dict[int, Rating],
    outcome: Outcome,
    cooperative: bool,
) -> RatingMoves:
    missing = sorted({s.bot_id for s in seats} - ratings.keys())
    if missing:
        raise MissingRows(match.game, missing)
    before = {bot_id: row.rating for bot_id, row in ratings.items()}
    seat_before = [before[s.bot_id] for s in seats]
    delta = dict.fromkeys(before, 0.0)
    game_row = None

    if cooperative:
        success = outcome.result.get("outcome") == "success"
        seat_success = [success and s.seat not in outcome.forfeits for s in seats]
        graded = team_outcome(outcome.result)
        seat_scores = [0.0 if s.seat in outcome.forfeits else graded for s in seats]
        game_row = _lock_game_rating(match.game, match.players)
        update = rate_cooperative(seat_before, game_row.rating, seat_scores)
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


MATCH_FIELDS = ["status", "finished_at", "record", "result", "decisions", "duration_seconds"]
MATCH_FIELDS += ["error", "rated"]
SEAT_FIELDS = ["rank", "score", "forfeit_reason", "stderr", "rating_before", "rating_after"]
RATING_FIELDS = ["rating", *_RATING_FIELDS_COUNTED]

# The seat and rating updates of a recorded match (or of a whole set: one row per seat and
# per rating either way), shared by results.py's `_WRITE_ALL_SQL` and set_results.py's statement.
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


def json_text(value: Any) -> str | None:
    # A JSONField stores Python None as SQL NULL; so does this. orjson: a match's record
    # in ~5 us instead of ~0.2 ms (it matters once a set makes matches cheap).
    if value is None:
        return None
    try:
        text = orjson.dumps(value)
    except TypeError:  # integers past 64 bits, non-string keys, a lone surrogate
        return json.dumps(clean_json(value))
    if b"\\u0000" in text:
        # jsonb refuses an escaped NUL too. `fill_result` cleans what bots wrote; this catches a
        # string that came another way (a scan of the bytes costs ~1 us a record).
        return orjson.dumps(clean_json(value)).decode()
    return text.decode()
