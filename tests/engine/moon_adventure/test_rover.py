"""The rover: boarding ends the AP, 2 spaces per AP, restricted actions, one rider (A-29)."""

from __future__ import annotations

from tests.engine.moon_adventure.helpers import fill, new, place, set_turn

ROLES = ["carrier", "rookie", "veteran"]


def test_reaching_the_rover_sets_ap_to_0_and_the_player_rides_it():
    state = new(ROLES)
    place(state, s0=21, s1=0, s2=0)
    set_turn(state, 0, 5)
    state.apply("move+")
    assert state.rider == 0 and state.pos[0] == 22 == state.rover
    assert state.cur == 1  # AP went to 0: the turn is over
    assert state.observation(2)["rider"] == 0


def test_the_rider_moves_two_spaces_for_1_ap_and_the_rover_comes_along():
    state = new(ROLES)
    state.rider = 0
    place(state, s0=22, s1=0, s2=20)
    set_turn(state, 0, 2)
    state.apply("move-")
    assert state.pos[0] == 19 == state.rover  # 21, then over seat 2 on 20 to 19
    assert state.ap == 1


def test_the_rider_may_not_gather_route_or_activate_ogs_but_may_share_and_abandon():
    state = new(ROLES)
    state.rider = 0
    place(state, s0=22, s1=21, s2=0)
    state.kind[21] = 2
    state.rover = 15
    place(state, s0=15, s1=16)
    fill(state, 0, 2, ("chip", 3))
    set_turn(state, 0, 9)
    legal = state.legal_actions()
    assert not any(a.startswith(("gather", "route", "ogs")) for a in legal)
    assert "share:1" in legal and "abandon:1-" in legal and "move-" in legal


def test_only_one_player_rides_the_rover():
    state = new(ROLES)
    state.rider = 2
    place(state, s0=21, s1=0, s2=22)
    set_turn(state, 0, 3)
    assert "move+" not in state.legal_actions()  # the rider's crew piece is in the way


def test_the_waiting_rover_space_stays_as_a_space_after_it_leaves():
    state = new(ROLES)
    state.rider = 0
    place(state, s0=22, s1=0, s2=0)
    set_turn(state, 0, 3)
    state.apply("move-")
    assert state.rover == 20 and len(state.kind) == 23
    place(state, s1=21)
    set_turn(state, 1, 2)
    state.apply("move+")
    assert state.pos[1] == 22 and state.rider == 0  # nothing to board there any more


def test_the_rover_may_enter_the_base_and_its_rider_returns():
    state = new(ROLES)
    state.rider = 0
    place(state, s0=2, s1=0, s2=5)
    state.rover = 2
    fill(state, 1, 2)
    set_turn(state, 0, 3)
    state.apply("move-")
    assert state.pos[0] == 0 and state.rover == 0 and state.returned[0]
    assert state.legal_actions() == ["end"]  # a rider neither gathers nor builds
    state.apply("end")
    assert state.cur == 1
