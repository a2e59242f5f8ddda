"""The whole-history fit: checked against choix, and calibrated on bots of known strength."""

from __future__ import annotations

import math

import choix
import numpy as np
import pytest

from arena.ratings import rate_ranked
from arena.ratings.plackett_luce import (
    from_ranked_tables,
    from_seat_arrays,
    gradient,
    gradient_and_hessian,
    log_loss,
    objective,
)
from arena.ratings.whole_history import ELO_PER_UNIT, fit_skills, prior_precision
from tests.arena.ratings.synthetic import anchored_elo, play_tables, true_thetas

PRIOR_SD_ELO = 400.0
# choix's penalty is alpha * sum(theta^2); ours is prior / 2 * sum(theta^2).
CHOIX_ALPHA = prior_precision(PRIOR_SD_ELO) / 2


def _order(table: list[tuple[int, int]]) -> list[int]:
    return [bot for bot, _ in sorted(table, key=lambda seat: seat[1])]


def test_two_player_fit_agrees_with_choix_within_a_tenth_of_an_elo_point():
    rng = np.random.default_rng(11)
    theta = true_thetas(rng, 15)
    tables = play_tables(rng, theta, 600)
    fit = fit_skills(from_ranked_tables(15, tables), prior_sd_elo=PRIOR_SD_ELO)
    pairs = [tuple(_order(table)) for table in tables]
    reference = choix.opt_pairwise(15, pairs, alpha=CHOIX_ALPHA, method="Newton-CG", tol=1e-12)
    assert np.abs(fit.skill - anchored_elo(reference)).max() < 0.1


def test_multiplayer_fit_agrees_with_choix_within_a_tenth_of_an_elo_point():
    rng = np.random.default_rng(12)
    # choix's Hessian is a Python loop over the data: a small history keeps this quick.
    theta = true_thetas(rng, 10)
    tables = play_tables(rng, theta, 120, sizes=(2, 3, 4, 5))
    fit = fit_skills(from_ranked_tables(10, tables), prior_sd_elo=PRIOR_SD_ELO)
    rankings = [_order(table) for table in tables]
    reference = choix.opt_rankings(10, rankings, alpha=CHOIX_ALPHA, method="Newton-CG", tol=1e-12)
    assert np.abs(fit.skill - anchored_elo(reference)).max() < 0.1


def test_a_draw_counts_as_half_a_win_and_half_a_loss_as_choix_sees_both_orders():
    rng = np.random.default_rng(13)
    theta = true_thetas(rng, 8)
    tables = play_tables(rng, theta, 400, draw_chance=0.3)
    assert any(table[0][1] == table[1][1] for table in tables)
    fit = fit_skills(from_ranked_tables(8, tables), prior_sd_elo=PRIOR_SD_ELO)
    # Every result twice (a draw as both orders once each) with twice the penalty has
    # the same optimum as our half-weighted draw orders.
    doubled = []
    for table in tables:
        first, second = _order(table)
        doubled += (
            [(first, second), (second, first)]
            if table[0][1] == table[1][1]
            else [(first, second)] * 2
        )
    reference = choix.opt_pairwise(8, doubled, alpha=2 * CHOIX_ALPHA, tol=1e-12)
    assert np.abs(fit.skill - anchored_elo(reference)).max() < 0.1


def test_gradient_and_hessian_match_finite_differences_with_ties_and_repeated_bots():
    rng = np.random.default_rng(14)
    tables = [[(0, 1), (1, 2), (2, 2), (3, 4)], [(1, 1), (1, 2), (0, 3)], [(2, 1), (3, 1)]]
    data = from_ranked_tables(4, tables * 3)
    theta, prior, eps = rng.normal(size=4), 0.3, 1e-6
    grad, hessian = gradient_and_hessian(theta, data, prior)
    unit = np.eye(4)
    numeric_grad = [
        (objective(theta + eps * u, data, prior) - objective(theta - eps * u, data, prior))
        / (2 * eps)
        for u in unit
    ]
    numeric_hessian = [
        (gradient(theta + eps * u, data, prior) - gradient(theta - eps * u, data, prior))
        / (2 * eps)
        for u in unit
    ]
    assert np.allclose(grad, numeric_grad, atol=1e-6)
    assert np.allclose(hessian, np.array(numeric_hessian), atol=1e-6)


