"""The world sampler covers every registered game, through the one entry point."""

from __future__ import annotations

import random

import pytest

import engine
from bots.sdk.worlds import world_from_observation


@pytest.mark.parametrize("game", engine.game_names())
def test_every_game_has_a_world_sampler_behind_the_one_entry_point(game):
    description = engine.get_game(game)
    state = description.new_state(description.min_players, 11, {})
    seat = state.to_move()
    observation = state.observation(seat)
    world = world_from_observation(game, observation, seat, random.Random(3), history=[])
    assert world.observation(seat) == observation
    assert sorted(map(repr, world.legal_actions())) == sorted(map(repr, state.legal_actions()))


def test_an_unknown_game_is_refused_with_its_name():
    with pytest.raises(ValueError, match="no world sampler for 'chess'"):
        world_from_observation("chess", {}, 0, random.Random(0))
