"""A world from an observation: a full engine state consistent with what one seat saw.

`world_from_observation(game, observation, seat, rng)` rebuilds every field the
observation shows and samples what the seat cannot see (decks, other players' hidden
tokens or cards) from what it could still be. It never sees the referee's state; the
world's own RNG (future dice, draws) is seeded from `rng` alone, so it cannot reveal
the real future. Search bots use it for determinization.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from engine.core.state import State

# Game name -> its sampler module in this package (imported on first use, so loading
# one game's sampler never loads the others). Each module has `world(observation, seat,
# rng, *, options, history)`.
SAMPLERS: dict[str, str] = {
    "moonrollers": "moonrollers",
    "moonrakers": "moonrakers",
    "moon_adventure": "moon_adventure",
    "moon_bots": "moon_bots",
}


def world_from_observation(
    game: str,
    observation: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    history: list[dict[str, Any]] | None = None,
) -> State:
    """A state of `game` whose `observation(seat)` equals `observation`, hidden parts drawn
    with `rng`. `options` are the match's (the `start` message's); `history` is the list
    of the observations this seat saw earlier in the match, oldest first, which games
    whose observation leaves out something public read (Moonrakers)."""
    if game not in SAMPLERS:
        raise ValueError(f"no world sampler for {game!r}")
    module = importlib.import_module(f"{__name__}.{SAMPLERS[game]}")
    world: State = module.world(observation, seat, rng, options=options, history=history)
    return world
