"""The cooperative whole-history model on synthetic teams of known contribution."""

from __future__ import annotations

import numpy as np

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
