"""A generalized SPRT on pentanomial pair scores, as fishtest does: "is version 2 better?".

A challenge plays pairs of games on one seed with the two versions swapping seats. In
each game the candidate scores 1 if it finished above the baseline, 1/2 level with it and
0 below; a pair's score is the mean of its two games: 0, 1/4, 1/2, 3/4 or 1. The counts
of those five pair scores are the pentanomial results (fishtest's LL, LD+DL, LW+DD+WL,
DW+WD, WW). Pairing the games on one seed cancels most of the luck of the deal, and
treating the pair as the unit keeps the test honest about the correlation it leaves.
(A cooperative game's pair is a table of each version's team on one seed; it scores 1,
1/2 or 0 as only the candidate's team, both or neither, or only the baseline's team
succeeded: arena/services/challenges.py.)

Hypotheses are in logistic Elo of the candidate over the baseline, H0: elo = elo0 and
H1: elo = elo1, each turned into an expected pair score s = 1 / (1 + 10^(-elo/400)).
The generalized log-likelihood ratio (fishtest's `LLR_logistic`, the "expectation"
statistic; Michel Van den Bergh's notes on the multinomial MLE with a fixed mean) is

    LLR = N * sum_i p_i * log(p1_i / p0_i),

where p is the empirical distribution of the N pair scores (a zero count replaced by
1e-3, as fishtest regularises) and p0, p1 are the distributions closest to p in the
likelihood sense with mean s0 and s1: p_s,i = p_i / (1 + x (a_i - s)), x the root of
sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0 (the "secular equation"). The test stops
when the LLR leaves (log(beta / (1 - alpha)), log((1 - beta) / alpha)).

Here the secular equation is solved by bisection over numpy arrays, so a simulation can
update thousands of runs at once (`llr` takes an (R, 5) array of counts).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from arena.stats import Z_95

PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
_REGULARISE = 1e-3
_BISECTIONS = 50


class Decision:
    CONTINUE = "running"
    ACCEPT = "accepted"  # H1: the candidate is better by elo1
    REJECT = "rejected"  # H0: it is not better than elo0
    INCONCLUSIVE = "inconclusive"  # max_games reached first


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR's stopping bounds (lower: accept H0; upper: accept H1), as fishtest's."""
    check_errors(alpha, beta)
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def check_errors(alpha: float, beta: float) -> None:
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise ValueError(f"{name} must be between 0 and 0.5 (exclusive), not {value}")


def elo_to_score(elo: float | NDArray[np.float64]) -> NDArray[np.float64]:
    """Expected score of a logistic Elo difference."""
    return np.asarray(1.0 / (1.0 + 10.0 ** (-np.asarray(elo, dtype=np.float64) / 400.0)))


def score_to_elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def pair_index(first: float, second: float) -> int:
    """The pentanomial cell of a pair from the candidate's two game scores (each 0, 1/2, 1)."""
    for score in (first, second):
        if score not in (0, 0.5, 1):
            raise ValueError(f"a game score must be 0, 0.5 or 1, not {score}")
    return round(2 * (first + second))


def game_score(candidate_rank: int, baseline_rank: int) -> float:
    """The candidate's score in one game from the two versions' ranks (1 = best)."""
    if candidate_rank < baseline_rank:
        return 1.0
    return 0.5 if candidate_rank == baseline_rank else 0.0


def _distribution(counts: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    regularised = np.where(counts == 0, _REGULARISE, counts)
    total = regularised.sum(axis=-1, keepdims=True)
    return regularised / total, total[..., 0]


def _closest_with_mean(p: NDArray[np.float64], s: float) -> NDArray[np.float64]:
    """The distribution on PAIR_SCORES with mean s closest to p (max likelihood), per row."""
    shifted = PAIR_SCORES - s  # straddles zero for 0 < s < 1
    low = np.full(p.shape[:-1], -1.0 / shifted.max())
    high = np.full(p.shape[:-1], -1.0 / shifted.min())
    # f(x) = sum p a / (1 + x a) decreases in x between the poles: bisect for its root.
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        value = (p * shifted / (1 + middle[..., None] * shifted)).sum(axis=-1)
        above = value > 0
        low = np.where(above, middle, low)
        high = np.where(above, high, middle)
    x = (low + high) / 2
    return np.asarray(p / (1 + x[..., None] * shifted))


def llr(counts: ArrayLike, elo0: float, elo1: float) -> NDArray[np.float64]:
    """Generalized LLR of H1 (elo1) against H0 (elo0) for pentanomial counts (..., 5)."""
    counts = np.asarray(counts, dtype=np.float64)
    if counts.shape[-1] != 5:
        raise ValueError("pentanomial counts have 5 cells")
    p, total = _distribution(counts)
    s0, s1 = float(elo_to_score(elo0)), float(elo_to_score(elo1))
    p0, p1 = _closest_with_mean(p, s0), _closest_with_mean(p, s1)
    result: NDArray[np.float64] = total * (p * (np.log(p1) - np.log(p0))).sum(axis=-1)
    return result


def decide(value: float, alpha: float, beta: float) -> str:
    lower, upper = bounds(alpha, beta)
    if value >= upper:
        return Decision.ACCEPT
    if value <= lower:
        return Decision.REJECT
    return Decision.CONTINUE


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float
    pairs: int


def elo_estimate(counts: ArrayLike) -> EloEstimate | None:
    """Elo of the candidate over the baseline with a 95% interval (normal, per pair).

    The mean pair score and its standard error over pairs (the pairs are the independent
    units), mapped through the logistic Elo curve; None before the first pair.
    """
    counts = np.asarray(counts, dtype=np.float64)
    pairs = int(counts.sum())
    if pairs == 0:
        return None
    p = counts / pairs
    mean = float(p @ PAIR_SCORES)
    spread = float(p @ (PAIR_SCORES - mean) ** 2)
    error = math.sqrt(spread / pairs)
    return EloEstimate(
        elo=score_to_elo(mean),
        low=score_to_elo(mean - Z_95 * error),
        high=score_to_elo(mean + Z_95 * error),
        pairs=pairs,
    )
