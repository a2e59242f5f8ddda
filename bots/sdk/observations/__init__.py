"""Types for each game's observation and legal actions, for bots that use a type checker.

One module per game (`moonrollers`, `moonrakers`, `moon_bots`, `moon_adventure`), each
with `TypedDict` classes describing exactly what the game's observation holds, an
`Action` alias for its legal actions and a few small typed helpers. A bot still receives
plain dicts and lists; the types only describe them, so a bot for the arena's sandbox
(where only the engine is installed) imports them under `if TYPE_CHECKING:`.

`conforms(value, type)` lists how a value departs from one of these types; the test suite
uses it to hold the types to what the engine sends.
"""

from bots.sdk.observations.check import conforms

__all__ = ["conforms"]
