"""Checking the stored ratings against the match list: was every match rated exactly once?

`audit(game)` replays every rated match of one game from fresh ratings, in the order the
results were committed (the order of their rating-history rows), with the same maths the
workers use (`arena.ratings`), and compares with what is stored:

* each rated match moved each of its bots' ratings once (one history row per bot), and no
  unrated or unfinished match moved any;
* each rating's history is one unbroken chain (every change starts where the last ended)
  that ends at the stored rating, and its game count is the number of its changes;
* the replayed ratings equal the stored ones (and, for a cooperative game, the game's own
  rating at each player count).

Faults, retries and duplicate deliveries must leave all of this true: the soak test and the
fault tests call it, and an operator can (`manage.py audit_ratings`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection, transaction

import engine
from arena.models import GameRating, Match, MatchSeat, Rating, RatingChange
from arena.ratings import INITIAL_RATING, rate_cooperative, rate_ranked, team_outcome

TOLERANCE = 1e-6


@dataclass
class AuditReport:
    game: str
    matches: int = 0
    ratings: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def audit(game: str, max_problems: int = 20) -> AuditReport:
    """Audit one game from one snapshot: workers may go on recording while it reads."""
    # A transaction of its own sees one snapshot; inside a caller's, the caller's rules hold.
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic():
        if snapshot:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _audit(game, max_problems)


def _audit(game: str, max_problems: int) -> AuditReport:
    report = AuditReport(game)
    cooperative = engine.get_game(game).cooperative
    changes = list(
        RatingChange.objects.filter(rating__game=game)
        .order_by("id")
        .values_list("id", "match_id", "rating_id", "rating__bot_id", "before", "after")
    )
    _check_matches(game, changes, report)
    _check_chains(game, changes, report)
    _check_replay(game, cooperative, changes, report)
    del report.problems[max_problems:]
    return report


def _check_matches(game: str, changes: list[tuple], report: AuditReport) -> None:
    per_match: dict[int, list[int]] = defaultdict(list)
    for _id, match_id, rating_id, *_ in changes:
        per_match[match_id].append(rating_id)
    rated = dict(
        Match.objects.filter(game=game, rated=True, status=Match.Status.FINISHED).values_list(
            "id", "players"
        )
    )
    report.matches = len(rated)
    for match_id in sorted(per_match.keys() - rated.keys()):
        report.problems.append(f"match {match_id} moved ratings but is not a rated finished match")
    bots_of: dict[int, set[int]] = defaultdict(set)
    for match_id, bot_id in MatchSeat.objects.filter(match_id__in=list(rated)).values_list(
        "match_id", "bot_id"
    ):
        bots_of[match_id].add(bot_id)
    for match_id in sorted(rated):
        moved = per_match.get(match_id, [])
        if len(moved) != len(set(moved)):
            report.problems.append(f"match {match_id} moved a rating more than once")
        elif len(moved) != len(bots_of[match_id]):
            report.problems.append(
                f"match {match_id} moved {len(moved)} ratings for {len(bots_of[match_id])} bots"
            )


def _check_chains(game: str, changes: list[tuple], report: AuditReport) -> None:
    chains: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for _id, _match, rating_id, _bot, before, after in changes:
        chains[rating_id].append((before, after))
    stored = Rating.objects.filter(game=game).values_list("id", "rating", "games")
    for rating_id, value, games in stored:
        report.ratings += 1
        chain = chains.get(rating_id, [])
        if games != len(chain):
            report.problems.append(f"rating {rating_id}: {games} games, {len(chain)} changes")
        last = INITIAL_RATING if not chain else chain[0][0]
        for before, after in chain:
            if not math.isclose(before, last, abs_tol=TOLERANCE):
                report.problems.append(
                    f"rating {rating_id}: a change starts at {before}, not {last}"
                )
                break
            last = after
        if chain and not math.isclose(last, value, abs_tol=TOLERANCE):
            report.problems.append(f"rating {rating_id}: history ends at {last}, stored {value}")


def _check_replay(game: str, cooperative: bool, changes: list[tuple], report: AuditReport) -> None:
    order: list[int] = []
    seen: set[int] = set()
    for _id, match_id, *_ in changes:
        if match_id not in seen:
            seen.add(match_id)
            order.append(match_id)
    matches = Match.objects.filter(pk__in=order).in_bulk()
    seats_of: dict[int, list[MatchSeat]] = defaultdict(list)
    for seat in MatchSeat.objects.filter(match_id__in=order).order_by("match_id", "seat"):
        seats_of[seat.match_id].append(seat)
    ratings: dict[int, float] = {}
    game_ratings: dict[int, float] = {}
    for match_id in order:
        match, seats = matches[match_id], seats_of[match_id]
        before = [ratings.get(s.bot_id, INITIAL_RATING) for s in seats]
        if cooperative:
            graded = team_outcome(match.result or {})
            scores = [0.0 if s.forfeit_reason else graded for s in seats]
            current = game_ratings.get(match.players, INITIAL_RATING)
            update = rate_cooperative(before, current, scores)
            game_ratings[match.players] = update.game
            after = update.seats
        else:
            ranks = [s.rank for s in seats]
            after = rate_ranked(before, ranks, identities=[s.bot_id for s in seats])
        delta: dict[int, float] = defaultdict(float)
        for seat, old, new in zip(seats, before, after, strict=True):
            delta[seat.bot_id] += new - old
        for bot_id, moved in delta.items():
            ratings[bot_id] = ratings.get(bot_id, INITIAL_RATING) + moved
    stored = dict(Rating.objects.filter(game=game).values_list("bot_id", "rating"))
    for bot_id, value in sorted(ratings.items()):
        if not math.isclose(stored.get(bot_id, math.nan), value, abs_tol=TOLERANCE):
            report.problems.append(
                f"bot {bot_id}: replayed {value:.6f}, stored {stored.get(bot_id)}"
            )
    if cooperative:
        rows = GameRating.objects.filter(game=game).values_list("players", "rating")
        for players, value in rows:
            replayed = game_ratings.get(players, INITIAL_RATING)
            if not math.isclose(replayed, value, abs_tol=TOLERANCE):
                report.problems.append(
                    f"game rating at {players} players: replayed {replayed:.6f}, stored {value}"
                )
