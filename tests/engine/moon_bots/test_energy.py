"""Energy: +2 per own turn, never above 18, out at 0, ranks by elimination order."""

from __future__ import annotations

from tests.engine.moon_bots.support import at_assign, energies, give, new


def test_gains_on_your_own_turn_stop_at_two():
    state = new(4)
    give(state, 0, "P05", "P01", "P18", "extra_die", "extra_die", "dodge")
    state.robots[0].energy = 10
    at_assign(state, [1, 2, 1])  # Battery +2, Antenna +1, Pogo Leg 1 fist +1
    state.apply(["use", "torso", 0])
    assert energies(state)[0] == 12
    state.apply(["use", "head", 1])
    assert energies(state)[0] == 12
    assert state.observation(0)["energy_gained_this_turn"] == 2


def test_losses_do_not_reopen_the_gain_allowance():
    state = new(4)
    give(state, 0, "P01", "P10", "P18", "extra_die", "extra_die", "dodge")
    state.robots[0].energy = 10
    at_assign(state, [2, 5, 1])
    state.apply(["use", "head", 0])  # +1
    state.apply(["use", "left_arm", 1])  # 2 fists, -1
    state.apply(["split", 2, 0])
    state.apply(["use", "left_leg", 2])  # 1 fist, +1 (second point of the allowance)
    state.apply(["split", 1, 0])
    assert energies(state)[0] == 11
    assert state.gained == 2


def test_energy_never_exceeds_18():
    state = new(4)
    give(state, 3, "P05")
    at_assign(state, [2], robot=3)
    state.apply(["use", "torso", 0])
    assert energies(state)[3] == 18
    state.robots[3].energy = 17
    at_assign(state, [2], robot=3)
    state.apply(["use", "torso", 0])
    assert energies(state)[3] == 18


def test_a_new_turn_resets_the_allowance():
    state = new(4)
    give(state, 0, "P05")
    state.robots[0].energy = 5
    at_assign(state, [1], robot=0)
    state.apply(["use", "torso", 0])
    at_assign(state, [1], robot=0)
    state.apply(["use", "torso", 0])
    assert energies(state)[0] == 9


def test_a_robot_at_zero_is_out_and_ranks_follow_elimination_order():
    state = new(4)
    for victim in (1, 3, 2):
        state.robots[victim].energy = 1
        at_assign(state, [1], robot=0)
        state.apply(["use", "board", 0])
        if not state.is_terminal() and state.decision is not None:
            left, right = state._targets(0)
            state.apply(["split", 1, 0] if left == victim else ["split", 0, 1])
        assert not state.robots[victim].alive
    assert state.is_terminal()
    assert state.eliminated == [1, 3, 2]
    result = state.result()
    assert result["ranks"] == [1, 4, 2, 3]
    assert result["scores"] == [15, 0, 0, 0]
    assert state.to_move() is None and state.legal_actions() == []


def test_the_turn_cap_ends_the_game_and_survivors_rank_by_energy():
    state = new(4, max_rounds=1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply("done" if "done" in legal else "roll" if "roll" in legal else legal[0])
    result = state.result()
    assert result["turn_cap_reached"]
    assert result["turns"] == 4
    assert result["ranks"] == [4, 3, 2, 1]
