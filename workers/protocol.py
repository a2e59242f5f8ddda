"""Protocol lines to and from bots, and what a bot's failure becomes (a `Forfeit`).

`encode_line` / `decode_line` use orjson when present and `json` for what orjson would
write differently. Observations go whole in every request. Sending only their changed
top-level keys was tried (Moonrollers: 2.1 KB a request -> 0.7 KB on average): the bot
decoded ~4-11 us less per move, but finding the changes safely (each key encoded and
compared as bytes) cost the referee ~5 us more, on the same CPU, and bots would have
had to treat observations as read-only; not kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

try:
    import orjson
except ImportError:  # the standard codec alone: slower, same messages
    orjson = None  # type: ignore[assignment]


# At most this much wall time is added to one move for time the bot spent
# runnable but waiting for a CPU, so a loaded host does not cause false timeouts.
MAX_LOAD_EXTENSION = 5.0
# The key of a lone match typed without a "match" field (the one-match view).
LONE = None


@dataclass(frozen=True)
class Forfeit:
    """Why a seat lost its right to play: shown to the bot's author."""

    reason: str


Answer = tuple[Any, Any]  # (match key, the action or a Forfeit)


def encode_line(message: dict[str, Any]) -> bytes:
    """One protocol line. orjson encodes an observation ~9x faster than `json`;
    what it would write differently (integers past 64 bits, non-string keys) is
    left to `json`, so the bot receives the same values either way."""
    if orjson is not None:
        try:
            return orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            pass
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def decode_line(line: bytes | bytearray) -> Any:
    """A bot's reply; raises ValueError when it is not JSON."""
    if orjson is not None:
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # NaN and the like: the standard parser decides
    return json.loads(line.decode("utf-8", "replace"))
