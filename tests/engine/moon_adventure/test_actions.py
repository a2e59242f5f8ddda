"""The six actions and every movement rule (DATA.md A-27, A-30)."""

from __future__ import annotations

from engine.games.moon_adventure.state import (
    ACT,
    CHIP,
    COLLECTED,
    OGS,
    SHARE,
    SUPPLY,
)
from tests.engine.moon_adventure.helpers import fill, new, place, refresh, set_turn

ROLES = ["carrier", "rookie", "mood_maker"]  # no role changes these actions


def test_movement_goes_one_space_either_way_for_1_ap():
    state = new(ROLES)
    place(state, s0=5, s1=0, s2=0)
    set_turn(state, 0, 4)
    state.apply("move+")
    assert state.pos[0] == 6 and state.ap == 3
    state.apply("move-")
    assert state.pos[0] == 5 and state.ap == 2


def test_movement_jumps_other_crew_route_pieces_and_the_robot():
    state = new(["engineer", "rookie", "mood_maker"])
    place(state, s0=2, s1=3, s2=5)
    state.route[4] = True
    state.robot = 6
    set_turn(state, 0, 3)
    state.apply("move+")
    assert state.pos[0] == 7  # over crew on 3, a route on 4, crew on 5, the robot on 6


def test_movement_past_the_end_of_the_line_is_not_allowed():
    state = new(ROLES)
    state.rider = 2
    place(state, s0=21, s1=0, s2=22)
    state.rover = 22
    set_turn(state, 0, 3)
    assert "move+" not in state.legal_actions()  # only the rover with its rider lies beyond


def test_crew_on_the_base_cannot_move_toward_it():
    state = new(ROLES)
    set_turn(state, 0, 3)
    assert "move-" not in state.legal_actions() and "move+" in state.legal_actions()


def test_reaching_the_base_returns_the_player_who_may_not_leave_it_again():
    state = new(ROLES)
    place(state, s0=2, s1=1, s2=4)
    fill(state, 1, 2)
    set_turn(state, 0, 5)
    state.apply("move-")  # over seat 1 on space 1, onto the base
    assert state.pos[0] == 0 and state.returned[0]
    assert state.cur == 0 and state.ap == 4  # E-moon_adventure-3: the AP left stay
    assert not any(a.startswith(("move", "share")) for a in state.legal_actions())
    state.apply("end")
    assert state.cur == 1


def test_returned_players_are_skipped_and_use_no_more_oxygen():
    state = new(ROLES)
    state.returned[1] = True
    fill(state, 1, 2, 2, 2)
    fill(state, 2, 2)
    set_turn(state, 0, 2)
    state.apply("end")
    assert state.cur == 2
    assert state.slots[1][:3] == [2, 2, 2]


def test_activate_ogs_inserts_a_chip_between_the_player_and_the_next_chip():
    state = new(ROLES)
    place(state, s0=4, s1=6, s2=0)
    before = list(state.chip)
    set_turn(state, 0, 6)
    state.apply("ogs+")
    assert state.kind[5] == OGS and state.chip[5] == -1
    assert state.chip[6:] == before[5:]  # the rest of the line moved up one space
    assert state.pos == [4, 7, 0] and state.rover == 23 and state.ap == 3
    assert state.ogs_left == 4


def test_activate_ogs_toward_the_base_moves_the_player_up_one_space():
    state = new(ROLES)
    place(state, s0=4, s1=2, s2=0)
    set_turn(state, 0, 6)
    state.apply("ogs-")
    assert state.kind[4] == OGS and state.pos == [5, 2, 0]
    state.apply("move-")
    assert state.pos[0] == 4  # stand on the new OGS


def test_at_most_five_ogs_chips_exist():
    state = new(ROLES)
    state.ogs_left = 0
    place(state, s0=4)
    set_turn(state, 0, 6)
    assert "ogs+" not in state.legal_actions()


def test_develop_a_route_puts_a_piece_on_an_adjacent_chip_for_2_ap():
    state = new(ROLES)
    place(state, s0=4, s1=0, s2=0)
    set_turn(state, 0, 5)
    state.apply("route-")
    assert state.route[3] and state.ap == 3 and state.routes_left == 9
    assert "route-" not in state.legal_actions()  # already one there


