"""Which table teaches the fit the most about the order (pure numpy, no ORM).

The whole-history fit (arena/ratings/whole_history.py) is a Plackett–Luce MAP fit; its
posterior covariance is the inverse of its Hessian H. One more table T of bots at
strengths theta adds the table's expected Fisher information J_T (a k x k matrix, rank
k - 1) to H, so the covariance after it is known before it is played (Woodbury):

    S' = S - S_T J (I + S_TT J)^-1 S_T^T        (S_T: the columns of S for T's bots)

The ranking error the leaderboard cares about is the expected number of mis-ordered
pairs, sum over i < j of Phi(-|gap_ij| / sqrt(V_ij)), V_ij = Var(theta_i - theta_j) =
S_ii + S_jj - 2 S_ij: the covariance matters (two bots measured against the same
opponents are ordered more surely than their sds say). A table's value is the expected
drop of that sum. `best_table` returns the candidate with the largest drop per match.

The ladder benchmark's oracle feeds it the true strengths (true gaps, true information);
the ladder's selection feeds it the fit's estimates.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr

FloatArray = NDArray[np.float64]


def table_information(theta: FloatArray) -> FloatArray:
    """Expected Plackett–Luce Fisher information of tables, (m, k) strengths -> (m, k, k).

    Stage by stage the next place goes to a remaining seat with probability softmax(theta)
    over the remaining seats, and that stage's information is diag(p) - p p^T over them;
    the expectation runs over the seats placed before (every ordered prefix, weighted by
    its probability). Two seats: p (1 - p) [[1, -1], [-1, 1]], Bradley–Terry.
    """
    theta = np.asarray(theta, dtype=float)
    m, k = theta.shape
    e = np.exp(theta - theta.max(axis=1, keepdims=True))
    information = np.zeros((m, k, k))
    for length in range(k - 1):
        for prefix in itertools.permutations(range(k), length):
            remaining = np.ones(k, dtype=bool)
            weight = np.ones(m)
            for seat in prefix:
                weight = weight * e[:, seat] / (e * remaining).sum(axis=1)
                remaining[seat] = False
            p = e * remaining
            p = p / p.sum(axis=1, keepdims=True)
            stage = np.einsum("mi,ij->mij", p, np.eye(k)) - p[:, :, None] * p[:, None, :]
            information += weight[:, None, None] * stage
    return information


def covariance(
    n: int, tables: Sequence[Sequence[int]], theta: FloatArray, prior: float
) -> FloatArray:
    """The inverse of prior I + the expected information of the tables at theta."""
    hessian = prior * np.eye(n)
    by_size: dict[int, list[Sequence[int]]] = {}
    for table in tables:
        by_size.setdefault(len(table), []).append(table)
    for k, group in by_size.items():
        index = np.array(group, dtype=np.int64)
        blocks = table_information(theta[index])
        rows = np.repeat(index[:, :, None], k, axis=2)
        columns = np.repeat(index[:, None, :], k, axis=1)
        np.add.at(hessian, (rows.ravel(), columns.ravel()), blocks.ravel())
    return np.asarray(np.linalg.inv(hessian))


def pair_variances(cov: FloatArray) -> FloatArray:
    """V_ij = Var(theta_i - theta_j) for every pair, (n, n)."""
    d = np.diag(cov)
    return np.asarray(d[:, None] + d[None, :] - 2 * cov)


def misordered(gaps: FloatArray, variances: FloatArray) -> float:
    """Expected mis-ordered pairs: sum over i < j of Phi(-|gap_ij| / sd_ij)."""
    upper = np.triu_indices(gaps.shape[0], 1)
    sd = np.sqrt(np.maximum(variances[upper], 1e-12))
    return float(ndtr(-np.abs(gaps[upper]) / sd).sum())


def table_gains(
    candidates: NDArray[np.int64],
    theta: FloatArray,
    gaps: FloatArray,
    cov: FloatArray,
    weights: FloatArray | None = None,
    information: FloatArray | None = None,
) -> FloatArray:
    """The expected drop in mis-ordered pairs from one more game at each candidate table.

    `candidates` is (m, k) bot indices; `theta` the strengths the information is taken at
    (or `information`, the candidates' (m, k, k) `table_information`, precomputed);
    `gaps` the (n, n) strength differences the mis-ordering is judged by; `weights` an
    optional (n, n) weight per pair.
    """
    m, k = candidates.shape
    n = cov.shape[0]
    upper = np.triu_indices(n, 1)
    gap = np.abs(gaps[upper])
    variances = pair_variances(cov)[upper]
    weight = np.ones(len(gap)) if weights is None else weights[upper]
    before = weight @ ndtr(-gap / np.sqrt(np.maximum(variances, 1e-12)))
    gains = np.empty(m)
    # In chunks: each candidate touches all n^2 pairs.
    step = max(1, 400_000 // max(1, n * n))
    identity = np.eye(k)
    for start in range(0, m, step):
        rows = candidates[start : start + step]
        j = (
            table_information(theta[rows])
            if information is None
            else information[start : start + step]
        )
        s_t = cov[:, rows].transpose(1, 0, 2)  # (c, n, k)
        s_tt = cov[rows[:, :, None], rows[:, None, :]]  # (c, k, k)
        middle = j @ np.linalg.inv(identity[None] + s_tt @ j)  # J (I + S_TT J)^-1
        # Only the differences along each pair matter: project S_T onto the pairs first.
        diff = s_t[:, upper[0], :] - s_t[:, upper[1], :]  # (c, pairs, k)
        dv = np.einsum("cpa,cpa->cp", diff @ middle, diff)
        after = variances[None, :] - dv
        gains[start : start + len(rows)] = (
            before - ndtr(-gap[None, :] / np.sqrt(np.maximum(after, 1e-12))) @ weight
        )
    return gains


def all_tables(n: int, k: int) -> NDArray[np.int64]:
    """Every set of k of n bots, (C(n, k), k)."""
    return np.array(list(itertools.combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


def best_table(
    candidates: NDArray[np.int64],
    theta: FloatArray,
    gaps: FloatArray,
    cov: FloatArray,
    rng_tiebreak: FloatArray | None = None,
    weights: FloatArray | None = None,
    information: FloatArray | None = None,
) -> tuple[int, ...]:
    """The candidate table whose one more game cuts the expected mis-ordering most."""
    gains = table_gains(candidates, theta, gaps, cov, weights, information)
    if rng_tiebreak is not None:
        gains = gains + 1e-12 * rng_tiebreak[: len(gains)]
    return tuple(int(b) for b in candidates[int(np.argmax(gains))])


def information_shares(theta: FloatArray, k: int) -> tuple[float, float]:
    """Fisher information (trace) of a random table and of a table of true neighbours,
    each over an even table's (the most a k-table carries): how much choosing can add."""
    even = float(np.trace(table_information(np.zeros((1, k)))[0]))
    tables = all_tables(len(theta), k)
    random_share = np.trace(table_information(theta[tables]), axis1=1, axis2=2).mean() / even
    order = np.argsort(theta)
    near = np.array([order[i : i + k] for i in range(len(theta) - k + 1)])
    near_share = np.trace(table_information(theta[near]), axis1=1, axis2=2).mean() / even
    return float(random_share), float(near_share)


def elo_to_theta(elo: Sequence[float] | FloatArray) -> FloatArray:
    return np.asarray(elo, dtype=float) / (400.0 / math.log(10.0))
