"""Elo through the `elo` package, for ranked tables and for cooperative teams.

Ranked tables (any number of seats) decompose into pairwise games by rank: a
seat wins against every seat ranked below it, draws with every seat sharing its
rank and loses to every seat ranked above. All pairs are rated from the ratings
before the match (a simultaneous update), with K divided by players − 1 so a
table of five moves a rating about as much as one two-player game does.

Cooperative tables play against the game itself, which has its own rating per
player count (like a puzzle rating): each seat scores the table's graded outcome
(`team_outcome`: 1 for success, 0 for the worst failure, the game's own measure of
how far the team got in between) against the game, and the game's rating moves the
other way. A graded score, like a draw's half point, is what lets two teams that both
rarely succeed still move apart. The game faces the whole table at once, so its K is
divided by the number of seats: its change is minus the mean of the seats' changes.

Two seats held by the same bot are not rated against each other (self-play says
nothing about strength); the caller sums a bot's seat changes.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import elo

K_FACTOR = 32.0
INITIAL_RATING = 1500.0
# elo's beta is half the classic 400-point scale: 200 gives E = 1 / (1 + 10^(d/400)).
_BETA = 200


def _env(k_factor: float) -> elo.Elo:
    # rating_class=float: the package's own Rating classes are not needed, and
    # CountedRating.__repr__ fails on Python 3.11.
    return elo.Elo(k_factor=k_factor, rating_class=float, initial=INITIAL_RATING, beta=_BETA)


def expected_score(rating: float, other: float) -> float:
    """The chance-like score `rating` is expected to take from `other` (0..1)."""
    return float(_env(K_FACTOR).expect(float(rating), float(other)))


def seat_outcome(ranks: Sequence[int], seat: int) -> str:
    """ "win", "draw" or "loss" for a seat's record in a ranked match.

    A win is first place not shared by the whole table; a draw is a table where
    every seat shares one rank; anything else is a loss.
    """
    if len(set(ranks)) == 1:
        return "draw"
    return "win" if ranks[seat] == 1 else "loss"


def _check(ratings: Sequence[float], size: int, what: str) -> None:
    if len(ratings) != size:
        raise ValueError(f"{len(ratings)} ratings for {size} {what}")


def rate_ranked(
    ratings: Sequence[float],
    ranks: Sequence[int],
    identities: Sequence[Hashable] | None = None,
    k_factor: float = K_FACTOR,
) -> list[float]:
    """New rating per seat after a ranked match (1 = best, ties share a rank)."""
    players = len(ranks)
    _check(ratings, players, "seats")
    if players < 2:
        return [float(r) for r in ratings]
    ids = list(identities) if identities is not None else list(range(players))
    _check(ids, players, "seats")
    env = _env(k_factor / (players - 1))
    updated = []
    for seat in range(players):
        series = []
        for other in range(players):
            if other == seat or ids[other] == ids[seat]:
                continue
            if ranks[seat] < ranks[other]:
                score = elo.WIN
            elif ranks[seat] == ranks[other]:
                score = elo.DRAW
            else:
                score = elo.LOSS
            series.append((score, float(ratings[other])))
        updated.append(float(env.rate(float(ratings[seat]), series)) if series else ratings[seat])
    return [float(r) for r in updated]


def team_outcome(result: Mapping[str, object]) -> float:
    """The score (0..1) a cooperative table is rated on, from its result.

    A game that grades its outcome says so in `progress` (Moon Adventure: how far the
    team got toward the rulebook's end conditions, E-moon_adventure-14); otherwise, and for
    records from before a game graded them (or a value outside 0..1), success is 1 and
    failure 0.
    """
    progress = result.get("progress")
    if isinstance(progress, bool) or not isinstance(progress, int | float):
        progress = math.nan
    if math.isfinite(progress) and 0 <= progress <= 1:
        return float(progress)
    return 1.0 if result.get("outcome") == "success" else 0.0


@dataclass(frozen=True)
class CooperativeUpdate:
    seats: list[float]
    game: float


def rate_cooperative(
    ratings: Sequence[float],
    game_rating: float,
    outcomes: Sequence[float],
    k_factor: float = K_FACTOR,
) -> CooperativeUpdate:
    """New seat ratings and game rating after a cooperative match.

    `outcomes[seat]` is the score (0..1, a bool counts as 1 or 0) that seat takes from
    the game: the table's `team_outcome`, except that a seat which forfeited scores 0.
    """
    players = len(outcomes)
    _check(ratings, players, "seats")
    scores = [float(o) for o in outcomes]
    if any(not 0.0 <= score <= 1.0 for score in scores):
        raise ValueError(f"cooperative outcomes must lie in 0..1, not {scores}")
    seat_env = _env(k_factor)
    seats = [
        float(seat_env.rate(float(r), [(score, float(game_rating))]))
        for r, score in zip(ratings, scores, strict=True)
    ]
    game_env = _env(k_factor / max(players, 1))
    game = float(
        game_env.rate(
            float(game_rating),
            [(1.0 - score, float(r)) for r, score in zip(ratings, scores, strict=True)],
        )
    )
    return CooperativeUpdate(seats=seats, game=game)
