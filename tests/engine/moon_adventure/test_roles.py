"""All ten roles and their exact effects."""

from __future__ import annotations

from engine.games.moon_adventure.state import ACT, OGS, ROBOT
from tests.engine.moon_adventure.helpers import (
    fill,
    new,
    place,
    refresh,
    script_dice,
    set_turn,
)


def begin_turn(state, seat):
    state.cur = (seat - 1) % state.num_players
    state._next_turn()
    refresh(state)


def test_engineer_moves_the_robot_0_to_2_spaces_at_the_start_of_the_turn():
    state = new(["carrier", "engineer"])
    place(state, s0=1)
    state.robot = 3
    fill(state, 1, 2)
    begin_turn(state, 1)
    assert state.phase == ROBOT and state.to_move() == 1
    assert state.legal_actions() == ["robot0", "robot+1", "robot+2", "robot-1", "robot-2"]
    assert state._robot_step(2, -1) == 0  # robot-2 jumps the crew on 1 onto the base
    state.apply("robot+2")
    assert state.robot == 5 and state.phase == ACT


def test_engineer_may_leave_the_robot_where_it_is():
    state = new(["carrier", "engineer"])
    state.robot = 4
    fill(state, 1, 2)
    begin_turn(state, 1)
    state.apply("robot0")
    assert state.robot == 4


def test_the_robot_jumps_crew_and_routes_and_never_parks_on_the_waiting_rover():
    state = new(["carrier", "engineer"])
    state.robot = 19
    place(state, s0=20)
    state.route[21] = True
    assert state._robot_moves() == ["robot-1", "robot-2"]


def test_chips_under_the_robot_cannot_be_gathered_and_crew_jump_it():
    state = new(["carrier", "engineer"])
    place(state, s0=4, s1=0)
    state.robot = 5
    set_turn(state, 0, 6)
    assert "gather+" not in state.legal_actions()
    state.apply("move+")
    assert state.pos[0] == 6


def test_carrier_gathers_into_a_sixth_container():
    state = new(["carrier", "rookie"])
    place(state, s0=4, s1=0)
    fill(state, 0, 2, 2, 3, ("chip", 0), ("chip", 1))
    set_turn(state, 0, 3)
    state.apply("gather+")
    assert sum(1 for item in state.slots[0] if item) == 6


def test_mood_maker_gets_3_ap_more_when_all_dice_match():
    state = new(["carrier", "mood_maker"])
    fill(state, 1, 3, 2)
    begin_turn(state, 1)
    script_dice(state, 2, 2, 2)
    state.apply("oxygen3")
    assert state.ap == 9


def test_mood_maker_bonus_needs_matching_dice():
    state = new(["carrier", "mood_maker"])
    fill(state, 1, 2)
    script_dice(state, 1, 2)
    begin_turn(state, 1)
    assert state.ap == 3
    fill(state, 1, 2)
    script_dice(state, 3, 3)
    begin_turn(state, 1)
    assert state.ap == 9


def test_mechanic_activates_one_ogs_per_turn_for_1_ap():
    state = new(["mechanic", "rookie"])
    place(state, s0=4, s1=0)
    set_turn(state, 0, 4)
    state.apply("ogs+")
    assert state.ap == 3
    state.apply("ogs-")
    assert state.ogs_left == 3 and state.cur == 1  # the second one costs the usual 3


def test_mechanic_discount_does_not_carry_to_a_second_ogs():
    state = new(["mechanic", "rookie"])
    place(state, s0=4, s1=0)
    set_turn(state, 0, 3)
    state.apply("ogs+")
    assert state.ap == 2 and "ogs+" not in state.legal_actions()


def test_inspector_turns_one_of_her_chips_face_up_once_per_turn_for_1_ap():
    state = new(["inspector", "rookie"])
    place(state, s0=4, s1=0)
    fill(state, 0, 2, ("chip", 3), ("chip", 12))
    set_turn(state, 0, 4)
    assert {"inspect:1", "inspect:2"} <= set(state.legal_actions())
    state.apply("inspect:2")
    assert state.revealed[12] and state.ap == 3
    assert not any(a.startswith("inspect") for a in state.legal_actions())
    seen = state.observation(1)["containers"][0][2]
    assert seen == {"area": 4, "broken": state.broken[12]}  # face up: the table sees it


