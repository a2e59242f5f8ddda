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


class WorldHistory:
    """Earlier observations a bot saw in one match, oldest first (kept by the bot).

    Games whose observation lacks something public that earlier observations showed
    read it here; a game that needs nothing ignores it.
    """

    def __init__(self) -> None:
        self.observations: list[dict[str, Any]] = []

    def add(self, observation: dict[str, Any]) -> None:
        self.observations.append(observation)


# Game name -> its sampler module in this package (imported on first use, so loading
# one game's sampler never loads the others). Each module has `world_from_observation`.
SAMPLERS: dict[str, str] = {
    "moonrollers": "moonrollers",
    "moon_bots": "moon_bots",
}


def world_from_observation(
    game: str,
    observation: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    history: WorldHistory | None = None,
) -> State:
    """A state of `game` whose `observation(seat)` equals `observation`, hidden parts drawn with `rng`."""
    if game not in SAMPLERS:
        raise ValueError(f"no world sampler for {game!r}")
    module = importlib.import_module(f"{__name__}.{SAMPLERS[game]}")
    return module.world_from_observation(observation, seat, rng, options=options, history=history)
