"""A newcomer joining a settled simulated ladder (`manage.py ladder_bench --arrival`)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from arena.ladder.arrival import newcomer_for, place_error, simulate_arrival
from arena.ladder.selection import Policy
from arena.ladder.simulation import load_heuristic

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def test_place_error_counts_places_from_the_true_one():
    # True order is the index: bot 2 of 4 has one stronger bot above it.
    assert place_error([1400, 1450, 1500, 1550], 2) == 0
    assert place_error([1400, 1450, 1600, 1550], 2) == 1  # rated above bot 3
    assert place_error([1400, 1450, 1300, 1550], 2) == 2  # rated below bots 0 and 1
    assert place_error([1400, 1450, 1500, 1550], 0) == 0


def test_the_newcomer_depends_on_the_seed_only_and_spreads_over_the_board():
    chosen = {newcomer_for(seed, 20) for seed in range(1, 41)}
    assert newcomer_for(3, 20) == newcomer_for(3, 20)
    assert chosen <= set(range(20)) and len(chosen) >= 10


@pytest.fixture(scope="module")
def runs():
    heuristic = load_heuristic(REFERENCE, "moonrollers")
    policy = Policy(newcomer_games=4, exploration=0.1)
    return {
        mode: simulate_arrival(
            "moonrollers", heuristic, 5, 2, mode, 1, 30, 16, 2, policy=policy, tick=4
        )
        for mode in ("ladder", "random")
    }


def test_the_ladder_plays_the_newcomer_first_and_random_tables_do_not_favour_it(runs):
    ladder, random_ = runs["ladder"], runs["random"]
    assert ladder.newcomer == random_.newcomer == newcomer_for(1, 5)
    # The guarantee: its first 4 games are the first 4 matches after it arrives.
    assert [games for _, _, games, _ in ladder.curve[:2]] == [2, 4]
    assert ladder.matches == random_.matches == 16 and len(ladder.curve) == 8
    assert ladder.newcomer_games >= 4
    for run in runs.values():
        assert all(0 <= error <= 4 and -1 <= rho <= 1 for _, error, _, rho in run.curve)


def test_reached_is_the_first_check_from_which_the_error_stays_within_the_tolerance(runs):
    for run in runs.values():
        for tolerance, reached in run.reached.items():
            within = [matches for matches, error, _, _ in run.curve if error <= tolerance]
            if reached is None:
                assert run.curve[-1][1] > tolerance
            else:
                assert all(m in within for m, _, _, _ in run.curve if m >= reached)
                before = [m for m, _, _, _ in run.curve if m < reached]
                assert not before or before[-1] not in within
        assert run.reached[0] is None or run.reached[1] <= run.reached[0]


def test_unknown_modes_and_cooperative_games_are_refused():
    heuristic = load_heuristic(REFERENCE, "moonrollers")
    with pytest.raises(ValueError, match="unknown mode"):
        simulate_arrival("moonrollers", heuristic, 5, 2, "oracle", 1, 4, 4, 2)
    with pytest.raises(ValueError, match="cooperative"):
        simulate_arrival("moon_adventure", heuristic, 5, 2, "random", 1, 4, 4, 2)


def test_the_bench_command_prints_the_arrival_table_and_refuses_bad_flags():
    out = io.StringIO()
    flags = ["--arrival", "--games", "moonrollers", "--bots", "4", "--sizes", "2"]
    flags += ["--warm-matches", "12", "--max-matches", "8", "--every", "4", "--json"]
    call_command("ladder_bench", *flags, stdout=out)
    lines = out.getvalue().splitlines()
    runs = [json.loads(line) for line in lines if line.startswith("{")]
    assert {run["mode"] for run in runs} == {"ladder", "random"}
    assert all(run["matches"] == 8 and set(run["reached"]) == {"0", "1", "2"} for run in runs)
    assert any(line.startswith("moonrollers") for line in lines) and "total" in lines[-1]
    bad_flags = [["--warm-matches", "0"], ["--games", "moon_adventure"], ["--sizes", "9"]]
    for bad in (*bad_flags, ["--jobs", "0"]):
        with pytest.raises(CommandError):
            call_command(
                "ladder_bench", "--arrival", "--games", "moonrollers", *bad, stdout=io.StringIO()
            )
