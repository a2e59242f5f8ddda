"""Setting up a mission: the track, oxygen, piles, roles and containers."""

from __future__ import annotations

import pytest

import engine
from engine.games.moon_adventure.data import RULES
from engine.games.moon_adventure.state import (
    ACT,
    BASE,
    CHOOSE,
    OXYGEN,
    ROBOT,
    ROVER_SPOT,
    STORM,
    SUPPLY,
)
from tests.engine.moon_adventure.helpers import GAME, new


def test_the_game_is_registered_as_a_cooperative_2_to_5_player_game():
    game = engine.get_game("moon_adventure")
    assert game.rules_version == "moon_adventure@3"
    assert (game.min_players, game.max_players, game.cooperative) == (2, 5, True)
    assert game.default_options() == {"roles": "dealt", "beginner": False}
    with pytest.raises(engine.InvalidSetup):
        game.new_state(3, 1, {"roles": "random"})
    with pytest.raises(engine.InvalidSetup):
        game.new_state(6, 1)


def test_the_track_runs_base_then_seven_chips_of_areas_3_4_5_then_the_rover():
    state = GAME.new_state(3, 4)
    assert state.kind[0] == BASE
    assert state.kind[1:22] == [SUPPLY] * 21
    assert state.kind[22] == ROVER_SPOT and state.rover == 22 and state.rider == -1
    areas = [state.area[state.chip[q]] for q in range(1, 22)]
    assert areas == [3] * 7 + [4] * 7 + [5] * 7
    for area, good in ((3, 3), (4, 4), (5, 5)):  # area N holds N undamaged chips
        flags = [state.broken[c] for c in range(21) if state.area[c] == area]
        assert flags.count(False) == good and flags.count(True) == 7 - good


def test_broken_chips_are_shuffled_within_each_area():
    layouts = {tuple(GAME.new_state(2, seed).broken) for seed in range(20)}
    assert len(layouts) > 10


def test_each_player_gets_three_oxygen_cards_and_the_rest_lie_on_a_storm_card():
    for players in range(2, 6):
        state = GAME.new_state(players, 8)
        cards = [item for slots in state.slots for item in slots if item]
        assert all(sum(1 for i in slots if i) == 3 for slots in state.slots)
        assert state.draw == []  # the draw pile starts empty
        assert state.discard[0] == STORM and STORM not in state.discard[1:]
        everything = sorted(cards + state.discard[1:])
        assert everything == [2] * 10 + [3] * 5
        assert state.storms_aside == 3


def test_dealt_roles_are_distinct_and_the_first_player_starts():
    for seed in range(10):
        state = GAME.new_state(5, seed)
        assert len(set(state.roles)) == 5 and set(state.roles) <= set(RULES.role_ids)
        assert state.to_move() == 0
        assert state.phase in (ACT, OXYGEN, ROBOT)


def test_chosen_roles_are_picked_in_seat_order_from_the_remaining_cards():
    state = GAME.new_state(3, 1, {"roles": "chosen"})
    assert state.phase == CHOOSE and state.to_move() == 0
    assert len(state.legal_actions()) == 10
    state.apply("role:carrier")
    assert state.to_move() == 1 and "role:carrier" not in state.legal_actions()
    state.apply("role:engineer")
    state.apply("role:inventor")
    assert state.roles == ["carrier", "engineer", "inventor"]
    assert state.to_move() == 0
    assert state.observation(2)["roles"] == ["carrier", "engineer", "inventor"]


def test_the_carrier_has_six_containers_and_the_others_five():
    state = new(["carrier", "veteran", "rookie"])
    assert [len(slots) for slots in state.slots] == [6, 5, 5]


def test_the_robot_is_on_the_base_only_with_an_engineer():
    assert new(["engineer", "veteran"]).robot == 0
    assert new(["carrier", "veteran"]).robot == -1
