"""The public surface every game state offers, with legality always checked.

Games subclass `State` and fill in the underscore hooks. The base class owns
what must be the same in every game: the seeded RNG, the action log, the
legality check in `apply` (bots are untrusted), caching of legal actions, and
the replay record.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Protocol

from engine.core.errors import EngineError, IllegalAction

JSON = Any


class GameFacts(Protocol):
    """What a state needs of its game's descriptor (engine/core/game.py's `Game`, which
    makes the states and so imports this module, not the other way round)."""

    @property
    def name(self) -> str: ...

    @property
    def rules_version(self) -> str: ...


def same_json(a: JSON, b: JSON) -> bool:
    """Equality that also compares JSON types, so `true` never stands in for `1`."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and _same_items(zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and _same_items(
            zip(a.values(), map(b.__getitem__, a), strict=True)
        )
    return bool(a == b)


def _same_items(pairs: Any) -> bool:
    # Scalars are compared here rather than by a call each: the referee checks every
    # answer a bot decoded from JSON this way (a few items: 0.51 against 0.81 us).
    # Nested lists and objects are queued, not recursed into: one side may be a bot's
    # value, nested as deep as it likes.
    queued: list[Any] = []
    while True:
        for x, y in pairs:
            if type(x) is not type(y):
                return False
            if isinstance(x, list):
                if len(x) != len(y):
                    return False
                queued.append(zip(x, y, strict=True))
            elif isinstance(x, dict):
                if x.keys() != y.keys():
                    return False
                queued.append(zip(x.values(), map(y.__getitem__, x), strict=True))
            elif x != y:
                return False
        if not queued:
            return True
        pairs = queued.pop()


def common_part(views: list[JSON]) -> JSON:
    """The structure every view shares: equal leaves kept, differing ones set to None.

    Dicts keep only the keys present in every view; lists of one length are compared
    item by item, lists of different lengths become None.
    """
    first = views[0]
    if isinstance(first, dict | list):
        # Equal subtrees, the usual case, are found by the C encoder (which tells `true`
        # from `1`, as same_json does) and copied by the C decoder: walking them leaf by
        # leaf in Python made the spectator view most of a replay's cost.
        text = json.dumps(first, separators=(",", ":"))
        if all(json.dumps(v, separators=(",", ":")) == text for v in views[1:]):
            copied: JSON = json.loads(text)
            return copied
    if all(isinstance(v, dict) for v in views):
        keys = [k for k in first if all(k in v for v in views[1:])]
        return {k: common_part([v[k] for v in views]) for k in keys}
    if all(isinstance(v, list) for v in views) and len({len(v) for v in views}) == 1:
        return [common_part([v[i] for v in views]) for i in range(len(first))]
    if all(same_json(first, v) for v in views[1:]):
        return copy.deepcopy(first)
    return None


def describe_action(action: JSON, limit: int = 80) -> str:
    """`repr(action)`, cut to `limit` characters. Written without recursion and only as
    far as the limit, so a bot's value of any depth or size is cheap to describe."""
    parts: list[str] = []
    size = 0
    # What is left to write, last first: values, and the brackets and commas as text.
    todo: list[tuple[bool, Any]] = [(False, action)]
    while todo and size <= limit:
        is_text, item = todo.pop()
        if is_text:
            text = item
        elif isinstance(item, list | dict):
            # Every item takes at least a character: `limit` of them are enough.
            opening, closing = ("[", "]") if isinstance(item, list) else ("{", "}")
            entries = item[:limit] if isinstance(item, list) else list(item.items())[:limit]
            queued: list[tuple[bool, Any]] = [(True, closing)]
            for index in reversed(range(len(entries))):
                if isinstance(item, list):
                    queued.append((False, entries[index]))
                else:
                    key, value = entries[index]
                    queued += [(False, value), (True, ": "), (False, key)]
                if index:
                    queued.append((True, ", "))
            todo += queued
            text = opening
        else:
            text = _scalar_repr(item, limit)
        parts.append(text)
        size += len(text)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _scalar_repr(value: Any, limit: int) -> str:
    try:
        if isinstance(value, str) and len(value) > limit:
            value = value[: limit + 1]  # the rest would be cut anyway
        return repr(value)
    except Exception:  # an int past Python's digit limit; an object with a broken repr
        return f"<{type(value).__name__}>"


