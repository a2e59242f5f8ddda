"""Issue 18, findings 20-22: edge cases where the engine read against the rulebook."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.games.moon_adventure.state import ACT, COLLECTED, OGS, REPLENISH, STORM, SUPPLY
from tests.engine.moon_adventure.helpers import GAME, fill, new, place, script_dice, set_turn

ROLES = ["carrier", "rookie", "mood_maker"]  # no role changes these rules


# ----- 20: back on the Base with AP left (E-moon_adventure-3) -----------------------------


def test_a_player_back_on_the_base_may_still_gather_the_chip_beside_it():
    state = new(ROLES)
    place(state, s0=2, s1=5, s2=6)
    fill(state, 0, 2)
    fill(state, 1, 2)
    set_turn(state, 0, 5)
    state.apply("move-")
    state.apply("move-")
    assert state.returned[0] and state.cur == 0 and state.ap == 3
    chip = state.chip[1]
    assert "gather+" in state.legal_actions()
    state.apply("gather+")
    assert state.slots[0][1] == 10 + chip and state.kind[1] == COLLECTED
    assert state.cur == 1  # no AP left: the turn ended by itself


def test_a_player_back_on_the_base_may_develop_a_route_or_activate_an_ogs_beside_it():
    state = new(ROLES)
    place(state, s0=1, s1=5, s2=6)
    fill(state, 0, 2, ("chip", 3))
    set_turn(state, 0, 6)
    state.apply("move-")
    legal = state.legal_actions()
    assert {"route+", "ogs+", "abandon:1+", "end"} <= set(legal)
    state.apply("ogs+")
    assert state.kind[1] == OGS and state.pos[0] == 0 and state.ap == 2


def test_a_player_back_on_the_base_may_not_leave_share_or_turn_chips_face_up():
    # "you cannot start from the base again ... You may not share supply or oxygen cards
    # ... You may not turn any supply chips you have face up until all players have returned"
    state = new(["inspector", "rookie", "carrier"])
    place(state, s0=1, s1=2, s2=0)
    fill(state, 0, 2, ("chip", 3))
    set_turn(state, 0, 6)
    assert {"share:1", "share:2", "inspect:1"} <= set(state.legal_actions())
    state.apply("move-")
    legal = state.legal_actions()
    assert not any(a.startswith(("move", "walk", "share", "inspect")) for a in legal)


def test_the_mission_ends_when_the_last_player_home_ends_that_turn():
    state = new(ROLES)
    place(state, s0=1, s1=0, s2=0)
    state.returned[1] = state.returned[2] = True
    fill(state, 0, 2)
    set_turn(state, 0, 4)
    state.apply("move-")
    assert not state.is_terminal() and state.cur == 0
    state.apply("end")
    assert state.is_terminal()


# ----- 21: the rider "may move 2 spaces for 1 AP" (E-moon_adventure-7) --------------------


def test_the_rider_may_also_move_a_single_space_for_1_ap():
    state = new(ROLES)
    state.rider = 0
    place(state, s0=22, s1=0, s2=0)
    set_turn(state, 0, 3)
    legal = state.legal_actions()
    assert {"move-", "move1-"} <= set(legal)
    state.apply("move1-")
    assert state.pos[0] == 21 == state.rover and state.ap == 2
    state.apply("move-")
    assert state.pos[0] == 19 == state.rover and state.ap == 1


def test_one_space_is_offered_only_when_it_lands_elsewhere_and_only_to_the_rider():
    state = new(ROLES)
    state.rider = 0
    state.rover = 1
    place(state, s0=1, s1=5, s2=6)
    set_turn(state, 0, 3)
    assert "move-" in state.legal_actions() and "move1-" not in state.legal_actions()
    walker = new(ROLES)
    place(walker, s0=4, s1=0, s2=0)
    set_turn(walker, 0, 3)
    assert not any(a.startswith("move1") for a in walker.legal_actions())


# ----- 22: OGS under the Rover, boarding, collected chips, mid-replenish reshuffles ------


def test_a_rider_parked_on_an_active_ogs_does_not_replenish():
    state = new(ROLES)
    state._insert(15, OGS, -1)
    state.rider = 0
    state.rover = 15
    place(state, s0=15, s1=0, s2=0)
    fill(state, 0, 2)
    fill(state, 1, 2)
    set_turn(state, 0, 1)
    state.apply("end")
    assert state.phase != REPLENISH and state.cur == 1


def test_an_athlete_riding_the_rover_over_an_active_ogs_gets_no_bonus():
    state = new(["carrier", "athlete"])
    state._insert(15, OGS, -1)
    state.rider = 1
    state.rover = 15
    place(state, s0=0, s1=15)
    fill(state, 1, 2)
    state.rng = random.Random(0)
    state.cur = 0
    state._next_turn()
    assert state.cur == 1 and state.bonus == 0
    assert state.ap == sum(state.dice)


def test_boarding_the_rover_ends_even_a_flight_surgeons_turn_at_once():
    state = new(["flight_surgeon", "rookie", "carrier"])
    place(state, s0=21, s1=20, s2=0)
    fill(state, 1, 2)
    set_turn(state, 0, 4)
    assert "share:1" in state.legal_actions()
    state.apply("move+")
    assert state.rider == 0 and state.pos[0] == 22
    assert state.cur == 1 and state.phase == ACT  # no free exchange after boarding


def test_regathering_an_abandoned_chip_places_no_second_collected_chip():
    state = new(ROLES)
    place(state, s0=4, s1=0, s2=0)
    fill(state, 0, 2)
    set_turn(state, 0, 9)
    chip = state.chip[5]
    state.apply("gather+")
    assert state.kind.count(COLLECTED) == 1
    state.apply("abandon:1-")  # inserted at 4, seat 0 now on 5
    assert state.kind[4] == SUPPLY and len(state.kind) == 24
    assert state.observation(1)["track"][4]["abandoned"] is True
    assert state.observation(1)["track"][7]["abandoned"] is False
    state.apply("gather-")
    assert state.slots[0][1] == 10 + chip
    assert len(state.kind) == 23 and state.pos[0] == 4  # the inserted space is gone
    assert state.kind.count(COLLECTED) == 1


def test_a_draw_pile_emptied_while_replenishing_ends_the_replenish_without_a_reshuffle():
    # "If no cards are left in the draw pile right before you replenish": the
    # reshuffle is checked once, before drawing; drawing the last card ends it.
    state = new(ROLES)
    state._insert(5, OGS, -1)
    place(state, s0=5, s1=0, s2=0)
    state.draw = [2]
    state.discard = [STORM, 3, 3, 2]
    fill(state, 0, 2)
    fill(state, 1, 2)
    set_turn(state, 0, 1)
    state.apply("end")
    assert state.phase == REPLENISH
    state.apply("draw")
    assert state.slots[0][:2] == [2, 2] and state.draw == []
    assert state.cur == 1  # (seat 1 has since laid its oxygen card on the discard pile)
    assert state.discard[:4] == [STORM, 3, 3, 2] and state.storms_aside == 3


def test_an_empty_draw_pile_is_still_reshuffled_right_before_a_replenish():
    state = new(ROLES)
    state._insert(5, OGS, -1)
    place(state, s0=5, s1=0, s2=0)
    state.draw = []
    state.discard = [STORM, 3, 3, 2]
    fill(state, 0, 2)
    script_dice(state)
    state.rng.shuffle = lambda items: None  # the top card is known
    set_turn(state, 0, 1)
    state.apply("end")
    state.apply("draw")
    assert state.storms_aside == 2 and state.discard == [STORM]
    assert state.slots[0][1] == 2 and state.draw == [STORM, 3, 3]
    assert state.phase == REPLENISH and state.cur == 0


# ----- the rules version ---------------------------------------------------------------


def test_a_record_of_the_previous_rules_version_is_refused_by_name():
    st = GAME.new_state(3, 3)
    rng = random.Random(3)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    record = json.loads(json.dumps(st.record()))
    assert record["rules_version"] == "moon_adventure@3"
    engine.replay(record)
    record["rules_version"] = "moon_adventure@2"
    with pytest.raises(engine.ReplayMismatch, match="moon_adventure@2.*moon_adventure@3"):
        engine.replay(record)
