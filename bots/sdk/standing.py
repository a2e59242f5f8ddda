"""A search bot's evaluation fitted to games: each seat's standing from its features.

A playout cut short (`SearchBot.horizon` or `playout_depth`) needs a score for a game not
yet over. `FittedStanding` is that score when the weights come from
`scripts/fit_standing.py`: a seat's standing is the sum over its features of
`value × (start + progress × grow)`, in log-odds units of "this seat finishes ahead of
that one", and the reward is `standing_reward` of the standings. A bot declares its
features and the fitted table; the rest is here.

    from bots.sdk.search import SearchBot, heuristic_policy, turns_played
    from bots.sdk.standing import FittedStanding

    class Bot(SearchBot):
        game = "moon_bots"
        policy = staticmethod(heuristic_policy(heuristic.act))
        evaluate = FittedStanding(WEIGHTS, FEATURES, features, progress)
        horizon = staticmethod(turns_played)
        horizon_span = 4
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bots.sdk.search import standing_reward
from engine.core.state import State

# Per table size, per feature: (weight at the start, weight added by the end).
Weights = dict[int, dict[str, tuple[float, float]]]


class FittedStanding:
    """`evaluate` for a `SearchBot`: rewards from fitted feature weights.

    `weights` holds a table per number of players; a table size without one borrows the
    nearest fitted (the smaller on a tie). `features(state, seat)` gives the values named
    by `names`, in that order; `progress(state)` runs from 0 at the start to 1 late in the
    game."""

    def __init__(
        self,
        weights: Weights,
        names: Sequence[str],
        features: Callable[[State, int], Sequence[float]],
        progress: Callable[[State], float],
    ) -> None:
        if not weights:
            raise ValueError("FittedStanding needs at least one table of weights")
        for players, table in weights.items():
            missing = [name for name in names if name not in table]
            if missing:
                raise ValueError(f"the {players}-player weights lack {', '.join(missing)}")
        self.weights = weights
        self.names = tuple(names)
        self.features = features
        self.progress = progress

    def table(self, players: int) -> list[tuple[float, float]]:
        """The (start, grow) pairs of the table fitted nearest to `players`, by name order."""
        nearest = min(self.weights, key=lambda fitted: (abs(fitted - players), fitted))
        table = self.weights[nearest]
        return [table[name] for name in self.names]

    def standing(self, state: State) -> list[float]:
        """Each seat's standing, in log-odds units (higher is better)."""
        pairs = self.table(state.num_players)
        late = self.progress(state)
        return [
            sum(
                value * (start + late * grow)
                for value, (start, grow) in zip(self.features(state, seat), pairs, strict=True)
            )
            for seat in range(state.num_players)
        ]

    def __call__(self, state: State) -> list[float]:
        return standing_reward(self.standing(state), 1.0)
