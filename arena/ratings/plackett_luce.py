"""Plackett–Luce likelihood over weighted finishing orders, as arrays (no ORM, no loops per match).

The model (Plackett 1975, Luce 1959; Hunter 2004 for its MM form): a table's finishing
order is built best first, and at each stage the next place goes to one of the seats still
unplaced with probability proportional to exp(theta) of its bot. A two-seat table is
Bradley–Terry. theta is in log-strength units (natural log); the Elo scale is
400 / ln 10 points per unit, applied by arena/ratings/whole_history.py.

Ties: a tied group of t seats is split into its t! possible orders, each weighted 1/t!
(the expected log-likelihood over a uniformly random tie break). A two-seat draw is then
half a win and half a loss, exactly like the live Elo's draw. A table where every seat
ties still pulls its bots' strengths together, as a draw does.

Everything is grouped by table size k: an (m, k) array of item indices best first and
(m,) weights. The negative log-posterior (a Gaussian prior of precision `prior` on each
theta), its gradient and its Hessian are computed with numpy over whole groups; the
Hessian is accumulated into a dense (n, n) array with `np.bincount`, chunk by chunk to
bound memory.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

# Rows per chunk when the Hessian is accumulated: bounds the temporaries to ~100 MB.
_CHUNK_ROWS = 200_000
# A tied group larger than this is not expanded into its t! orders (720 rows for one
# table): its seats are ordered by their position in the input instead. Board-game
# tables have at most 5 seats, so this never triggers in the arena.
_MAX_TIE_EXPANSION = 6


@dataclass(frozen=True)
class Orderings:
    """Weighted finishing orders of `n_items` items, grouped by table size.

    `groups[k]` is (order, weight): order is an (m, k) int64 array of item indices, best
    first; weight is an (m,) float64 array (1 for an untied table, 1/t! per tie order).
    """

    n_items: int
    groups: dict[int, tuple[IntArray, FloatArray]]

    @property
    def tables(self) -> float:
        """The number of tables (sum of weights)."""
        return float(sum(w.sum() for _, w in self.groups.values()))

    def games_per_item(self) -> FloatArray:
        """Tables each item sat at (weighted, so a tie expanded into orders counts once)."""
        counts = np.zeros(self.n_items)
        for order, weight in self.groups.values():
            counts += np.bincount(
                order.ravel(), weights=np.repeat(weight, order.shape[1]), minlength=self.n_items
            )
        return counts


def from_ranked_tables(n_items: int, tables: Iterable[Sequence[tuple[int, int]]]) -> Orderings:
    """Orderings from tables given as (item, rank) per seat, rank 1 = best, ties share a rank.

    Convenient for tests and small data; the service uses `from_seat_arrays`.
    """
    matches: list[int] = []
    items: list[int] = []
    ranks: list[int] = []
    for number, table in enumerate(tables):
        for item, rank in table:
            matches.append(number)
            items.append(item)
            ranks.append(rank)
    return from_seat_arrays(n_items, np.array(matches), np.array(items), np.array(ranks))


def from_seat_arrays(
    n_items: int, match: NDArray[np.integer], item: NDArray[np.integer], rank: NDArray[np.integer]
) -> Orderings:
    """Orderings from one row per seat: its match key, its item index and its rank.

    Vectorised: seats are sorted by (match, rank) once; untied tables of each size become
    one reshaped array. Only tables with a tie go through Python (to expand their orders).
    Tables with fewer than two seats carry no information and are dropped.
    """
    match = np.asarray(match, dtype=np.int64)
    item = np.asarray(item, dtype=np.int64)
    rank = np.asarray(rank, dtype=np.int64)
    if not (len(match) == len(item) == len(rank)):
        raise ValueError("match, item and rank must have the same length")
    if len(item) and (item.min() < 0 or item.max() >= n_items):
        raise ValueError(f"item indices must be within 0..{n_items - 1}")
    by = np.lexsort((rank, match))
    match, item, rank = match[by], item[by], rank[by]
    starts = np.flatnonzero(np.r_[True, match[1:] != match[:-1]]) if len(match) else np.array([])
    sizes = np.diff(np.r_[starts, len(match)]).astype(np.int64)
    table_of_seat = np.repeat(np.arange(len(starts)), sizes)
    tied_seat = np.r_[False, (rank[1:] == rank[:-1]) & (match[1:] == match[:-1])]
    tied_table = np.zeros(len(starts), dtype=bool)
    tied_table[table_of_seat[tied_seat]] = True

    collected: dict[int, list[tuple[IntArray, FloatArray]]] = {}
    for size in np.unique(sizes):
        k = int(size)
        if k < 2:
            continue
        chosen = np.flatnonzero((sizes == k) & ~tied_table)
        if len(chosen):
            index = starts[chosen][:, None] + np.arange(k)[None, :]
            collected.setdefault(k, []).append((item[index], np.ones(len(chosen))))
    for table in np.flatnonzero(tied_table):
        begin, k = int(starts[table]), int(sizes[table])
        if k < 2:
            continue
        orders, weight = _tie_orders(item[begin : begin + k], rank[begin : begin + k])
        collected.setdefault(k, []).append((orders, np.full(len(orders), weight)))
    groups = {
        k: (np.concatenate([o for o, _ in parts]), np.concatenate([w for _, w in parts]))
        for k, parts in sorted(collected.items())
    }
    return Orderings(n_items, groups)


def _tie_orders(items: IntArray, ranks: IntArray) -> tuple[IntArray, float]:
    """Every order of one table consistent with its ranks, and the weight of each."""
    blocks: list[list[list[int]]] = []
    for _, group in itertools.groupby(
        zip(ranks.tolist(), items.tolist(), strict=True), key=lambda x: x[0]
    ):
        members = [member for _, member in group]
        if len(members) > _MAX_TIE_EXPANSION:
            blocks.append([members])
        else:
            blocks.append([list(p) for p in itertools.permutations(members)])
    orders = [sum(choice, []) for choice in itertools.product(*blocks)]
    return np.array(orders, dtype=np.int64), 1.0 / len(orders)


# ----- the objective, its gradient and Hessian ------------------------------------------------


def _stage_terms(theta: FloatArray, order: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per table: strengths relative to the row max, exp of them, and stage denominators.

    Stage j (j = 0..k-2) chooses place j+1 among columns j..k-1; its denominator is
    D_j = sum of exp over those columns (a reverse cumulative sum).
    """
    s = theta[order]
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    denominators = np.cumsum(e[:, ::-1], axis=1)[:, ::-1][:, :-1]
    return s, e, denominators


