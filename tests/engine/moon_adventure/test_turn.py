"""A turn: consume one oxygen card, roll 2 or 3 dice for AP, act, end."""

from __future__ import annotations

from engine.games.moon_adventure.state import ACT, OXYGEN, STORM
from tests.engine.moon_adventure.helpers import fill, new, script_dice, set_turn


def start_turn_of(state, seat):
    state.cur = (seat - 1) % state.num_players
    state._next_turn()
    state._legal_cache = None


def test_a_2xo2_card_rolls_two_dice_and_their_sum_is_the_ap():
    state = new(["veteran", "carrier"])
    fill(state, 1, 2, 2)
    script_dice(state, 3, 2)
    start_turn_of(state, 1)
    assert state.phase == ACT and state.dice == [3, 2] and state.ap == 5
    assert state.slots[1].count(2) == 1
    assert state.discard[-1] == 2  # the card went to the discard pile


def test_a_3xo2_card_rolls_three_dice():
    state = new(["veteran", "carrier"])
    fill(state, 1, 3)
    script_dice(state, 1, 1, 2)
    start_turn_of(state, 1)
    assert state.dice == [1, 1, 2] and state.ap == 4
    assert 3 not in state.slots[1]


def test_holding_both_kinds_the_player_chooses_which_card_to_consume():
    state = new(["veteran", "carrier"])
    fill(state, 1, 2, 3)
    start_turn_of(state, 1)
    assert state.phase == OXYGEN and state.to_move() == 1
    assert state.legal_actions() == ["oxygen2", "oxygen3"]
    script_dice(state, 3, 3, 3)
    state.apply("oxygen3")
    assert state.ap == 9 and state.slots[1].count(2) == 1 and 3 not in state.slots[1]


def test_dice_show_only_1_2_or_3():
    state = new(["veteran", "carrier"])
    seen = set()
    for _ in range(200):
        state._roll(3)
        seen.update(state.dice)
    assert seen == {1, 2, 3}


def test_end_passes_the_turn_clockwise_and_leftover_ap_is_lost():
    state = new(["veteran", "carrier", "rookie"])
    set_turn(state, 0, 6)
    fill(state, 1, 2)
    script_dice(state, 1, 1)
    state.apply("end")
    assert state.cur == 1 and state.phase == ACT
    assert state.ap == 2  # the new roll; seat 0's 6 AP are gone


def test_the_turn_ends_by_itself_when_no_ap_is_left():
    state = new(["veteran", "carrier", "rookie"])
    set_turn(state, 0, 1)
    state.apply("move+")
    assert state.cur == 1


def test_end_is_always_legal_in_the_action_phase():
    state = new(["veteran", "carrier"])
    set_turn(state, 0, 0)
    assert state.legal_actions() == ["end"]
    set_turn(state, 0, 9)
    assert state.legal_actions()[-1] == "end"


def test_actions_cost_their_ap_and_need_enough_of_it():
    state = new(["carrier", "rookie"])
    set_turn(state, 0, 2)
    state.pos[0] = 3
    legal = state.legal_actions()
    assert "move+" in legal and "route+" in legal
    assert "ogs+" not in legal and "gather+" not in legal  # 3 AP each
    state.apply("route+")
    assert state.route[4] and state.routes_left == 9
    assert state.cur == 1  # 0 AP left: the turn ended


def test_the_discard_pile_keeps_its_storm_card_under_the_consumed_oxygen():
    state = new(["veteran", "carrier"])
    assert state.discard[0] == STORM
