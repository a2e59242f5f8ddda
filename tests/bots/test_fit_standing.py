"""scripts/fit_standing.py: the logistic fit behind the search bots' `WEIGHTS`."""

from __future__ import annotations

import ast

import numpy as np

from bots.reference import moon_bots_search
from tests.scripts import load_script, run_script


def _script():
    return load_script("fit_standing")


def test_the_fit_recovers_the_weights_of_a_known_logistic_model():
    rng = np.random.default_rng(5)
    truth = np.array([1.0, -0.5, 0.0, 2.0])
    x = rng.normal(size=(20_000, 4))
    y = (rng.random(20_000) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    fitted = _script().fit(x, y)
    assert np.allclose(fitted, truth, atol=0.1)


def test_pairs_compare_every_two_seats_that_finished_apart():
    """Ranks 1, 2, 2: seat 0 against each of the others both ways, the tied pair left out;
    the second half of a row is the difference scaled by the progress."""
    rows = [(0.5, [[3, 1], [1, 1], [0, 2]])]
    x, y = _script().pairs([(rows, [1, 2, 2])])
    assert len(x) == 4
    assert sorted(y.tolist()) == [0.0, 0.0, 1.0, 1.0]
    ahead = sorted(tuple(row) for row in x[y == 1.0].tolist())
    assert ahead == [(2, 0, 1, 0), (3, -1, 1.5, -0.5)]


def test_the_script_prints_a_weights_table_for_the_bot_the_same_every_run():
    def run():
        done = run_script("fit_standing", "moon_bots", "--players", "2", "3", "--games", "10")
        assert done.returncode == 0, done.stderr
        return done.stdout

    printed = run()
    table = ast.literal_eval(printed.split("=", 1)[1])
    assert sorted(table) == [2, 3]
    for weights in table.values():
        assert list(weights) == list(moon_bots_search.FEATURES)
        assert all(len(pair) == 2 for pair in weights.values())
    assert "held-out log loss" in printed
    assert run() == printed