def test_routes_go_only_on_free_chips():
    state = new(["engineer", "rookie", "mood_maker"])
    place(state, s0=1, s1=2, s2=0)
    set_turn(state, 0, 5)
    legal = state.legal_actions()
    assert "route-" not in legal  # the base is not a chip
    assert "route+" not in legal  # a crew piece stands there
    place(state, s0=21, s1=0)
    assert "route+" not in state.legal_actions()  # the rover space is not a chip
    state.robot = 20
    refresh(state)
    assert "route-" not in state.legal_actions()
    state.routes_left = 0
    place(state, s0=5)
    assert not any(a.startswith("route") for a in state.legal_actions())


def test_gathering_takes_an_adjacent_chip_and_leaves_a_collected_marker():
    state = new(ROLES)
    place(state, s0=4, s1=0, s2=0)
    fill(state, 0, 2)
    chip = state.chip[5]
    set_turn(state, 0, 4)
    state.apply("gather+")
    assert state.kind[5] == COLLECTED and state.chip[5] == -1
    assert state.slots[0][1] == CHIP + chip and state.ap == 1
    assert len(state.kind) == 23  # the space stays in the line


def test_gathering_needs_an_empty_container():
    state = new(ROLES)
    place(state, s0=4)
    fill(state, 0, 2, 2, 2, 3, 3, 3)
    set_turn(state, 0, 6)
    assert not any(a.startswith("gather") for a in state.legal_actions())


def test_no_gathering_under_crew_routes_the_robot_or_from_collected_spaces():
    state = new(["engineer", "rookie", "mood_maker"])
    place(state, s0=4, s1=5, s2=0)
    state.route[3] = True
    set_turn(state, 0, 6)
    assert not any(a.startswith("gather") for a in state.legal_actions())
    place(state, s1=0)
    state.route[3] = False
    state.robot = 5
    state.kind[3] = COLLECTED
    refresh(state)
    assert not any(a.startswith("gather") for a in state.legal_actions())


def test_container_sharing_with_an_adjacent_player_gives_takes_and_swaps():
    state = new(ROLES)
    place(state, s0=4, s1=5, s2=9)
    fill(state, 0, 2, 3, ("chip", 0))
    fill(state, 1, 2, ("chip", 9), None, None, None)
    set_turn(state, 0, 3)
    legal = state.legal_actions()
    assert "share:1" in legal and "share:2" not in legal
    state.apply("share:1")
    assert state.phase == SHARE and state.ap == 2 and state.to_move() == 0
    state.apply("give:2")  # my chip 0 to seat 1
    state.apply("swap:1:0")  # my 3xO2 for their 2xO2
    assert state.slots[1][:3] == [3, CHIP + 9, CHIP + 0]
    assert state.slots[0][:3] == [2, 2, 0]
    legal = state.legal_actions()
    # moved items stay put for the rest of this exchange; nothing else swaps equal cards
    assert "take:0" not in legal and "take:2" not in legal and "take:1" in legal
    state.apply("take:1")
    state.apply("done")
    assert state.phase == ACT and state.ap == 2
    assert state.slots[0][:3] == [2, 2, CHIP + 9]


def test_sharing_on_the_base_before_leaving_is_allowed_but_not_after_returning():
    state = new(ROLES)
    set_turn(state, 0, 3)
    assert {"share:1", "share:2"} <= set(state.legal_actions())
    place(state, s0=1)
    state.returned[1] = True
    assert "share:1" not in state.legal_actions() and "share:2" in state.legal_actions()


def test_abandon_supplies_inserts_the_chip_face_down_and_it_can_be_gathered_again():
    state = new(ROLES)
    place(state, s0=4, s1=0, s2=0)
    fill(state, 0, 2, ("chip", 17))
    state.revealed[17] = True
    set_turn(state, 0, 5)
    state.apply("abandon:1-")
    assert state.kind[4] == SUPPLY and state.chip[4] == 17 and state.pos[0] == 5
    assert state.slots[0][1] == 0 and state.ap == 4
    assert state.area[17] == 5  # it keeps its area (and its broken status)
    state.apply("gather-")
    assert state.slots[0][1] == CHIP + 17


def test_abandoning_needs_a_chip_in_a_container():
    state = new(ROLES)
    place(state, s0=4)
    fill(state, 0, 2, 3)
    set_turn(state, 0, 5)
    assert not any(a.startswith("abandon") for a in state.legal_actions())
