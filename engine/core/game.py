"""The game descriptor: a game's facts declared as data, and option checking.

A game package builds one `Game` and registers it; `Game.new_state` checks the
player count, seed and options before the game's own `State` class sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import InvalidSetup
from engine.core.state import State


@dataclass(frozen=True)
class Option:
    """One game option with its default.

    `choices` limits a scalar option to a set of values; `subset_of` makes the
    option a list whose items come from that set (for expansions); `minimum` and
    `maximum` bound a number.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    subset_of: tuple[str, ...] | None = None
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        if self.subset_of is not None:
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise InvalidSetup(f"option {self.name!r} must be a list of names")
            unknown = sorted(set(value) - set(self.subset_of))
            if unknown:
                raise InvalidSetup(
                    f"option {self.name!r}: unknown {unknown}; known: {list(self.subset_of)}"
                )
            return sorted(set(value))
        if self.choices is not None:
            # bool is an int in Python: compare types too so True never passes for 1.
            if not any(value == c and type(value) is type(c) for c in self.choices):
                raise InvalidSetup(
                    f"option {self.name!r} must be one of {list(self.choices)}, not {value!r}"
                )
            return value
        if type(value) is not type(self.default):
            raise InvalidSetup(
                f"option {self.name!r} must be a {type(self.default).__name__}, not {value!r}"
            )
        if self.minimum is not None and value < self.minimum:
            raise InvalidSetup(f"option {self.name!r} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidSetup(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value


@dataclass(frozen=True)
class Game:
    """A registered game: its facts and the factory for its states."""

    name: str
    rules_version: str
    min_players: int
    max_players: int
    cooperative: bool
    state_class: Callable[..., State]
    options: Sequence[Option] = field(default_factory=tuple)
    title: str = ""
    # Result fields added after the rules version was published, without changing play
    # (each derived from the final position): a record from before lacks them, and
    # replays of it leave them out of the comparison (engine.core.replay.same_result).
    later_result_fields: tuple[str, ...] = ()

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def check_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Return the full option dict (defaults filled in) or raise InvalidSetup."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidSetup("options must be a JSON object")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InvalidSetup(
                f"{self.name} has no option {unknown[0]!r}; options: {sorted(known) or 'none'}"
            )
        return {
            name: (opt.check(options[name]) if name in options else opt.default)
            for name, opt in known.items()
        }

    def check_players(self, num_players: Any) -> int:
        if type(num_players) is not int:
            raise InvalidSetup(f"number of players must be an integer, not {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidSetup(
                f"{self.name} takes {self.min_players}-{self.max_players} players, "
                f"not {num_players}"
            )
        return num_players

    def new_state(
        self, num_players: int, seed: int, options: dict[str, Any] | None = None
    ) -> State:
        players = self.check_players(num_players)
        if type(seed) is not int:
            raise InvalidSetup(f"seed must be an integer, not {seed!r}")
        return self.state_class(self, players, seed, self.check_options(options))

    def describe(self) -> dict[str, Any]:
        """JSON facts about the game, as the API and `arena games` show them."""
        return {
            "name": self.name,
            "title": self.title or self.name,
            "rules_version": self.rules_version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "cooperative": self.cooperative,
            "options": {o.name: o.default for o in self.options},
        }
