"""Activating the robot: every activation condition, each die once, each part once."""

from __future__ import annotations

import pytest

from tests.engine.moon_bots.support import at_assign, energies, give, new, uses


def _robot_with(key: str, dice: list[int]):
    state = new(4)
    give(state, 0, key)
    at_assign(state, dice)
    return state


@pytest.mark.parametrize(
    ("key", "slot", "dice", "expected"),
    [
        # several specific numbers: Antenna on 2, 4 or 6
        ("P01", "head", [2], [["use", "head", 0]]),
        ("P01", "head", [4], [["use", "head", 0]]),
        ("P01", "head", [6], [["use", "head", 0]]),
        ("P01", "head", [3], []),
        # one specific number: Periscope Eye on 3
        ("P02", "head", [3], [["use", "head", 0]]),
        ("P02", "head", [4], []),
        # doubles: Horned Helmet
        ("P03", "head", [5, 5], [["use", "head", 0, 1]]),
        ("P03", "head", [5, 4], []),
        # total of 7: Chest Cannon
        ("P07", "torso", [3, 4], [["use", "torso", 0, 1]]),
        ("P07", "torso", [6, 1], [["use", "torso", 0, 1]]),
        ("P07", "torso", [3, 3], []),
        # total less than 4: Overclocked Brain
        ("P04", "head", [1, 2], [["use", "head", 0, 1]]),
        ("P04", "head", [1, 1], [["use", "head", 0, 1]]),
        ("P04", "head", [2, 2], []),
        # total greater than 10: Rocket Launcher
        ("P11", "left_arm", [5, 6], [["use", "left_arm", 0, 1]]),
        ("P11", "left_arm", [6, 6], [["use", "left_arm", 0, 1]]),
        ("P11", "left_arm", [5, 5], []),
    ],
)
def test_each_activation_condition(key, slot, dice, expected):
    state = _robot_with(key, dice)
    assert [a for a in uses(state) if a[1] == slot] == expected


def test_a_pair_condition_needs_two_dice_and_offers_each_value_pair_once():
    state = new(4)
    give(state, 0, "P07", "extra_die", "extra_die", "extra_die")
    at_assign(state, [3, 4, 4, 1])
    assert [a for a in uses(state) if a[1] == "torso"] == [["use", "torso", 0, 1]]
    single = new(4)
    give(single, 0, "P07")
    at_assign(single, [3])
    assert [a for a in uses(single) if a[1] == "torso"] == []


def test_board_abilities_fist_on_1_for_boards_1_and_3_missile_on_6_for_2_and_4():
    state = new(4)
    at_assign(state, [1])
    assert uses(state) == [["use", "board", 0]]
    at_assign(state, [6])
    assert uses(state) == []
    at_assign(state, [6], robot=1)
    assert uses(state) == [["use", "board", 0]]
    state.apply(["use", "board", 0])
    assert state.observation(1)["decision"]["type"] == "missile"


def test_each_die_activates_one_part_and_each_part_activates_once():
    state = new(4)
    give(state, 0, "P01", "P06", "extra_die")  # Antenna 2/4/6, Reactor Core 4
    at_assign(state, [4, 4])
    assert sorted(uses(state)) == [["use", "head", 0], ["use", "torso", 0]]
    state.apply(["use", "head", 0])
    assert uses(state) == [["use", "torso", 1]]
    state.apply(["use", "torso", 1])  # 1 missile: split between neighbours
    assert state.legal_actions() == [["split", 0, 1], ["split", 1, 0]]
    state.apply(["split", 1, 0])
    assert energies(state) == [17, 15, 17, 18]  # +1 +1 energy, one missile on the left
    assert state.active == 1  # no die left and no weapon: the turn ended


def test_done_ends_activation_even_with_dice_left():
    state = new(4)
    give(state, 0, "P01")
    at_assign(state, [2])
    assert "done" in state.legal_actions()
    state.apply("done")
    assert state.active == 1
    assert energies(state)[0] == 15


def test_an_attack_then_an_energy_loss_can_eliminate_the_attacker():
    state = new(4)
    give(state, 0, "P10")  # Drill Arm: 5 or 6 -> 2 fists, -1 energy
    state.robots[0].energy = 1
    at_assign(state, [5])
    state.apply(["use", "left_arm", 0])
    state.apply(["split", 0, 2])
    assert energies(state)[3] == 16
    assert not state.robots[0].alive
    assert state.eliminated == [0]
    assert state.active == 1


def test_roll_rolls_one_die_per_die_the_robot_has():
    state = new(4)
    give(state, 0, "extra_die", "extra_die")
    state.apply("roll")
    roll = state.observation(1)["last_roll"]
    assert roll["robot"] == 0
    assert len(roll["dice"]) == 3
    assert all(1 <= v <= 6 for v in roll["dice"])
