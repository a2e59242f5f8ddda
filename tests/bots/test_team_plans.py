"""scripts/team_plans.py: each Moon Adventure team plan, and the plan search, on the same missions."""

from __future__ import annotations

import pytest

from tests.scripts import assert_refused, run_script


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--missions", "0"], "--missions must be at least 1"),
        (["--search-worlds", "-1"], "--search-worlds not negative"),
        (["--players", "6"], "--players: invalid choice"),
    ],
)
def test_bad_arguments_are_a_clear_error_not_a_traceback(arguments, said):
    assert_refused("team_plans", arguments, said)


def test_every_plan_the_heuristic_and_the_search_play_the_same_missions_repeatably():
    def run():
        done = run_script("team_plans", "--players", "4", "--missions", "3", "--search-worlds", "1")
        assert done.returncode == 0, done.stderr
        rows = [line.split("|")[1:-1] for line in done.stdout.splitlines()[2:]]
        return {row[0].strip(): [cell.strip() for cell in row[1:5]] for row in rows}

    first = run()
    assert list(first) == [
        "bold plan",
        "steady plan",
        "heuristic (steady at 4 players)",
        "search, 1 world a plan",
    ]
    # The heuristic at four players is its steady plan, mission for mission.
    assert first["heuristic (steady at 4 players)"][:3] == first["steady plan"][:3]
    assert first["search, 1 world a plan"][3].startswith("bold ")
    assert first["bold plan"][3] == "-"
    assert run() == first
