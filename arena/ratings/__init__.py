"""Rating maths with no ORM: Elo for ranked tables and for cooperative teams.

Beside the live Elo: whole-history skill (Plackett–Luce / Bradley–Terry MAP fits with
intervals, `whole_history`, `plackett_luce`), its cooperative counterpart
(`cooperative_fit`) and the challenge's pentanomial GSPRT (`sprt`); numpy and scipy.

(Leaderboard statistics such as the success rate's Wilson interval are in arena/stats.py.)

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
    team_outcome,
)

__all__ = [
    "INITIAL_RATING",
    "K_FACTOR",
    "CooperativeUpdate",
    "expected_score",
    "rate_cooperative",
    "rate_ranked",
    "seat_outcome",
    "team_outcome",
]
