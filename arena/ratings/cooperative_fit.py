"""Whole-history skill for a cooperative game: each bot's contribution to its teams.

Two models over every rated table of the game, each with the team's seats averaged (so a
contribution means the same at any player count) and one intercept per player count (the
game's own difficulty there):

- outcome: logistic regression on the table's graded outcome y in 0..1 (1 success, 0 the
  worst failure, the game's measure of how far the team got in between:
  `arena.ratings.elo_maths.team_outcome`), E[y] = sigmoid(b_k + mean of the seats'
  theta), fitted by the Bernoulli quasi-likelihood (a fractional logit, Papke and
  Wooldridge 1996: a graded score counts like a draw's half point in Bradley–Terry). With
  y = success alone, two teams that both never succeed have the same likelihood and the
  same skill; the graded outcome still tells them apart. The thetas are on the Elo scale
  like the competitive fit (400 / ln 10 points per unit, anchored so the mean fitted bot
  is 1500), with the same weak Gaussian prior, so the skill reads like the live Elo
  against the game: +100 over another bot is about the odds of outcome a team of it has
  over a team of the other against the same game. Fitted by Newton's method; the
  interval is the 95% Wald interval for theta_i minus the mean theta, from the observed
  information scaled by the Pearson dispersion (quasi-likelihood, McCullagh and Nelder
  ch. 9): a graded outcome varies less than a success or failure with the same mean, so
  its tables tell more. The dispersion is capped at 1 (a variable in 0..1 never varies
  more than the Bernoulli one) and is 1 when every outcome is a plain success/failure.
- team score: ridge regression, score = c_k + mean of the seats' gamma + noise, with the
  prior's precision scaled by the residual variance. `contribution` is gamma_i minus the
  mean gamma in team-score points (what the bot adds to a team's score, compared with
  the average bot), with a 95% interval from the posterior covariance.

No ORM; the service passes one row per seat and one per table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse

from arena.ratings.plackett_luce import FloatArray
from arena.ratings.whole_history import (
    DEFAULT_PRIOR_SD_ELO,
    ELO_PER_UNIT,
    Z_95,
    prior_precision,
    to_elo,
)

# Intercepts get a very weak prior: only there to keep a game nobody ever beat finite.
_INTERCEPT_PRECISION = 1e-4
_TOLERANCE = 1e-10
_MAX_ITERATIONS = 100


@dataclass(frozen=True)
class CooperativeFit:
    skill: FloatArray  # Elo scale, outcome model, mean 1500
    low: FloatArray
    high: FloatArray
    contribution: FloatArray  # team-score points over the mean bot
    contribution_low: FloatArray
    contribution_high: FloatArray
    games: FloatArray
    theta: FloatArray  # the outcome model's log-odds per bot (warm start)


def fit_cooperative(
    n_items: int,
    seat_table: ArrayLike,
    seat_item: ArrayLike,
    outcome: ArrayLike,
    score: ArrayLike,
    table_players: ArrayLike,
    prior_sd_elo: float = DEFAULT_PRIOR_SD_ELO,
    start: FloatArray | None = None,
) -> CooperativeFit:
    """Fit both models. Tables are numbered 0..m-1; seat rows point at their table;
    `outcome` per table in 0..1 (a bool for success alone)."""
    table = np.asarray(seat_table, dtype=np.int64)
    item = np.asarray(seat_item, dtype=np.int64)
    won = np.asarray(outcome, dtype=np.float64)
    if np.any((won < 0) | (won > 1)):
        raise ValueError("table outcomes must lie in 0..1")
    points = np.asarray(score, dtype=np.float64)
    players = np.asarray(table_players, dtype=np.int64)
    m = len(won)
    counts = np.bincount(table, minlength=m).astype(np.float64)
    sizes, size_of_table = np.unique(players, return_inverse=True)
    # Design: each seat adds 1/(seats at its table) to its bot's column; one column per
    # player count for the intercept.
    design = sparse.hstack(
        [
            sparse.csr_matrix((1.0 / counts[table], (table, item)), shape=(m, n_items)),
            sparse.csr_matrix((np.ones(m), (np.arange(m), size_of_table)), shape=(m, len(sizes))),
        ]
    ).tocsr()
    precision = np.r_[
        np.full(n_items, prior_precision(prior_sd_elo)), np.full(len(sizes), _INTERCEPT_PRECISION)
    ]
    games = np.bincount(item, minlength=n_items).astype(np.float64)

    theta, covariance = _logistic(design, won, precision, start, n_items)
    covariance = covariance * _dispersion(design, won, theta)
    sd = np.sqrt(_anchored_variance(covariance[:n_items, :n_items])) * ELO_PER_UNIT
    skill = to_elo(theta[:n_items]) if n_items else np.zeros(0)

    gamma, gamma_covariance = _ridge(design, points, precision)
    contribution = gamma[:n_items] - gamma[:n_items].mean() if n_items else np.zeros(0)
    gamma_sd = np.sqrt(_anchored_variance(gamma_covariance[:n_items, :n_items]))
    return CooperativeFit(
        skill=skill,
        low=skill - Z_95 * sd,
        high=skill + Z_95 * sd,
        contribution=contribution,
        contribution_low=contribution - Z_95 * gamma_sd,
        contribution_high=contribution + Z_95 * gamma_sd,
        games=games,
        theta=theta[:n_items],
    )


def _logistic(
    design: sparse.csr_matrix,
    won: FloatArray,
    precision: FloatArray,
    start: FloatArray | None,
    n_items: int,
) -> tuple[FloatArray, FloatArray]:
    """MAP of the outcome model by Newton; returns (parameters, inverse Hessian)."""
    width = design.shape[1]
    beta = np.zeros(width)
    if start is not None and len(start) == n_items:
        beta[:n_items] = start
    hessian = np.diag(precision)
    for _ in range(_MAX_ITERATIONS):
        probability = 1.0 / (1.0 + np.exp(-(design @ beta)))
        grad = design.T @ (probability - won) + precision * beta
        weights = probability * (1 - probability)
        hessian = (design.T @ sparse.diags(weights) @ design).toarray() + np.diag(precision)
        step = np.linalg.solve(hessian, grad)
        beta = beta - step
        if float(grad @ step) / 2 < _TOLERANCE:
            break
    return beta, np.linalg.inv(hessian)


# Below this the tables barely vary around their fit: keep the intervals from vanishing.
_MIN_DISPERSION = 0.05


def _dispersion(design: sparse.csr_matrix, outcome: FloatArray, beta: FloatArray) -> float:
    """Pearson's X^2 / (tables - parameters), capped at 1; 1 for plain success/failure."""
    residual_df = design.shape[0] - design.shape[1]
    graded = np.any((outcome > 0) & (outcome < 1))
    if not graded or residual_df <= 0:
        return 1.0
    mean = 1.0 / (1.0 + np.exp(-(design @ beta)))
    variance = np.maximum(mean * (1 - mean), 1e-12)
    pearson = float(np.sum((outcome - mean) ** 2 / variance)) / residual_df
    return min(1.0, max(_MIN_DISPERSION, pearson))


def _ridge(
    design: sparse.csr_matrix, points: FloatArray, precision: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Posterior mean and covariance of the team-score model (noise variance estimated)."""
    gram = (design.T @ design).toarray()
    right = design.T @ points
    # First pass with unit noise gives the residual variance that scales the prior.
    noise = 1.0
    for _ in range(2):
        system = gram + noise * np.diag(precision)
        gamma = np.linalg.solve(system, right)
        residual = points - design @ gamma
        noise = max(float(residual @ residual) / max(len(points) - 1, 1), 1e-9)
    return gamma, noise * np.linalg.inv(gram + noise * np.diag(precision))


def _anchored_variance(covariance: FloatArray) -> FloatArray:
    """Var(x_i - mean(x)) for a covariance matrix of x."""
    n = covariance.shape[0]
    if n == 0:
        return np.zeros(0)
    row = covariance.mean(axis=1)
    variance: FloatArray = np.diag(covariance) - 2 * row + row.mean()
    return np.maximum(variance, 0.0)
