"""Reaction windows (finding 17): weapons played "whenever they want ... including
during another player's turn" - after the roll, on anyone's energy gain, against
deflected hits. Each window asks eligible robots one at a time; "pass" is always legal."""

from __future__ import annotations

from engine.games.moon_bots.cards import KEY
from tests.engine.moon_bots.support import (
    at_assign,
    begin,
    decision,
    energies,
    give,
    new,
    start_turn,
)


def _rolled(state, robot=0):
    """`robot` starts its turn with no window pending, buys nothing and rolls."""
    start_turn(state, robot)
    state.apply("roll")


def test_an_opponent_may_rest_after_seeing_the_roll_and_the_active_robot_activates_nothing():
    state = new(4, seed=2)
    give(state, 0, "P01", "P05", "P15", "P18", "P22", "extra_die", "extra_die", "extra_die")
    give(state, 2, "rest")
    _rolled(state)
    assert decision(state) == {"kind": "after_roll", "robot": 2, "active": 0}
    assert state.to_move() == 2
    assert state.legal_actions() == ["pass", ["sw", "rest"]]
    seen = state.observation(2)
    assert len(seen["dice"]) == 4  # the roll is visible when deciding
    before = energies(state)
    state.apply(["sw", "rest"])
    assert state.active == 1 and state.phase == 0  # robot 0's turn is over
    assert energies(state) == before
    assert state.observation(3)["used_secret_weapons"] == ["rest"]


def test_passing_the_after_roll_window_hands_the_dice_back_to_the_active_robot():
    state = new(4)
    give(state, 0, "stronger")  # a weapon keeps robot 0's activation step open
    give(state, 2, "rest")
    _rolled(state)
    state.apply("pass")
    assert decision(state)["kind"] == "assign" and state.to_move() == 0
    assert state.robots[2].secrets  # Rest kept for later


def test_after_roll_windows_pass_through_opponents_one_at_a_time_in_turn_order():
    state = new(4)
    give(state, 0, "stronger")
    give(state, 3, "dodge")
    give(state, 1, "adjustment")
    _rolled(state)
    assert decision(state)["robot"] == 1
    assert state.legal_actions() == ["pass"]  # being asked reveals nothing
    state.apply("pass")
    assert decision(state)["robot"] == 3
    state.apply("pass")
    assert decision(state)["kind"] == "assign"


def test_a_re_roll_opens_the_after_roll_window_again():
    state = new(4)
    give(state, 0, "reroll", "extra_die")
    give(state, 1, "rest")
    at_assign(state, [2, 3])
    state.apply(["reroll", 0, 1])
    assert decision(state) == {"kind": "after_roll", "robot": 1, "active": 0}
    state.apply(["sw", "rest"])
    assert state.active == 1


def test_energy_stock_played_out_of_turn_opens_an_energy_pump_window():
    state = new(4)
    give(state, 1, "energy_stock", "dodge")
    give(state, 2, "energy_pump")
    state.robots[1].energy = 10
    state.robots[2].energy = 12
    begin(state, 0)
    assert decision(state) == {"kind": "start_of_turn", "robot": 1, "active": 0}
    state.apply(["sw", "energy_stock"])
    assert energies(state)[1] == 14
    assert decision(state) == {"kind": "energy_pump", "robot": 2, "gainer": 1}
    state.apply(["sw", "energy_pump"])
    assert energies(state)[2] == 14
    # Robot 2's gain is an opponent's gain for robot 1 (still holding Dodge): asked too.
    assert decision(state) == {"kind": "energy_pump", "robot": 1, "gainer": 2}
    state.apply("pass")
    # Then robot 1's start-of-turn window resumes, as it still holds a weapon.
    assert decision(state) == {"kind": "start_of_turn", "robot": 1, "active": 0}
    state.apply("pass")
    assert decision(state)["kind"] == "buy"


def test_the_active_robot_may_pump_on_its_own_turn_within_its_plus_two():
    state = new(4)
    give(state, 0, "energy_pump", "stronger")
    give(state, 1, "energy_stock")
    state.robots[0].energy = 10
    state.robots[1].energy = 10
    _rolled(state)
    state.gained = 1  # robot 0 already gained 1 this turn
    assert decision(state)["robot"] == 1
    state.apply(["sw", "energy_stock"])
    assert decision(state) == {"kind": "energy_pump", "robot": 0, "gainer": 1}
    state.apply(["sw", "energy_pump"])
    assert energies(state)[:2] == [11, 14]  # +1: the rest of robot 0's +2 allowance
    assert state.gained == 2


def _deflected_onto_robot_2():
    """Robot 0 fires 2 missiles at robot 1, which deflects them onto robot 2 (holding Dodge)."""
    state = new(4)
    give(state, 1, "deflection")
    give(state, 2, "dodge")
    give(state, 0, "P15")  # Blaster Arm: a 6 fires 2 missiles
    at_assign(state, [6])
    state.apply(["use", "right_arm", 0])
    state.apply(["split", 2, 0])
    state.apply(["sw", "deflection", 2])
    return state


def test_deflected_hits_give_the_new_target_a_defence_window():
    state = _deflected_onto_robot_2()
    assert decision(state) == {
        "kind": "defend",
        "robot": 2,
        "attacker": 1,
        "type": "missile",
        "hits": 2,
    }
    assert state.legal_actions() == ["pass", ["sw", "dodge"]]
    state.apply(["sw", "dodge"])
    assert energies(state)[:3] == [15, 16, 17]
    assert [KEY[c] for c in state.used] == ["deflection", "dodge"]


def test_deflected_hits_the_new_target_does_not_stop_are_taken():
    state = _deflected_onto_robot_2()
    state.apply("pass")
    assert energies(state)[:3] == [15, 16, 15]
