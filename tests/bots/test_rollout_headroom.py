"""scripts/rollout_headroom.py: what searching one Moon Adventure decision could gain."""

from __future__ import annotations

import itertools

import pytest

from engine.games.moon_adventure.data import RULES
from tests.scripts import assert_refused, load_script, run_script


def _script():
    return load_script("rollout_headroom")


def _counted(held: tuple[int, ...], target: int) -> float:
    """The same chance by listing every way to pick the held chips from each area."""
    areas = []
    for area, count in zip(RULES.areas, held, strict=True):
        good = RULES.undamaged_per_area[area]
        chips = [1] * good + [0] * (RULES.chips_per_area - good)
        areas.append([sum(pick) for pick in itertools.combinations(chips, count)])
    ways = list(itertools.product(*areas))
    return sum(sum(way) >= target for way in ways) / len(ways)


@pytest.mark.parametrize(
    ("held", "target"),
    [((0, 0, 0), 0), ((2, 1, 0), 2), ((1, 3, 4), 5), ((0, 4, 5), 7), ((7, 7, 7), 12)],
)
def test_the_chance_of_enough_undamaged_chips_is_the_counted_one(held, target):
    assert _script().success_chance(held, target) == pytest.approx(_counted(held, target))


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--worlds", "2"], "--worlds must be at least 4"),
        (["--candidates", "0"], "--candidates at least 1"),
        (["--players", "7"], "--players: invalid choice"),
    ],
)
def test_bad_arguments_are_a_clear_error_not_a_traceback(arguments, said):
    assert_refused("rollout_headroom", arguments, said)


def test_the_script_prints_a_row_per_kind_the_same_every_run_but_for_the_timings():
    def run():
        done = run_script(
            "rollout_headroom",
            "--points",
            "2",
            "--worlds",
            "4",
            "--kinds",
            "oxygen",
            "act",
        )
        assert done.returncode == 0, done.stderr
        rows = [line.split("|")[1:-1] for line in done.stdout.splitlines()[2:]]
        return [[cell.strip() for cell in row[:5]] for row in rows]

    first = run()
    assert [row[0] for row in first] == ["oxygen", "act"]
    assert all(row[1] == "2" for row in first)
    assert run() == first