def test_ninety_five_percent_intervals_contain_the_true_rating_over_many_leaderboards():
    rng = np.random.default_rng(15)
    inside = total = rank_inside = 0
    for _ in range(150):
        theta = true_thetas(rng, 10)
        tables = play_tables(rng, theta, 300, sizes=(2, 3, 4))
        fit = fit_skills(from_ranked_tables(10, tables), prior_sd_elo=PRIOR_SD_ELO, rank_draws=200)
        truth = anchored_elo(theta)
        inside += int(((fit.low <= truth) & (truth <= fit.high)).sum())
        true_rank = np.argsort(np.argsort(-theta)) + 1
        rank_inside += int(((fit.rank_low <= true_rank) & (true_rank <= fit.rank_high)).sum())
        total += 10
    assert inside / total >= 0.93
    assert rank_inside / total >= 0.93


def test_whole_history_predicts_held_out_matches_better_than_the_live_elo():
    rng = np.random.default_rng(16)
    theta = true_thetas(rng, 20)
    train = play_tables(rng, theta, 1500, draw_chance=0.1)
    held_out = play_tables(rng, theta, 1000, draw_chance=0.1)

    live = [1500.0] * 20
    for table in train:
        (a, rank_a), (b, rank_b) = table
        live[a], live[b] = rate_ranked([live[a], live[b]], [rank_a, rank_b])
    fit = fit_skills(from_ranked_tables(20, train), rank_draws=0)

    def loss(elo: list[float] | np.ndarray) -> float:
        total = 0.0
        for (a, rank_a), (b, rank_b) in held_out:
            p = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
            outcome = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
            total -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
        return total / len(held_out)

    assert loss(fit.skill) < loss(live)
    # The fit's own likelihood agrees: Plackett–Luce log-loss of the held-out tables.
    data = from_ranked_tables(20, held_out)
    assert log_loss(fit.theta, data) < log_loss(np.array(live) / ELO_PER_UNIT, data)


def test_the_fit_does_not_depend_on_the_order_of_the_matches_while_live_elo_does():
    rng = np.random.default_rng(17)
    theta = true_thetas(rng, 10)
    tables = play_tables(rng, theta, 800, sizes=(2, 3, 4), draw_chance=0.1)
    first = fit_skills(from_ranked_tables(10, tables), rank_draws=0)
    shuffled = [tables[i] for i in rng.permutation(len(tables))]
    second = fit_skills(from_ranked_tables(10, shuffled), rank_draws=0)
    assert np.abs(first.skill - second.skill).max() < 1e-6
    assert np.abs(first.high - second.high).max() < 1e-6

    def live(order: list[list[tuple[int, int]]]) -> np.ndarray:
        elo = [1500.0] * 10
        for table in order:
            bots = [bot for bot, _ in table]
            after = rate_ranked([elo[b] for b in bots], [rank for _, rank in table])
            for bot, value in zip(bots, after, strict=True):
                elo[bot] = value
        return np.array(elo)

    assert np.abs(live(tables) - live(shuffled)).max() > 10


def test_a_warm_start_ends_where_a_cold_start_does():
    rng = np.random.default_rng(18)
    theta = true_thetas(rng, 30)
    tables = play_tables(rng, theta, 3000, sizes=(2, 3, 4, 5))
    before = fit_skills(from_ranked_tables(30, tables[:2800]), rank_draws=0)
    cold = fit_skills(from_ranked_tables(30, tables), rank_draws=0)
    warm = fit_skills(from_ranked_tables(30, tables), start=before.theta, rank_draws=0)
    assert warm.iterations <= cold.iterations
    assert np.abs(cold.skill - warm.skill).max() < 1e-3


def test_seat_arrays_give_the_same_orderings_as_ranked_tables():
    tables = [[(2, 1), (0, 2), (1, 3)], [(1, 1), (0, 1)], [(0, 2), (2, 1)]]
    expected = from_ranked_tables(3, tables)
    match = np.array([7, 7, 7, 3, 3, 9, 9])
    item = np.array([1, 2, 0, 0, 1, 0, 2])
    rank = np.array([3, 1, 2, 1, 1, 2, 1])
    found = from_seat_arrays(3, match, item, rank)
    theta = np.array([0.3, -0.2, 0.1])
    assert objective(theta, found, 0.1) == pytest.approx(objective(theta, expected, 0.1))
    assert found.tables == pytest.approx(3.0)


def test_a_bot_that_won_everything_stays_finite_and_on_top_with_a_narrow_rank():
    rng = np.random.default_rng(19)
    theta = np.array([3.0, 0.0, 0.1, -0.1, 0.05])
    tables = play_tables(rng, theta, 400)
    fit = fit_skills(from_ranked_tables(5, tables))
    assert np.isfinite(fit.skill).all()
    assert fit.skill.mean() == pytest.approx(1500.0)
    assert fit.rank_low[0] == fit.rank_high[0] == 1
    assert (fit.rank_high[1:] >= 3).all()
