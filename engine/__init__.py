"""Moon Arena's rules engine: pure Python, standard library only.

import engine
state = engine.get_game("moonrollers").new_state(3, seed=42)
while not state.is_terminal():
    state.apply(state.legal_actions()[0])
print(state.result())
"""

from engine.core import (
    EngineError,
    Game,
    IllegalAction,
    InvalidSetup,
    Option,
    ReplayMismatch,
    State,
    UnknownGame,
    frames,
    game_names,
    get_game,
    replay,
)

__all__ = [
    "EngineError",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "Option",
    "ReplayMismatch",
    "State",
    "UnknownGame",
    "frames",
    "game_names",
    "get_game",
    "replay",
]
