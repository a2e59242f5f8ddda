"""A fitted standing (bots/sdk/standing.py) and the heuristic playout policy: the sum of
weighted features, the table nearest the player count, a clear error for a table that
lacks a feature, and playouts that play the heuristic for whoever moves."""

from __future__ import annotations

import random

import pytest

import engine
from bots.reference import moon_bots_heuristic, moon_bots_search
from bots.sdk.search import heuristic_policy, standing_reward
from bots.sdk.standing import FittedStanding

NAMES = ("seat", "one")


def seat_and_one(state, seat):
    return [seat, 1]


def halfway(state):
    return 0.5


def test_a_standing_sums_each_feature_times_its_weight_at_the_progress():
    standing = FittedStanding({2: {"seat": (1.0, 2.0), "one": (3.0, 0.0)}}, NAMES,
                              seat_and_one, halfway)  # fmt: skip
    state = engine.get_game("moon_bots").new_state(2, 1)
    # seat × (1 + 0.5 × 2) + 1 × 3
    assert standing.standing(state) == [3.0, 5.0]
    assert standing(state) == standing_reward([3.0, 5.0], 1.0)
    assert standing(state)[1] > 0.5 > standing(state)[0]


@pytest.mark.parametrize("players, fitted", [(2, 2), (3, 2), (4, 5), (6, 5)])
def test_a_table_size_without_weights_borrows_the_nearest_fitted(players, fitted):
    weights = {2: {"seat": (2.0, 0.0), "one": (0.0, 0.0)},
               5: {"seat": (5.0, 0.0), "one": (0.0, 0.0)}}  # fmt: skip
    standing = FittedStanding(weights, NAMES, seat_and_one, halfway)
    assert standing.table(players) == [(float(fitted), 0.0), (0.0, 0.0)]


def test_weights_that_lack_a_feature_are_refused_when_the_bot_is_built():
    with pytest.raises(ValueError, match="the 3-player weights lack one"):
        FittedStanding({3: {"seat": (1.0, 0.0)}}, NAMES, seat_and_one, halfway)
    with pytest.raises(ValueError, match="at least one table"):
        FittedStanding({}, NAMES, seat_and_one, halfway)


def test_the_moon_bots_bot_scores_with_the_weights_fitted_for_its_table():
    state = engine.get_game("moon_bots").new_state(3, 7)
    evaluate = moon_bots_search.Bot.evaluate
    late = moon_bots_search.progress(state)
    table = moon_bots_search.WEIGHTS[3]
    by_hand = [
        sum(value * (table[name][0] + late * table[name][1])
            for name, value in zip(moon_bots_search.FEATURES,
                                   moon_bots_search.features(state, seat), strict=True))
        for seat in range(3)
    ]  # fmt: skip
    assert evaluate.standing(state) == pytest.approx(by_hand)


def test_heuristic_playouts_play_the_heuristics_move_for_whoever_is_to_move():
    policy = heuristic_policy(moon_bots_heuristic.act)
    state = engine.get_game("moon_bots").new_state(3, 11)
    rng = random.Random(0)
    movers = set()
    for _ in range(200):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        seat = state.to_move()
        movers.add(seat)
        chosen = policy(state, legal, rng)
        assert chosen == moon_bots_heuristic.act(state.observation(seat), legal)
        state.apply(chosen)
    assert movers == {0, 1, 2}