class State:
    """One game in progress. Subclasses implement the `_hooks` below."""

    def __init__(
        self, game: GameFacts, num_players: int, seed: int, options: dict[str, Any]
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.seed = seed
        self.options = options
        # The only source of chance: replaying seed + actions gives the same game.
        self.rng = random.Random(seed)
        self.actions: list[JSON] = []
        self._legal_cache: list[JSON] | None = None
        self.setup()

    # ----- hooks a game implements ------------------------------------------------

    def setup(self) -> None:
        """Deal, shuffle and place everything; called once from __init__."""
        raise NotImplementedError

    def _to_move(self) -> int | None:
        raise NotImplementedError

    def _legal_actions(self) -> list[JSON]:
        raise NotImplementedError

    def _apply(self, action: JSON) -> None:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def _observation(self, seat: int) -> dict[str, JSON]:
        raise NotImplementedError

    def _is_terminal(self) -> bool:
        raise NotImplementedError

    def _result(self) -> dict[str, JSON]:
        """At least `ranks` and `scores`, one entry per seat."""
        raise NotImplementedError

    def resample_hidden(self, seat: int, rng: random.Random) -> State:
        """A copy in which everything `seat` cannot see is drawn again with `rng`.

        `observation(seat)` of the copy equals that of this state. Search bots use
        it to sample worlds consistent with what they know (determinization);
        tests use it to prove that hidden information stays hidden.
        """
        raise NotImplementedError

    # ----- public protocol --------------------------------------------------------

    def to_move(self) -> int | None:
        return None if self._is_terminal() else self._to_move()

    def legal_actions(self) -> list[JSON]:
        if self._legal_cache is None:
            self._legal_cache = [] if self._is_terminal() else self._legal_actions()
        return self._legal_cache

    def apply(self, action: JSON) -> None:
        legal = self._legal_cache
        if legal is None:
            legal = self.legal_actions()
        if not legal:
            raise IllegalAction("the game is over: no action is legal")
        chosen = self._find_legal(legal, action)
        if chosen is None:
            raise IllegalAction(
                f"{describe_action(action)} is not a legal action for seat {self._to_move()} "
                f"({len(legal)} legal, e.g. {describe_action(legal[0])})"
            )
        self._legal_cache = None
        # Store the engine's own copy so a caller mutating its value changes nothing.
        self._apply(chosen)
        self.actions.append(chosen)

    @staticmethod
    def _find_legal(legal: list[JSON], action: JSON) -> JSON | None:
        try:
            index = legal.index(action)
        except Exception:
            # Not found, or a value that cannot be compared (an in-process bot's object
            # whose == raises): either way not a legal action.
            return None
        candidate = legal[index]
        # The common in-process case hands back the engine's own object.
        if candidate is action or same_json(candidate, action):
            return candidate
        for other in legal[index + 1 :]:
            if same_json(other, action):
                return other
        return None

    def observation(self, seat: int) -> dict[str, JSON]:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise EngineError(f"no seat {seat!r} in a {self.num_players}-player game")
        obs = self._observation(seat)
        obs["seat"] = seat
        obs["to_move"] = self.to_move()
        return obs

    def spectator_view(self, observations: list[dict[str, JSON]] | None = None) -> dict[str, JSON]:
        """The table as someone without a seat sees it: only what every seat sees.

        `observations` (every seat's, in seat order) saves recomputing them.
        """
        if observations is None:
            observations = [self.observation(seat) for seat in range(self.num_players)]
        return self._spectator_view(observations)

    def _spectator_view(self, observations: list[dict[str, JSON]]) -> dict[str, JSON]:
        # Built from the observations, never from the internals, so "nothing hidden" holds
        # by construction: what some seat cannot see differs between them and is dropped.
        # A game overriding this must keep that promise (the frames tests check it).
        view: dict[str, JSON] = common_part(observations)
        view.pop("seat", None)
        view["to_move"] = self.to_move()
        return view

    def is_terminal(self) -> bool:
        return self._is_terminal()

    def result(self) -> dict[str, JSON]:
        if not self._is_terminal():
            raise EngineError("the game is not over yet")
        return self._result()

    def record(self) -> dict[str, JSON]:
        """The replay record: enough to reproduce this game exactly."""
        return {
            "game": self.game.name,
            "rules_version": self.game.rules_version,
            "players": self.num_players,
            "seed": self.seed,
            "options": copy.deepcopy(self.options),
            "actions": copy.deepcopy(self.actions),
            "result": self._result() if self._is_terminal() else None,
        }

    def clone(self) -> State:
        """An independent copy (the game descriptor is shared, not copied)."""
        return copy.deepcopy(self, {id(self.game): self.game})
