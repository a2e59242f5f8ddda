"""Whole-history skill: a Plackett–Luce MAP fit over every rated table, with 95% intervals.

The model and its tie rule are in arena/ratings/plackett_luce.py (Bradley–Terry for two
seats). The fit maximises the log-likelihood plus a weak Gaussian prior, theta ~ N(0,
sd^2) with sd = `prior_sd_elo` / (400 / ln 10) in log-strength units (400 Elo points by
default), so a bot that won or lost every game keeps a finite rating. The prior is the
same as choix's `alpha` regularisation with alpha = 1 / (2 sd^2).

Solver: Newton's method with a backtracking line search on the dense Hessian (n up to a
few thousand bots: one Cholesky factorisation per iteration), then "chord" steps that
reuse the factorisation, warm-started from the last fit (`fit_map`). The observed
information used for the intervals is the Hessian at the last iterate where it was
computed: at most a few small steps from the optimum (for a warm start, the last fit).

On the boundary (`SkillFit`) everything is in Elo points, anchored so that the mean of
the fitted bots is 1500:

- `low`, `high`: 95% Wald interval from the observed information (the inverse Hessian),
  for theta_i minus the mean of all thetas (what the anchor subtracts);
- `rank_low`, `rank_high`: the 2.5% and 97.5% quantiles of each bot's rank (1 = best)
  over draws from the fit's normal approximation N(theta, H^-1), with a fixed seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import blas, cho_solve, lapack

from arena.ratings.plackett_luce import (
    FloatArray,
    IntArray,
    Orderings,
    gradient,
    gradient_and_hessian,
    objective,
)

ELO_PER_UNIT = 400.0 / math.log(10.0)  # 173.7 Elo points per unit of log-strength
ANCHOR = 1500.0
DEFAULT_PRIOR_SD_ELO = 400.0
Z_95 = 1.959963984540054
RANK_DRAWS = 1000
# Up to this many bots the intervals use the Hessian recomputed at the optimum; above,
# the one of the solver's last iteration (a few chord steps away), to save a factorisation.
EXACT_INFORMATION_ITEMS = 2000
# Newton stops when half the Newton decrement (the predicted gain in log-posterior) is
# below this: ~1e-5 Elo on the strengths.
TOLERANCE = 1e-10
MAX_ITERATIONS = 100


@dataclass(frozen=True)
class SkillFit:
    """A whole-history fit; arrays are indexed like the items of the `Orderings`."""

    theta: FloatArray  # MAP log-strengths (mean zero), the warm start of the next fit
    skill: FloatArray  # Elo points, mean 1500
    low: FloatArray
    high: FloatArray
    sd: FloatArray  # standard error in Elo points
    rank_low: IntArray
    rank_high: IntArray
    games: FloatArray  # tables each bot sat at
    iterations: int
    converged: bool


# A skill is provisional while its fit has seen the bot at fewer tables than this, or
# while its 95% interval is wider than this many Elo points (±200: lichess marks a rating
# provisional from a Glicko deviation of 110, ±216 at 95%). Either way, its place on the
# leaderboard may still move a long way.
PROVISIONAL_GAMES = 20
PROVISIONAL_WIDTH_ELO = 400.0


def is_provisional(games: float | None, low: float | None, high: float | None) -> bool:
    """Too few games in the fit, or too wide an interval; always for a bot not fitted yet."""
    if games is None or low is None or high is None:
        return True
    return games < PROVISIONAL_GAMES or high - low > PROVISIONAL_WIDTH_ELO


def prior_precision(prior_sd_elo: float) -> float:
    if not prior_sd_elo > 0:
        raise ValueError("prior_sd_elo must be positive")
    return (ELO_PER_UNIT / prior_sd_elo) ** 2


def fit_skills(
    data: Orderings,
    start: FloatArray | None = None,
    prior_sd_elo: float = DEFAULT_PRIOR_SD_ELO,
    rank_draws: int = RANK_DRAWS,
    seed: int = 0,
    tolerance: float = TOLERANCE,
) -> SkillFit:
    """Fit, then intervals for the rating and the rank of every item."""
    n = data.n_items
    if n == 0:
        empty = np.zeros(0)
        none = np.zeros(0, dtype=np.int64)
        return SkillFit(empty, empty, empty, empty, empty, none, none, empty, 0, True)
    prior = prior_precision(prior_sd_elo)
    theta, factor, iterations, converged = fit_map(data, prior, start, tolerance)
    if n <= EXACT_INFORMATION_ITEMS:
        # Cheap at this size: the information at the optimum itself, not at the last
        # iterate where the Newton loop factorised it.
        factor = np.linalg.cholesky(gradient_and_hessian(theta, data, prior, lower_only=True)[1])
    inverse = inverse_factor(factor)
    del factor
    sd = np.sqrt(anchored_variance(inverse)) * ELO_PER_UNIT
    skill = to_elo(theta)
    rank_low, rank_high = rank_intervals(theta, inverse, rank_draws, seed)
    return SkillFit(
        theta=theta,
        skill=skill,
        low=skill - Z_95 * sd,
        high=skill + Z_95 * sd,
        sd=sd,
        rank_low=rank_low,
        rank_high=rank_high,
        games=data.games_per_item(),
        iterations=iterations,
        converged=converged,
    )


def fit_map(
    data: Orderings,
    prior: float,
    start: FloatArray | None = None,
    tolerance: float = TOLERANCE,
    max_iterations: int = MAX_ITERATIONS,
) -> tuple[FloatArray, FloatArray, int, bool]:
    """MAP log-strengths by damped Newton; returns (theta, Cholesky factor, iterations, ok).

    The factor is the lower Cholesky factor L of the Hessian (H = L L^T, upper triangle
    zero) at the last iterate where the Hessian was computed. It is row-major; solves pass
    its transpose, the column-major upper factor LAPACK reads without a copy. After each Newton step,
    "chord" steps reuse that factor (theta -= H_old^-1 g, one gradient each) while they
    shrink the decrement fast; a warm start usually converges that way with a single
    Hessian and factorisation, the costly parts at thousands of bots.
    """
    n = data.n_items
    theta = np.zeros(n) if start is None else np.array(start, dtype=np.float64)
    if theta.shape != (n,):
        raise ValueError(f"start has shape {theta.shape}, expected ({n},)")
    theta -= theta.mean()  # the MAP has mean zero (every stage's gradient sums to zero)
    for iteration in range(1, max_iterations + 1):
        grad, hessian = gradient_and_hessian(theta, data, prior, lower_only=True)
        factor = np.linalg.cholesky(hessian)  # reads the lower triangle only
        del hessian
        step = cho_solve((factor.T, False), grad, check_finite=False)
        decrement = float(grad @ step)
        if decrement / 2 < tolerance:
            return theta, factor, iteration, True
        theta = _line_search(data, prior, theta, step, decrement)
        for _ in range(_MAX_CHORD_STEPS):
            grad = gradient(theta, data, prior)
            step = cho_solve((factor.T, False), grad, check_finite=False)
            previous, decrement = decrement, float(grad @ step)
            if decrement / 2 < tolerance:
                return theta, factor, iteration, True
            if decrement > 0.1 * previous:
                break  # the old Hessian no longer fits: factorise a new one
            theta = theta - step
    return theta, factor, max_iterations, False


# Chord steps after each Newton step; each must cut the decrement tenfold to continue.
_MAX_CHORD_STEPS = 8


def _line_search(
    data: Orderings, prior: float, theta: FloatArray, step: FloatArray, decrement: float
) -> FloatArray:
    """Backtracking (Armijo) along the Newton step; a full step is tried first."""
    before = objective(theta, data, prior)
    size = 1.0
    while size > 1e-10:
        candidate = theta - size * step
        if objective(candidate, data, prior) <= before - 0.25 * size * decrement:
            return candidate
        size /= 2
    return theta - size * step


def inverse_factor(factor: FloatArray) -> FloatArray:
    """L^-1 for the lower Cholesky factor L (LAPACK dtrtri), so that H^-1 = L^-T L^-1."""
    # LAPACK works on column-major arrays: the row-major L is the column-major L^T, an
    # upper factor, so passing that view inverts it without copying 200 MB both ways.
    inverse, info = lapack.dtrtri(factor.T, lower=False, overwrite_c=False)
    if info != 0:
        raise np.linalg.LinAlgError(f"dtrtri failed ({info})")
    return np.asarray(inverse).T


def anchored_variance(inverse: FloatArray) -> FloatArray:
    """Var(theta_i - mean(theta)) in log-strength^2, from M = L^-1 (S = H^-1 = M^T M).

    Var = S_ii - 2 (S 1)_i / n + 1^T S 1 / n^2; S_ii is the squared norm of M's column i.
    """
    n = inverse.shape[0]
    diagonal = np.einsum("ij,ij->j", inverse, inverse)
    row_sums = inverse.T @ (inverse @ np.ones(n))
    variance: FloatArray = diagonal - 2 * row_sums / n + row_sums.sum() / (n * n)
    return np.maximum(variance, 0.0)


def rank_intervals(
    theta: FloatArray, inverse: FloatArray, draws: int, seed: int
) -> tuple[IntArray, IntArray]:
    """95% rank intervals (1 = best) from draws of N(theta, H^-1): theta + L^-T z."""
    if draws <= 0:
        ranks = _ranks(theta[None, :])[0]
        return ranks, ranks
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal((draws, len(theta)))
    # One draw per row (rows are contiguous, so sorting them is fast): z L^-1, computed as
    # (L^-T z^T)^T with BLAS's triangular product on transposed views (no copies, half
    # the work of a general product).
    product = blas.dtrmm(1.0, inverse.T, noise.T, side=0, lower=0, overwrite_b=1)
    samples = theta[None, :] + product.T
    ranks = _ranks(samples)
    low = np.quantile(ranks, 0.025, axis=0, method="lower").astype(np.int64)
    high = np.quantile(ranks, 0.975, axis=0, method="higher").astype(np.int64)
    return low, high


def _ranks(samples: FloatArray) -> IntArray:
    """Rank of each column within each row, 1 = highest."""
    order = np.argsort(-samples, axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, samples.shape[1] + 1)[None, :], axis=1)
    return ranks.astype(np.int64)


def to_elo(theta: FloatArray) -> FloatArray:
    """Log-strengths to Elo points anchored at a mean of 1500."""
    return ANCHOR + (theta - theta.mean()) * ELO_PER_UNIT
