"""Errors the engine raises. Every one carries a message meant for a person."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class UnknownGame(EngineError, LookupError):
    """A game name that is not registered."""


class InvalidSetup(EngineError, ValueError):
    """A bad player count, seed or option for `new_state`."""


class IllegalAction(EngineError, ValueError):
    """An action that is not in `legal_actions()` (the state is left unchanged)."""


class ReplayMismatch(EngineError):
    """A replay record whose actions do not reproduce its stored result."""
