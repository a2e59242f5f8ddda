"""Replenishing on an active OGS, reshuffling with one more storm, storms breaking the OGS."""

from __future__ import annotations

from engine.games.moon_adventure.state import OGS, OGS_BROKEN, REPLENISH, STORM
from tests.engine.moon_adventure.helpers import (
    fill,
    new,
    place,
    refresh,
    script_dice,
    set_turn,
)

ROLES = ["carrier", "rookie", "veteran"]


def on_ogs(state, seat=0, at=5):
    state._insert(at, OGS, -1)
    state.pos[seat] = at
    refresh(state)


def test_ending_a_turn_on_an_active_ogs_lets_the_player_draw():
    state = new(ROLES)
    on_ogs(state)
    set_turn(state, 0, 2)
    state.apply("end")
    assert state.phase == REPLENISH and state.to_move() == 0
    assert state.legal_actions() == ["draw", "stop"]


def test_no_replenishing_off_an_ogs_or_on_a_broken_one_or_with_full_containers():
    state = new(ROLES)
    fill(state, 1, 2)
    set_turn(state, 0, 2)
    state.apply("end")
    assert state.cur == 1
    state = new(ROLES)
    on_ogs(state)
    state.kind[5] = OGS_BROKEN
    fill(state, 1, 2)
    set_turn(state, 0, 2)
    state.apply("end")
    assert state.cur == 1
    state = new(ROLES)
    on_ogs(state)
    fill(state, 0, 2, 2, 2, 3, 3, 3)
    fill(state, 1, 2)
    set_turn(state, 0, 2)
    state.apply("end")
    assert state.cur == 1


def keep_order(state):
    """Shuffles leave the pile as it is, so the top card is known."""
    script_dice(state)
    state.rng.shuffle = lambda items: None


def test_the_first_draw_reshuffles_the_discard_pile_and_lays_a_new_storm_card():
    state = new(ROLES)
    on_ogs(state)
    state.discard = [STORM, 2, 3, 2, 2, 3]
    keep_order(state)
    set_turn(state, 0, 2)
    state.apply("end")
    assert state.draw == []
    state.apply("draw")
    assert state.slots[0][3] == 3  # the top of the new draw pile
    assert state.draw == [STORM, 2, 3, 2, 2]  # the old storm card is shuffled in
    assert state.discard == [STORM] and state.storms_aside == 2


def test_drawing_one_at_a_time_fills_empty_containers():
    state = new(ROLES)
    on_ogs(state)
    state.draw = [2, 3, 2]
    fill(state, 0, 2)
    set_turn(state, 0, 2)
    state.apply("end")
    state.apply("draw")
    state.apply("draw")
    assert state.slots[0][:3] == [2, 2, 3] and state.draw == [2]
    state.apply("stop")
    assert state.cur == 1


def test_drawing_stops_by_itself_when_the_containers_are_full():
    state = new(ROLES)
    on_ogs(state)
    state.draw = [2, 3, 2]
    fill(state, 0, 2, 2, 2, 2, 2)
    set_turn(state, 0, 2)
    state.apply("end")
    state.apply("draw")
    assert state.slots[0] == [2] * 6 and state.cur == 1


def test_a_storm_breaks_the_ogs_goes_to_the_discard_and_ends_replenishing():
    state = new(ROLES)
    on_ogs(state)
    state.draw = [2, STORM]
    state.discard = [STORM]
    set_turn(state, 0, 2)
    state.apply("end")
    state.apply("draw")
    assert state.kind[5] == OGS_BROKEN and state.pos[0] == 5
    assert state.discard == [STORM, STORM] and state.draw == [2]
    assert state.cur == 1


def test_reshuffles_add_storms_until_all_four_are_in_play():
    state = new(ROLES)
    on_ogs(state)
    keep_order(state)
    for aside, laid in ((2, [STORM]), (1, [STORM]), (0, [STORM]), (0, [])):
        state.draw = []
        state.discard = [STORM, 2, 2, 2]
        fill(state, 0)
        set_turn(state, 0, 2)
        state.apply("end")
        state.apply("draw")
        assert state.storms_aside == aside and state.discard == laid
        state.apply("stop")


def test_a_broken_ogs_is_still_a_space_to_stand_on_and_jump_from():
    state = new(ROLES)
    on_ogs(state)
    state.kind[5] = OGS_BROKEN
    place(state, s0=4)
    set_turn(state, 0, 2)
    state.apply("move+")
    assert state.pos[0] == 5
