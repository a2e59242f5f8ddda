"""The cooperative whole-history model on synthetic teams of known contribution."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings.cooperative_fit import fit_cooperative
from arena.ratings.whole_history import ELO_PER_UNIT


def _teams(rng, theta, gamma, tables):
    seat_table, seat_item, success, score, players = [], [], [], [], []
    for number in range(tables):
        size = int(rng.choice([2, 3]))
        team = rng.choice(len(theta), size, replace=False)
        difficulty = -0.5 if size == 2 else -1.0
        chance = 1 / (1 + np.exp(-(difficulty + theta[team].mean())))
        success.append(rng.random() < chance)
        score.append(3.0 + gamma[team].mean() + rng.normal(0, 1.0))
        players.append(size)
        seat_table += [number] * size
        seat_item += team.tolist()
    return seat_table, seat_item, success, score, players


def test_contributions_to_success_and_team_score_are_recovered_with_calibrated_intervals():
    rng = np.random.default_rng(21)
    inside_skill = inside_points = total = 0
    for _ in range(40):
        theta = rng.normal(0, 1.0, 8)
        gamma = rng.normal(0, 2.0, 8)
        fit = fit_cooperative(8, *_teams(rng, theta, gamma, 600))
        truth = 1500 + (theta - theta.mean()) * ELO_PER_UNIT
        inside_skill += int(((fit.low <= truth) & (truth <= fit.high)).sum())
        points = gamma - gamma.mean()
        inside_points += int(
            ((fit.contribution_low <= points) & (points <= fit.contribution_high)).sum()
        )
        total += 8
    assert inside_skill / total >= 0.9
    assert inside_points / total >= 0.9


def test_a_bot_that_never_succeeds_stays_finite_and_ranks_below_one_that_carries_teams():
    rng = np.random.default_rng(22)
    theta = np.array([3.0, -4.0, 0.0, 0.0, 0.0])
    gamma = np.array([4.0, -4.0, 0.0, 0.0, 0.0])
    fit = fit_cooperative(5, *_teams(rng, theta, gamma, 300))
    assert np.isfinite(fit.skill).all() and np.isfinite(fit.low).all()
    assert fit.low[0] > fit.high[1]
    assert fit.contribution_low[0] > fit.contribution_high[1]
    assert fit.games.sum() > 300 * 2


def _graded_teams(rng, theta, tables, concentration=4.0):
    """Graded outcomes in 0..1 with mean sigmoid(difficulty + mean theta): a Beta draw."""
    seat_table, seat_item, outcome, score, players = [], [], [], [], []
    for number in range(tables):
        size = int(rng.choice([2, 3]))
        team = rng.choice(len(theta), size, replace=False)
        mean = 1 / (1 + np.exp(-(-1.0 + theta[team].mean())))
        outcome.append(float(rng.beta(mean * concentration, (1 - mean) * concentration)))
        score.append(0.0)
        players.append(size)
        seat_table += [number] * size
        seat_item += team.tolist()
    return seat_table, seat_item, outcome, score, players


def test_graded_outcomes_are_recovered_with_calibrated_intervals():
    # The fractional logit with the Pearson dispersion: a graded outcome varies less than
    # a success or failure, and the narrower intervals must still cover the truth.
    rng = np.random.default_rng(23)
    inside = total = 0
    for _ in range(40):
        theta = rng.normal(0, 1.0, 8)
        fit = fit_cooperative(8, *_graded_teams(rng, theta, 400))
        truth = 1500 + (theta - theta.mean()) * ELO_PER_UNIT
        inside += int(((fit.low <= truth) & (truth <= fit.high)).sum())
        total += 8
    assert inside / total >= 0.9
    assert inside / total <= 0.99  # not simply wide: the dispersion narrows them


def test_the_graded_outcome_separates_two_teams_that_never_succeed():
    # Nobody ever succeeds; the better bot's teams get further. On success alone (all
    # zeros) the two are indistinguishable; on the graded outcome they separate.
    rng = np.random.default_rng(24)
    seat_table, seat_item, outcome, players = [], [], [], []
    for number in range(300):
        team = rng.choice(4, 2, replace=False)
        got_far = 0.25 + 0.3 * np.isin(0, team) - 0.2 * np.isin(1, team)
        outcome.append(float(np.clip(got_far + rng.normal(0, 0.1), 0.0, 0.95)))
        players.append(2)
        seat_table += [number] * 2
        seat_item += team.tolist()
    never = [False] * 300
    on_success = fit_cooperative(4, seat_table, seat_item, never, [0.0] * 300, players)
    assert abs(on_success.skill[0] - on_success.skill[1]) < 1
    assert on_success.low[0] < on_success.high[1]
    graded = fit_cooperative(4, seat_table, seat_item, outcome, [0.0] * 300, players)
    assert graded.low[0] > graded.high[2] and graded.low[2] > graded.high[1]


def test_an_outcome_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="0..1"):
        fit_cooperative(2, [0, 0], [0, 1], [1.5], [0.0], [2])
