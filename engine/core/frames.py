"""A recorded game turned into frames for a replay viewer: one per position.

Each frame holds what a viewer needs to draw the table at that moment: who acted and
what, the actions the actor could have chosen instead (`legal`), the spectator view
(`State.spectator_view`: only what every seat sees) and every seat's own observation, so
the viewer can switch between them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine.core.errors import EngineError, IllegalAction, ReplayMismatch
from engine.core.replay import check_record, same_result

if TYPE_CHECKING:
    from engine.core.state import State


def frames(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield the start and then the position after each action (decisions + 1 frames).

    Each frame: `index`, `actor` and `action` (None for the start), `legal` (the actions
    the actor had to choose from, `action` among them; None for the start), `to_move`,
    `spectator`, `observations` (one per seat) and `result` (None until the game is
    over). The record is checked as `engine.replay` checks it (ReplayMismatch).
    """
    game = check_record(record)
    try:
        state = game.new_state(record["players"], record["seed"], record["options"])
    except EngineError as exc:
        raise ReplayMismatch(f"cannot set up the recorded game: {exc}") from exc
    yield _frame(state, 0, None, None, None)
    for index, action in enumerate(record["actions"]):
        actor = state.to_move()
        legal = list(state.legal_actions())  # apply() replaces the cached list, never edits it
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayMismatch(f"action {index} does not replay: {exc}") from exc
        yield _frame(state, index + 1, actor, action, legal)
    final = state.result() if state.is_terminal() else None
    if not same_result(game, final, record["result"]):
        raise ReplayMismatch(f"result differs: recorded {record['result']!r}, replayed {final!r}")


def _frame(
    state: State, index: int, actor: int | None, action: Any, legal: list[Any] | None
) -> dict[str, Any]:
    observations = [state.observation(seat) for seat in range(state.num_players)]
    frame = {
        "index": index,
        "actor": actor,
        "action": action,
        "legal": legal,
        "to_move": state.to_move(),
        "spectator": state.spectator_view(observations),
        "observations": observations,
        "result": state.result() if state.is_terminal() else None,
    }
    # Observations may share lists with the state, which the next action changes: copy.
    copied: dict[str, Any] = json.loads(json.dumps(frame))
    return copied
