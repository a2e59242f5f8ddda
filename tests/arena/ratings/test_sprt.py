"""The pentanomial GSPRT: its bounds, its LLR against a direct optimisation, its error rates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from arena.ratings import sprt

# fishtest (server/fishtest/stats/sprt.py): a = log(beta / (1 - alpha)), b = log((1 - beta) / alpha);
# its pages show them as -2.94 and 2.94 for 0.05 / 0.05.
FISHTEST_BOUNDS = {
    (0.05, 0.05): (-2.9444389791664403, 2.9444389791664403),
    (0.01, 0.1): (-2.2925347571405443, 4.499809670330265),
}


@pytest.mark.parametrize(("alpha", "beta"), list(FISHTEST_BOUNDS))
def test_llr_bounds_are_fishtests(alpha, beta):
    assert sprt.bounds(alpha, beta) == pytest.approx(FISHTEST_BOUNDS[(alpha, beta)], abs=1e-12)


@pytest.mark.parametrize("bad", [0.0, 0.5, -0.1, 0.7])
def test_error_rates_outside_the_open_interval_up_to_a_half_are_refused(bad):
    with pytest.raises(ValueError, match="between 0 and 0.5"):
        sprt.bounds(bad, 0.05)


def _llr_by_direct_optimisation(counts: list[int], elo0: float, elo1: float) -> float:
    """max log-likelihood with mean s1 minus that with mean s0, by a general optimiser."""
    regularised = np.where(np.array(counts) == 0, 1e-3, counts).astype(float)

    def best(s: float) -> float:
        result = minimize(
            lambda p: -(regularised @ np.log(p)),
            np.full(5, 0.2),
            method="SLSQP",
            bounds=[(1e-12, 1)] * 5,
            constraints=[
                {"type": "eq", "fun": lambda p: p.sum() - 1},
                {"type": "eq", "fun": lambda p: p @ sprt.PAIR_SCORES - s},
            ],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        return -float(result.fun)

    s0, s1 = (float(sprt.elo_to_score(e)) for e in (elo0, elo1))
    return best(s1) - best(s0)


@pytest.mark.parametrize(
    "counts", [[10, 40, 100, 50, 12], [0, 5, 30, 9, 1], [3, 0, 0, 0, 7], [200, 10, 5, 90, 300]]
)
def test_llr_equals_the_generalized_likelihood_ratio_found_by_a_general_optimiser(counts):
    expected = _llr_by_direct_optimisation(counts, 0.0, 10.0)
    assert float(sprt.llr(counts, 0.0, 10.0)) == pytest.approx(expected, abs=1e-4)


def test_llr_grows_with_the_candidates_pair_wins_and_is_vectorised():
    rows = np.array([[5, 20, 50, 20, 5], [5, 20, 50, 30, 15], [15, 30, 50, 20, 5]])
    values = sprt.llr(rows, 0.0, 5.0)
    assert values.shape == (3,)
    assert values[1] > values[0] > values[2]
    assert values[0] == pytest.approx(float(sprt.llr(rows[0], 0.0, 5.0)))


def test_pair_index_and_game_score():
    assert sprt.game_score(1, 2) == 1.0
    assert sprt.game_score(2, 2) == 0.5
    assert sprt.game_score(3, 1) == 0.0
    assert sprt.pair_index(1.0, 0.0) == 2
    assert sprt.pair_index(1.0, 1.0) == 4
    assert sprt.pair_index(0.5, 0.0) == 1
    with pytest.raises(ValueError):
        sprt.pair_index(0.3, 1.0)


def test_elo_estimate_has_an_interval_around_it():
    estimate = sprt.elo_estimate([10, 40, 100, 60, 20])
    assert estimate is not None
    assert estimate.low < estimate.elo < estimate.high
    assert estimate.elo == pytest.approx(sprt.score_to_elo((40 * 0.25 + 50 + 45 + 20) / 230))
    assert sprt.elo_estimate([0, 0, 0, 0, 0]) is None


def _pentanomial(elo: float, draw: float = 0.3) -> np.ndarray:
    """Pair-score probabilities from two independent games of expected score L(elo)."""
    s = float(sprt.elo_to_score(elo))
    win, loss = s - draw / 2, 1 - s - draw / 2
    game = np.array([loss, draw, win])
    return np.convolve(game, game)


def _simulate(true_elo, elo0, elo1, alpha, beta, runs, batch, max_pairs, seed):
    """Vectorised runs of the test as a challenge plays it: a batch of pairs, then an update."""
    rng = np.random.default_rng(seed)
    lower, upper = sprt.bounds(alpha, beta)
    counts = np.zeros((runs, 5))
    outcome = np.full(runs, sprt.Decision.CONTINUE, dtype=object)
    probabilities = _pentanomial(true_elo)
    for _ in range(max_pairs // batch):
        running = outcome == sprt.Decision.CONTINUE
        if not running.any():
            break
        counts[running] += rng.multinomial(batch, probabilities, size=int(running.sum()))
        values = sprt.llr(counts[running], elo0, elo1)
        decided = np.where(
            values >= upper,
            sprt.Decision.ACCEPT,
            np.where(values <= lower, sprt.Decision.REJECT, sprt.Decision.CONTINUE),
        )
        outcome[running] = decided
    return outcome


@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 20.0), (-10.0, 10.0)])
def test_sprt_error_rates_by_simulation_stay_within_alpha_and_beta(elo0, elo1):
    alpha = beta = 0.05
    runs = 2000
    at_h0 = _simulate(elo0, elo0, elo1, alpha, beta, runs, batch=20, max_pairs=40_000, seed=1)
    at_h1 = _simulate(elo1, elo0, elo1, alpha, beta, runs, batch=20, max_pairs=40_000, seed=2)
    assert (at_h0 == sprt.Decision.CONTINUE).mean() < 0.01  # nearly every run ends
    assert (at_h0 == sprt.Decision.ACCEPT).mean() <= alpha + 0.02
    assert (at_h1 == sprt.Decision.REJECT).mean() <= beta + 0.02
    assert (at_h1 == sprt.Decision.ACCEPT).mean() >= 1 - beta - 0.02


def test_a_clear_difference_is_accepted_quickly():
    outcome = _simulate(200.0, 0.0, 5.0, 0.05, 0.05, runs=200, batch=10, max_pairs=2000, seed=3)
    assert (outcome == sprt.Decision.ACCEPT).mean() > 0.99
    assert math.isclose(float(sprt.elo_to_score(0.0)), 0.5)
