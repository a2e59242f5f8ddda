"""Protocol lines to and from bots, and what a bot's failure becomes (a `Forfeit`).

`encode_line` / `decode_line` use orjson when present and `json` for what orjson would
write differently. Observations go whole in every request. Sending only their changed
top-level keys was tried (Moonrollers: 2.1 KB a request -> 0.7 KB on average): the bot
decoded ~4-11 us less per move, but finding the changes safely (each key encoded and
compared as bytes) cost the referee ~5 us more, on the same CPU, and bots would have
had to treat observations as read-only; not kept.

A bot's line is decoded within bounds (`MAX_REPLY_BYTES`, `MAX_REPLY_DEPTH`): what it
decodes to then goes through the referee and the engine, which must not run out of
memory or recursion on it.
"""

from __future__ import annotations

import json
import re
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
# A reply is one small object ({"match": 7, "action": ...}; the runner cuts an "error"
# to 500 characters, and actions nest a level or two): far more than any honest reply.
MAX_REPLY_BYTES = 64 << 10
MAX_REPLY_DEPTH = 64
# For `nesting_depth`: escapes, then strings (without escapes), then all but brackets.
# Each pattern is a single pass with no backtracking: linear on any line.
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_STRING = re.compile(rb'"[^"]*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


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


class ReplyRefused(ValueError):
    """A line the referee does not decode: too long or too deep. The message says which."""


def decode_line(line: bytes | bytearray) -> Any:
    """A bot's reply; raises ValueError when it is not JSON, ReplyRefused (a ValueError)
    when it is longer than MAX_REPLY_BYTES or nested deeper than MAX_REPLY_DEPTH.

    Both parsers recurse per level (orjson refuses past 1024 levels, `json` then raises
    RecursionError near 1000), and the referee and engine walk what they return, so
    the depth is checked first. Counting brackets costs ~0.1 us a line; only a line
    with more of them than the limit is scanned for its real depth."""
    if len(line) > MAX_REPLY_BYTES:
        raise ReplyRefused(f"reply is longer than {MAX_REPLY_BYTES} bytes")
    if line.count(b"[") + line.count(b"{") > MAX_REPLY_DEPTH and (
        nesting_depth(line) > MAX_REPLY_DEPTH
    ):
        raise ReplyRefused(f"reply is nested deeper than {MAX_REPLY_DEPTH} levels")
    if orjson is not None:
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # NaN and the like: the standard parser decides
    return json.loads(line.decode("utf-8", "replace"))


def nesting_depth(line: bytes | bytearray) -> int:
    """How deep the arrays and objects of a JSON text nest, read without parsing it:
    brackets in strings do not count. Up to the first syntax error, where a parser
    stops, the figure is exact; what follows may be miscounted, harmlessly."""
    unescaped = _ESCAPE.sub(b"", line)
    brackets = _STRING.sub(b"", unescaped).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for byte in brackets:
        if byte == 0x5B or byte == 0x7B:  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest
