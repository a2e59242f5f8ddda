"""Rating maths with no ORM: Elo for ranked tables and for cooperative teams.

`arena.services.results` reads the rows, calls these functions with plain
numbers and writes the answers back in one transaction.
"""

from arena.ratings.elo_maths import (
    INITIAL_RATING,
    K_FACTOR,
    CooperativeUpdate,
    expected_score,
    rate_cooperative,
    rate_ranked,
    seat_outcome,
)
from arena.ratings.stats import wilson_interval

__all__ = [
    "INITIAL_RATING",
    "K_FACTOR",
    "CooperativeUpdate",
    "expected_score",
    "rate_cooperative",
    "rate_ranked",
    "seat_outcome",
    "wilson_interval",
]
