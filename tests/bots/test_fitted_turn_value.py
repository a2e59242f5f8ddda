"""scripts/fitted_turn_value.py: a value fitted to self-play as the Moon Adventure turn-end score."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import engine
from bots.reference import moon_adventure_heuristic as heuristic
from tests.scripts import assert_refused, load_script, run_script


@pytest.fixture(scope="module")
def script():
    return load_script("fitted_turn_value")


def _turn_starts(players: int, seeds: range):
    """Observations at the start of turns of heuristic missions."""
    for seed in seeds:
        state = engine.get_game("moon_adventure").new_state(players, seed=seed)
        team = heuristic.Bot()
        while not state.is_terminal():
            legal, seat = state.legal_actions(), state.to_move()
            observation = state.observation(seat)
            if observation["phase"] == "act" and observation["ap"] and legal != ["end"]:
                yield observation
            choice = legal[0] if len(legal) == 1 else team.act(observation, legal)
            state.apply(choice if choice in legal else legal[0])


def test_the_chance_of_enough_undamaged_chips_counts_the_chips_already_seen(script):
    # Area 5 with two chips seen (one broken, one not): 5 chips unseen, 4 of them undamaged.
    held, good_left, unseen, need = (1, 0, 2), (3, 4, 4), (7, 7, 5), 2
    picks = [
        [sum(p) for p in itertools.combinations([1] * g + [0] * (u - g), h)]
        for h, g, u in zip(held, good_left, unseen, strict=True)
    ]
    ways = list(itertools.product(*picks))
    counted = sum(sum(way) >= need for way in ways) / len(ways)
    assert script.undamaged_chance(held, good_left, unseen, need) == pytest.approx(counted)


def test_a_mission_starts_with_the_features_of_an_empty_handed_crew_at_the_base(script):
    observation = engine.get_game("moon_adventure").new_state(3, seed=7).observation(0)
    named = dict(
        zip(script.FEATURES, script.team_features(heuristic.View(observation)), strict=True)
    )
    assert named["chance_held"] == 0.0
    assert named["crew_out"] == 3
    assert named["oxygen_cards"] == 9
    assert named["most_moves_home"] == 0
    assert named["undamaged_on_track"] == pytest.approx(3 + 4 + 5)


def test_a_turn_that_changes_nothing_ends_with_the_features_it_started_with(script):
    # The Planner's turn-end features and the self-play features are one description.
    model = script.Model(
        np.zeros(len(script.FEATURES)),
        np.ones(len(script.FEATURES)),
        np.zeros(len(script.FEATURES)),
    )
    planner_class = script.make_planner(model, 0.2)
    checked = 0
    for observation in _turn_starts(3, range(20, 26)):
        view = heuristic.View(observation)
        if view.pos == 0 or (view.track[view.pos]["kind"] == "ogs" and view.empty()):
            # At the Base a turn's end means back home; on an OGS, it counts the oxygen
            # to be drawn.
            continue
        planner = planner_class(view)
        ending = planner.turn_end(view.pos, (), (), False, False, 0)
        assert ending == pytest.approx(script.team_features(view)), observation
        checked += 1
    assert checked >= 20


def test_a_blend_of_nothing_plays_the_heuristics_missions_move_for_move(script):
    weights = np.linspace(-1, 1, len(script.FEATURES))
    model = script.Model(np.zeros(len(weights)), np.ones(len(weights)), weights)
    unchanged = script.make_planner(model, 0.0)
    for seed in range(40, 46):
        assert script.play(3, seed, unchanged) == script.play(3, seed)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--games", "3"], "--games must be at least 10"),
        (["--blends", "-1"], "--blends must not be negative"),
        (["--rounds", "9"], "--rounds: invalid choice"),
    ],
)
def test_bad_arguments_are_a_clear_error_not_a_traceback(arguments, said):
    assert_refused("fitted_turn_value", arguments, said)


def test_the_script_fits_and_prints_a_row_per_planner_the_same_every_run():
    def run():
        done = run_script("fitted_turn_value", "--games", "40", "--tables", "6", "--blends", "0.2")
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[1].startswith("fit: ") and "held-out log loss" in lines[1]
        rows = [
            line.split("|")[1:-1] for line in lines if line.startswith("| ") and "---" not in line
        ]
        return lines[1], [[cell.strip() for cell in row[:4]] for row in rows[1:]]

    first = run()
    assert [row[0] for row in first[1]] == ["heuristic", "blend 0.2", "fitted chance alone"]
    assert first[1][0][3].startswith("+0.0000")
    assert run() == first
