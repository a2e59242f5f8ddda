"""The engine protocol shared by every game: descriptors, states, registry, replay."""

from engine.core.errors import EngineError, IllegalAction, InvalidSetup, ReplayMismatch, UnknownGame
from engine.core.frames import frames
from engine.core.game import Game, Option
from engine.core.ranking import ranks_from_keys
from engine.core.registry import game_names, get_game, register
from engine.core.replay import replay
from engine.core.state import State, common_part, same_json

__all__ = [
    "EngineError",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "Option",
    "ReplayMismatch",
    "State",
    "UnknownGame",
    "common_part",
    "frames",
    "game_names",
    "get_game",
    "ranks_from_keys",
    "register",
    "replay",
    "same_json",
]
