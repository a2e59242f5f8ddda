"""Leaderboard statistics (no database)."""

from __future__ import annotations

import pytest

from arena.stats import mean, wilson_interval


def test_wilson_interval_matches_a_known_value():
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_stays_inside_zero_and_one():
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0
    low, high = wilson_interval(0, 5)
    assert 0.0 == low < high < 0.5


def test_wilson_interval_narrows_with_more_games():
    narrow, wide = wilson_interval(500, 1000), wilson_interval(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_no_games_means_no_interval_and_no_mean():
    assert wilson_interval(0, 0) is None and mean(3.0, 0) is None and mean(9.0, 3) == 3.0


def test_impossible_counts_are_refused():
    with pytest.raises(ValueError):
        wilson_interval(4, 3)
