"""scripts/tune_turn_weights.py: the Moon Adventure heuristic's weights tuned on outcomes."""

from __future__ import annotations

import pytest

from bots.reference import moon_adventure_heuristic as heuristic
from tests.scripts import assert_refused, load_script, run_script


@pytest.fixture(scope="module")
def script():
    return load_script("tune_turn_weights")


def test_every_weight_goes_to_the_search_space_and_back_unchanged(script):
    # The bold plan's (2-3 players); the steady plan has weights of 0, which start at 0.01.
    for players in (2, 3):
        weights = script.read_weights(players)
        back = script.from_search_space(script.to_search_space(weights))
        assert back == pytest.approx(weights)


def test_missions_with_the_heuristics_own_weights_are_the_heuristics_missions(script):
    own = script.read_weights(3)
    played = script.missions(3, own, range(30, 36))
    assert played == [script.play(3, seed)[:2] for seed in range(30, 36)]


def test_other_weights_play_other_missions_and_the_heuristics_own_come_back(script):
    before = (heuristic.W_DEATH, heuristic.GOOD_ENOUGH, heuristic.BOLD.far_slack)
    reckless = {**script.read_weights(3), "W_DEATH": 0.0, "OUT_LOW": 0.0, "far_slack": 0.2}
    seeds = range(30, 42)
    assert script.missions(3, reckless, seeds) != script.missions(3, script.read_weights(3), seeds)
    assert (heuristic.W_DEATH, heuristic.GOOD_ENOUGH, heuristic.BOLD.far_slack) == before


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--players", "6"], "--players is 2 to 5"),
        (["--elite", "16"], "--elite is at least 1 and below --population"),
        (["--missions", "0"], "at least 1"),
    ],
)
def test_bad_arguments_are_a_clear_error_not_a_traceback(arguments, said):
    assert_refused("tune_turn_weights", arguments, said)


def test_the_script_tunes_and_validates_the_same_every_run():
    def run():
        done = run_script(
            "tune_turn_weights",
            *("--generations", "2", "--population", "4", "--elite", "2"),
            *("--missions", "8", "--validate", "12"),
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr.count("generation ") == 2
        return [line for line in done.stdout.splitlines() if not line.endswith(" s")]

    first = run()
    assert first[0].startswith("tuned weights: {'W_HOME': ")
    rows = [line.split("|")[1].strip() for line in first if line.startswith("| ")]
    assert rows == ["weights", "heuristic", "tuned"]
    assert run() == first