def test_only_the_inspector_may_turn_chips_face_up():
    state = new(["carrier", "rookie"])
    fill(state, 0, 2, ("chip", 3))
    set_turn(state, 0, 4)
    assert not any(a.startswith("inspect") for a in state.legal_actions())


def test_inventor_routes_once_per_turn_for_1_ap_and_may_stand_on_routes():
    state = new(["inventor", "rookie"])
    place(state, s0=4, s1=0)
    set_turn(state, 0, 5)
    state.apply("route+")
    assert state.ap == 4
    state.apply("walk+")
    assert state.pos[0] == 5  # stops on the route piece
    state.apply("route+")
    assert state.ap == 1  # the second route costs 2


def test_inventor_may_also_jump_route_pieces_like_everyone():
    # "You may move on a route. Like the other players, you may also jump over the route pieces."
    state = new(["inventor", "rookie"])
    place(state, s0=4, s1=0)
    state.route[5] = state.route[6] = True
    set_turn(state, 0, 3)
    legal = state.legal_actions()
    assert {"move+", "walk+", "move-"} <= set(legal)
    assert "walk-" not in legal  # toward the base the next space is no route piece
    state.apply("move+")
    assert state.pos[0] == 7 and state.ap == 2
    state.apply("walk-")
    assert state.pos[0] == 6 and state.ap == 1


def test_only_the_inventor_may_walk_onto_route_pieces():
    state = new(["carrier", "inventor"])
    place(state, s0=4, s1=0)
    state.route[5] = True
    set_turn(state, 0, 3)
    assert not any(a.startswith("walk") for a in state.legal_actions())


def test_others_always_jump_route_pieces():
    state = new(["carrier", "rookie"])
    place(state, s0=4, s1=0)
    state.route[5] = True
    set_turn(state, 0, 5)
    state.apply("move+")
    assert state.pos[0] == 6


def test_veteran_gathers_for_2_ap():
    state = new(["veteran", "rookie"])
    place(state, s0=4, s1=0)
    set_turn(state, 0, 2)
    assert "gather+" in state.legal_actions()
    state.apply("gather+")
    assert state.cur == 1  # 0 AP left


def test_flight_surgeon_shares_once_per_turn_for_free():
    state = new(["flight_surgeon", "rookie", "carrier"])
    place(state, s0=4, s1=5, s2=3)
    set_turn(state, 0, 1)
    state.apply("share:1")
    state.apply("done")
    assert state.ap == 1
    state.apply("share:2")
    assert state.ap == 0  # the second exchange costs 1 AP


def test_flight_surgeon_free_share_is_offered_even_with_0_ap():
    state = new(["flight_surgeon", "rookie"])
    place(state, s0=4, s1=5)
    set_turn(state, 0, 0)
    assert state.legal_actions() == ["share:1", "end"]


def test_athlete_starts_a_turn_on_an_active_ogs_with_2_ap_more():
    state = new(["carrier", "athlete"])
    state._insert(5, OGS, -1)
    place(state, s0=1, s1=5)
    fill(state, 1, 2)
    script_dice(state, 1, 1)
    begin_turn(state, 1)
    assert state.ap == 4
    state.kind[5] = 4  # a broken OGS gives nothing
    fill(state, 1, 2)
    script_dice(state, 1, 1)
    begin_turn(state, 1)
    assert state.ap == 2


def test_rookie_may_reroll_all_dice_once_before_acting():
    state = new(["carrier", "rookie"])
    fill(state, 1, 3)
    script_dice(state, 1, 1, 1, 3, 3, 2)
    begin_turn(state, 1)
    assert state.ap == 3 and "reroll" in state.legal_actions()
    state.apply("reroll")
    assert state.dice == [3, 3, 2] and state.ap == 8
    assert "reroll" not in state.legal_actions()


def test_rookie_loses_the_reroll_once_she_acts():
    state = new(["carrier", "rookie"])
    fill(state, 1, 2)
    script_dice(state, 2, 2)
    begin_turn(state, 1)
    state.apply("move+")
    assert "reroll" not in state.legal_actions()
