"""A bot against a reference: share, Wilson interval and verdict (no database)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

from arena.ratings.head_to_head import (
    BEATS,
    LOSES_TO,
    NOT_SEPARATED,
    HeadToHead,
    SuccessRates,
    verdict,
)


def wilson_by_roots(score: float, games: int, level: float = 0.95) -> tuple[float, float]:
    """An independent Wilson interval: the roots in p of (s/n - p)^2 = z^2 p (1 - p) / n."""
    z = norm.ppf(1 - (1 - level) / 2)
    phat = score / games
    # (1 + z^2/n) p^2 - (2 phat + z^2/n) p + phat^2 = 0
    roots = np.roots([1 + z * z / games, -(2 * phat + z * z / games), phat * phat])
    low, high = sorted(float(r.real) for r in roots)
    return max(0.0, low), min(1.0, high)


@pytest.mark.parametrize(
    ("ahead", "ties", "games", "low", "high"),
    [
        # Known 95% Wilson score intervals, to four places (81/263 is the worked example of
        # Newcombe, Statistics in Medicine 1998, "Two-sided confidence intervals for the
        # single proportion"; 8/10 is the one tests/arena/test_stats.py checks).
        (8, 0, 10, 0.4902, 0.9433),
        (5, 0, 10, 0.2366, 0.7634),
        (0, 0, 10, 0.0, 0.2775),
        (81, 0, 263, 0.2553, 0.3662),
    ],
)
def test_the_interval_matches_published_wilson_values(ahead, ties, games, low, high):
    interval = HeadToHead(games, ahead, ties).interval
    assert interval is not None
    assert interval[0] == pytest.approx(low, abs=1e-4)
    assert interval[1] == pytest.approx(high, abs=1e-4)


@pytest.mark.parametrize(("ahead", "ties", "games"), [(9, 3, 20), (0, 1, 1), (40, 17, 100)])
def test_draws_count_as_half_a_win_in_share_and_interval(ahead, ties, games):
    record = HeadToHead(games, ahead, ties)
    assert record.share == pytest.approx((ahead + ties / 2) / games)
    assert record.behind == games - ahead - ties
    assert record.interval == pytest.approx(wilson_by_roots(ahead + ties / 2, games), abs=1e-9)


@pytest.mark.parametrize(
    ("ahead", "ties", "games", "expected"),
    [
        (16, 2, 20, BEATS),  # 85%: (64%, 95%)
        (3, 2, 20, LOSES_TO),  # 20%: (8%, 42%)
        (6, 0, 10, NOT_SEPARATED),  # 60%: (31%, 83%)
        (0, 0, 0, NOT_SEPARATED),  # no games
        (15, 0, 20, BEATS),  # 75%: (53.1%, 88.8%)
        (14, 0, 20, NOT_SEPARATED),  # 70%: (48.1%, 85.5%)
    ],
)
def test_the_verdict_needs_the_whole_interval_on_one_side_of_even(ahead, ties, games, expected):
    assert HeadToHead(games, ahead, ties).verdict == expected


def test_the_verdict_at_the_line_itself_is_not_separated():
    assert verdict(0.5, 0.9) == NOT_SEPARATED and verdict(0.1, 0.5) == NOT_SEPARATED
    assert verdict(0.5001, 0.9) == BEATS and verdict(0.1, 0.4999) == LOSES_TO
    assert verdict(None, None) == NOT_SEPARATED


def test_a_record_without_games_has_no_share_and_impossible_counts_are_refused():
    empty = HeadToHead(0, 0, 0)
    assert empty.share is None and empty.interval is None
    with pytest.raises(ValueError):
        HeadToHead(3, 2, 2)
    with pytest.raises(ValueError):
        HeadToHead(3, -1, 0)


def test_success_rates_separate_only_when_the_intervals_do_not_overlap():
    # 18/20 is (69.9%, 97.2%); 2/20 is (2.8%, 30.1%); 10/20 is (29.9%, 70.1%).
    assert SuccessRates(20, 18, 20, 2).verdict == BEATS
    assert SuccessRates(20, 2, 20, 18).verdict == LOSES_TO
    assert SuccessRates(20, 18, 20, 10).verdict == NOT_SEPARATED  # 69.9 < 70.1: they overlap
    assert SuccessRates(0, 0, 20, 2).verdict == NOT_SEPARATED
    rates = SuccessRates(20, 18, 20, 2)
    assert rates.rate == 0.9 and rates.reference_rate == 0.1
    assert rates.interval == pytest.approx(wilson_by_roots(18, 20), abs=1e-9)
    assert math.isclose(rates.reference_interval[1], wilson_by_roots(2, 20)[1])
