"""Who attacks whom: 4-player adjacency, 3 players, and the 2-player two-robot variant."""

from __future__ import annotations

from tests.engine.moon_bots.support import at_assign, empty_market, energies, give, new, place


def _kill(state, robot):
    state._damage([(robot, 99)])


def test_four_players_attack_left_and_right_never_opposite():
    state = new(4)
    assert [state._targets(r) for r in range(4)] == [[1, 3], [2, 0], [3, 1], [0, 2]]
    give(state, 0, "P15")
    at_assign(state, [6])
    state.apply(["use", "right_arm", 0])
    assert state.observation(0)["decision"] == {
        "kind": "split",
        "robot": 0,
        "type": "missile",
        "hits": 2,
        "left": 1,
        "right": 3,
    }
    state.apply(["split", 1, 1])
    assert energies(state) == [15, 15, 17, 17]


def test_neighbours_are_recomputed_after_an_elimination():
    state = new(4)
    _kill(state, 1)
    assert state._targets(0) == [2, 3]  # the old opposite is now a neighbour
    assert state._targets(2) == [3, 0]
    _kill(state, 3)
    assert state._targets(0) == [2]
    at_assign(state, [1], robot=0)
    state.apply(["use", "board", 0])  # one target: no split decision
    assert energies(state)[2] == 16


def test_three_players_attack_both_others():
    state = new(3)
    assert [state._targets(r) for r in range(3)] == [[1, 2], [2, 0], [0, 1]]


def test_two_players_play_left_then_right_robot_and_attack_only_the_robot_opposite():
    state = new(2)
    assert [state._targets(r) for r in range(4)] == [[3], [2], [1], [0]]
    empty_market(state)
    place(state, 0, "P01")
    state.apply(["buy", 0])
    assert state.robots[0].parts[0] >= 0
    state.apply("roll")
    while state.active == 0:
        state.apply("done")
    assert state.active == 1 and state.to_move() == 0
    place(state, 0, "P05")
    state.apply(["buy", 0])
    assert state.robots[1].parts[1] >= 0 and state.robots[0].parts[1] < 0
    at_assign(state, [6])  # board 2: a missile on a 6
    state.apply(["use", "board", 0])  # no split: robot 1 faces robot 2 only
    assert energies(state) == [15, 15, 15, 16]
    assert state.active == 2 and state.to_move() == 1


def test_two_players_winner_of_a_duel_waits_deactivated_then_the_final_duel():
    state = new(2)
    state.robots[3].energy = 1
    at_assign(state, [1], robot=0)
    state.apply(["use", "board", 0])
    assert not state.robots[3].alive
    assert state._targets(0) == []  # deactivated
    assert state.active == 1  # robot 0's turn ended with its duel
    seen = state.observation(1)["robots"]
    assert seen[0]["alive"] and seen[0]["targets"] == []
    # Robot 0 is skipped while the other duel goes on.
    at_assign(state, [3], robot=1)
    state.apply("done")
    assert state.active == 2
    at_assign(state, [3], robot=2)
    state.apply("done")
    assert state.active == 1
    # Robot 2 (player 1) wins the other duel: robot 0 and robot 2 meet in the final.
    state.robots[1].energy = 1
    give(state, 2, "P15")
    at_assign(state, [6], robot=2)
    state.apply(["use", "right_arm", 0])
    assert not state.robots[1].alive
    assert not state.is_terminal()
    assert state._targets(0) == [2] and state._targets(2) == [0]
    assert state.active == 0
    state.robots[2].energy = 1
    at_assign(state, [1], robot=0)
    state.apply(["use", "board", 0])
    assert state.is_terminal()
    assert state.result()["ranks"] == [1, 2]


def test_two_players_a_player_with_both_duels_won_wins_at_once():
    state = new(2)
    state.robots[3].energy = 1
    state.robots[2].energy = 1
    at_assign(state, [1], robot=0)
    state.apply(["use", "board", 0])
    assert not state.is_terminal()
    give(state, 1, "P15")
    at_assign(state, [6], robot=1)
    state.apply(["use", "right_arm", 0])
    assert state.is_terminal()
    assert state.result()["ranks"] == [1, 2]
    assert state.result()["scores"] == [30, 0]
