"""Two tiny games registered only while an arena test runs, so API tests need no real game.

`duel` (2-4 players, competitive): each seat says a number once; the highest wins.
`crew` (1-4 players, cooperative): each seat says a number once; the team succeeds on an even sum.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Game, Option
from engine.core.ranking import ranks_from_keys
from engine.core.state import State


class _SayOnce(State):
    def setup(self) -> None:
        self.said: list[int] = []

    def _to_move(self) -> int | None:
        return None if self._is_terminal() else len(self.said)

    def _legal_actions(self) -> list[Any]:
        return [1, 2, 3]

    def _apply(self, action: Any) -> None:
        self.said.append(action)

    def _observation(self, seat: int) -> dict[str, Any]:
        return {"said": list(self.said)}

    def _is_terminal(self) -> bool:
        return len(self.said) == self.num_players

    def resample_hidden(self, seat, rng):
        return self.clone()


class DuelState(_SayOnce):
    def _result(self) -> dict[str, Any]:
        return {"ranks": ranks_from_keys(list(self.said)), "scores": list(self.said)}


class CrewState(_SayOnce):
    def _result(self) -> dict[str, Any]:
        success = sum(self.said) % 2 == 0
        return {
            "ranks": [1] * self.num_players,
            "scores": [sum(self.said)] * self.num_players,
            "outcome": "success" if success else "failure",
            "team_score": sum(self.said),
        }


DUEL = Game(
    name="duel",
    rules_version="duel@1",
    min_players=2,
    max_players=4,
    cooperative=False,
    state_class=DuelState,
    options=(Option("rounds", 1, choices=(1, 2)),),
    title="Duel",
)
CREW = Game(
    name="crew",
    rules_version="crew@1",
    min_players=1,
    max_players=4,
    cooperative=True,
    state_class=CrewState,
    title="Crew",
)
FAKE_GAMES = (DUEL, CREW)
