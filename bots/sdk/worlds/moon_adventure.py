"""A Moon Adventure world from one seat's observation (issue #40 point 1).

Everything in Moon Adventure is public except two things no seat has seen: whether a
face-down supply chip is broken, and the order of the oxygen draw pile. The engine's
own `MoonAdventureState.from_observation` rebuilds a table from an observation and draws
exactly those: the unseen chips of each area get the broken flags that area has left
(its undamaged count minus the undamaged chips already turned face up), dealt in a
uniformly random order, and the draw pile gets its public composition in a uniformly
random order. Both are the exact posterior: nobody, this seat included, has learnt
anything else about them. No history is needed.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.registry import get_game
from engine.games.moon_adventure.state import MoonAdventureState


def world(
    observation: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    history: Any = None,
) -> MoonAdventureState:
    """A full state whose `observation(seat)` is `observation`, its hidden parts drawn
    with `rng`. `history` is accepted for the common signature and not needed."""
    del history  # every public fact is in the observation itself
    if observation.get("seat", seat) != seat:
        raise ValueError(f"the observation is seat {observation['seat']}'s, not seat {seat}'s")
    game = get_game("moon_adventure")
    # The world's own dice come from a generator drawn from `rng` alone, never from the
    # observation, so the world cannot know the real game's future rolls.
    world_rng = random.Random(rng.getrandbits(64))
    state = MoonAdventureState.from_observation(game, observation, world_rng)
    # from_observation leaves the options empty; they only matter at set-up (the target,
    # chosen roles), which the observation already shows, but a world should carry them.
    state.options = game.check_options(options)
    return state
