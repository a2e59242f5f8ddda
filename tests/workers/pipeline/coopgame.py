"""`relay`, a tiny cooperative game for the pipeline tests, where skill shows quickly.

Each seat in turn puts in an effort of 0-3; the team succeeds when the total
reaches the hurdle, 2 x players - 1. A bot that always gives 3 helps its team far
more than one that always gives 0; random partners add the noise. Moon Adventure is the real
cooperative game; this one exists because its tables need only three decisions.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Game
from engine.core.state import State


class RelayState(State):
    def setup(self) -> None:
        self.hurdle = 2 * self.num_players - 1
        self.efforts: list[int] = []

    def _to_move(self) -> int | None:
        return None if self._is_terminal() else len(self.efforts)

    def _legal_actions(self) -> list[Any]:
        return [0, 1, 2, 3]

    def _apply(self, action: Any) -> None:
        self.efforts.append(action)

    def _observation(self, seat: int) -> dict[str, Any]:
        return {"efforts": list(self.efforts)}

    def _is_terminal(self) -> bool:
        return len(self.efforts) == self.num_players

    def _result(self) -> dict[str, Any]:
        total = sum(self.efforts)
        return {
            "ranks": [1] * self.num_players,
            "scores": [total] * self.num_players,
            "outcome": "success" if total >= self.hurdle else "failure",
            "team_score": total,
        }

    def resample_hidden(self, seat: int, rng: Any) -> RelayState:
        # Nothing is hidden in relay.
        return self.clone()


RELAY = Game(
    name="relay",
    rules_version="relay@1",
    min_players=2,
    max_players=4,
    cooperative=True,
    state_class=RelayState,
    title="Relay (test game)",
)
