"""Re-playing a replay record and checking that it reproduces its result."""

from __future__ import annotations

from typing import Any

from engine.core.errors import EngineError, IllegalAction, ReplayMismatch
from engine.core.game import Game
from engine.core.registry import get_game
from engine.core.state import State, same_json

RECORD_KEYS = ("game", "rules_version", "players", "seed", "options", "actions", "result")


def check_record(record: dict[str, Any]) -> Game:
    """The record's game, once its shape and rules version are checked (else ReplayMismatch)."""
    if not isinstance(record, dict):
        raise ReplayMismatch("a replay record must be a JSON object")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        raise ReplayMismatch(f"replay record lacks {', '.join(missing)}")
    game = get_game(record["game"])
    if record["rules_version"] != game.rules_version:
        raise ReplayMismatch(
            f"record was played under {record['rules_version']}, engine has {game.rules_version}"
        )
    if not isinstance(record["actions"], list):
        raise ReplayMismatch("actions must be a list")
    return game


def same_result(game: Game, replayed: Any, recorded: Any) -> bool:
    """The replayed result is the recorded one; fields the game added to its results
    later (`Game.later_result_fields`) count only when the record has them."""
    if isinstance(replayed, dict) and isinstance(recorded, dict):
        replayed = {
            key: value
            for key, value in replayed.items()
            if key in recorded or key not in game.later_result_fields
        }
    return same_json(replayed, recorded)


def replay(record: dict[str, Any]) -> State:
    """Re-play `record` from its seed; return the final state or raise ReplayMismatch."""
    game = check_record(record)
    try:
        state = game.new_state(record["players"], record["seed"], record["options"])
    except EngineError as exc:
        raise ReplayMismatch(f"cannot set up the recorded game: {exc}") from exc
    for index, action in enumerate(record["actions"]):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayMismatch(f"action {index} does not replay: {exc}") from exc
    if not state.is_terminal():
        if record["result"] is not None:
            raise ReplayMismatch("the recorded actions do not finish the game")
        return state
    if not same_result(game, state.result(), record["result"]):
        raise ReplayMismatch(
            f"result differs: recorded {record['result']!r}, replayed {state.result()!r}"
        )
    return state
