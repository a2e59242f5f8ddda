"""The design maths behind the benchmark's oracle (pure numpy, no database)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from arena.ladder.design import (
    all_tables,
    best_table,
    covariance,
    misordered,
    pair_variances,
    table_gains,
    table_information,
)
from arena.ratings.plackett_luce import from_ranked_tables, gradient_and_hessian


def test_two_seats_carry_the_bradley_terry_information():
    theta = np.array([[0.7, -0.4]])
    p = 1 / (1 + np.exp(-1.1))
    expected = p * (1 - p) * np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert table_information(theta)[0] == pytest.approx(expected)


def test_three_seats_carry_the_expected_hessian_over_every_finishing_order():
    theta = np.array([0.3, -0.2, 0.5])
    e = np.exp(theta)
    expected = np.zeros((3, 3))
    for order in itertools.permutations(range(3)):
        chance, left = 1.0, list(range(3))
        for seat in order[:-1]:
            chance *= e[seat] / e[left].sum()
            left.remove(seat)
        data = from_ranked_tables(3, [[(item, place + 1) for place, item in enumerate(order)]])
        expected += chance * gradient_and_hessian(theta, data, 0.0)[1]
    assert table_information(theta[None])[0] == pytest.approx(expected, abs=1e-12)


def test_a_table_gain_is_the_drop_of_the_recomputed_covariance():
    theta = np.array([0.0, 0.4, 0.8, 1.2, 1.6])
    gaps = np.subtract.outer(theta, theta)
    played = [(0, 1), (1, 2, 3), (3, 4)]
    cov = covariance(5, played, theta, 0.2)
    candidates = all_tables(5, 2)
    gains = table_gains(candidates, theta, gaps, cov)
    before = misordered(gaps, pair_variances(cov))
    for table, gain in zip(candidates, gains, strict=True):
        after = covariance(5, [*played, tuple(table)], theta, 0.2)
        assert gain == pytest.approx(before - misordered(gaps, pair_variances(after)), abs=1e-9)
        assert gain > 0
    assert best_table(candidates, theta, gaps, cov) == tuple(candidates[int(np.argmax(gains))])


def test_random_tables_carry_less_information_than_neighbours_when_strengths_spread():
    from arena.ladder.design import information_shares

    random_share, near_share = information_shares(np.linspace(0.0, 4.0, 10), 2)
    assert 0 < random_share < near_share <= 1
    assert information_shares(np.zeros(6), 3) == pytest.approx((1.0, 1.0))
