"""The game registry. Game packages under `engine/games/` register themselves on import."""

from __future__ import annotations

import importlib
import pkgutil

from engine.core.errors import UnknownGame
from engine.core.game import Game

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    existing = _GAMES.get(game.name)
    if existing is not None and existing is not game:
        raise ValueError(f"game {game.name!r} is registered twice")
    _GAMES[game.name] = game
    return game


def _discover() -> None:
    # Every sub-package of engine.games is a game; importing it registers it, so a
    # new game needs no edit anywhere else.
    global _discovered
    if _discovered:
        return
    import engine.games

    for module in pkgutil.iter_modules(engine.games.__path__):
        if module.ispkg:
            importlib.import_module(f"engine.games.{module.name}")
    _discovered = True


def game_names() -> list[str]:
    _discover()
    return sorted(_GAMES)


def get_game(name: str) -> Game:
    _discover()
    if not isinstance(name, str) or name not in _GAMES:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"unknown game {name!r}; known games: {known}")
    return _GAMES[name]