def objective(theta: FloatArray, data: Orderings, prior: float) -> float:
    """Negative log-posterior (up to a constant) at theta."""
    value = 0.5 * prior * float(theta @ theta)
    for order, weight in data.groups.values():
        for rows in _chunks(len(order)):
            s, _, d = _stage_terms(theta, order[rows])
            value -= float(weight[rows] @ (s[:, :-1] - np.log(d)).sum(axis=1))
    return value


def gradient(theta: FloatArray, data: Orderings, prior: float) -> FloatArray:
    """Gradient of `objective`."""
    grad = prior * theta
    for order, weight in data.groups.values():
        for rows in _chunks(len(order)):
            grad += _gradient_terms(theta, order[rows], weight[rows], data.n_items)[0]
    return grad


def _gradient_terms(
    theta: FloatArray, order: IntArray, weight: FloatArray, n: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    _, e, d = _stage_terms(theta, order)
    k = order.shape[1]
    # Column c sits in the stages j <= min(c, k-2): its expected share there is e_c / D_j.
    inverse = np.cumsum(1.0 / d, axis=1)
    share_sum = np.concatenate([inverse, inverse[:, -1:]], axis=1)
    expected = weight[:, None] * e * share_sum
    won = np.zeros_like(expected)
    won[:, : k - 1] = weight[:, None]
    grad = np.bincount(order.ravel(), weights=(expected - won).ravel(), minlength=n)
    return grad, e, d, expected


def gradient_and_hessian(
    theta: FloatArray, data: Orderings, prior: float, lower_only: bool = False
) -> tuple[FloatArray, FloatArray]:
    """Gradient and dense Hessian of `objective` (the observed information at the optimum).

    Stage j adds diag(p) - p p^T over its remaining columns, p = e / D_j. Summed over the
    stages, column c's diagonal is e_c sum 1/D_j - e_c^2 sum 1/D_j^2 over its stages, and
    a pair of columns c < d gets -e_c e_d sum_{j <= c} 1 / D_j^2.

    With `lower_only` only the lower triangle is filled (the upper is zero): all a
    Cholesky factorisation reads, without a pass over n^2 cells to mirror it.
    """
    n = data.n_items
    grad = prior * theta
    diagonal = np.full(n, prior)
    # The off-diagonal terms of every chunk are collected and summed into the (n, n) array
    # by one bincount: one pass over its n^2 cells (200 MB at 5,000 bots), not one per chunk.
    flat_parts: list[IntArray] = []
    value_parts: list[FloatArray] = []
    for order, weight in data.groups.values():
        k = order.shape[1]
        first, second = np.triu_indices(k, 1)
        for rows in _chunks(len(order)):
            part, w = order[rows], weight[rows]
            g, e, d, expected = _gradient_terms(theta, part, w, n)
            grad += g
            squares = np.cumsum(1.0 / (d * d), axis=1)
            # The diagonal of diag(p) - p p^T: p_c - p_c^2 summed over c's stages.
            own = np.concatenate([squares, squares[:, -1:]], axis=1)
            diagonal += np.bincount(
                part.ravel(), weights=(expected - w[:, None] * e * e * own).ravel(), minlength=n
            )
            values = -(w[:, None] * e[:, first] * e[:, second] * squares[:, first])
            row, column = part[:, first], part[:, second]
            # Into the lower triangle; a bot seated twice lands on the diagonal, where
            # both (c, d) and (d, c) belong.
            values = np.where(row == column, 2 * values, values)
            flat_parts.append((np.maximum(row, column) * n + np.minimum(row, column)).ravel())
            value_parts.append(values.ravel())
    flat = np.concatenate(flat_parts) if flat_parts else np.zeros(0, dtype=np.int64)
    values = np.concatenate(value_parts) if value_parts else np.zeros(0)
    del flat_parts, value_parts
    hessian = np.bincount(flat, weights=values, minlength=n * n).reshape(n, n)
    del flat, values
    hessian[np.diag_indices(n)] += diagonal
    if not lower_only:
        strictly_lower = np.tril(hessian, -1)
        hessian += strictly_lower.T
    return grad, hessian


def log_loss(theta: FloatArray, data: Orderings) -> float:
    """Mean negative log-likelihood per table of `data` under theta (for held-out checks)."""
    return objective(theta, data, 0.0) / max(data.tables, 1e-300)


def _chunks(length: int) -> list[slice]:
    return [slice(i, min(i + _CHUNK_ROWS, length)) for i in range(0, length, _CHUNK_ROWS)]


def win_probability(theta_a: float, theta_b: float) -> float:
    """Bradley–Terry chance that a beats b (log-strength units)."""
    return 1.0 / (1.0 + math.exp(theta_b - theta_a))
