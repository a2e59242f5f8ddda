"""Fuzzing the referee's boundary: one bot of a set writes whatever Hypothesis draws.

The bot runs in the real sandbox and, on each of its moves, writes the drawn lines on
the protocol pipe itself before it answers: random bytes, random JSON, replies that look
valid (its own match ids, the set's other ids, legal actions, errors) and large or deep
runs. Whatever it writes: the referee never raises, the honest bot (a random bot) never
forfeits, and the referee's memory stays bounded.

`make test` draws FUZZ_EXAMPLES sets (~20 s); the `long` run (`make test-all`) draws
ARENA_FUZZ_EXAMPLES of them (1,000 unless set).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import gc
import json
import os
import resource
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.workers.sandbox.conftest import (
    FAST,
    RANDOM_BOT,
    assert_nothing_left,
    make_test_launcher,
    pick_game,
)
from workers.play.players import BotProcess
from workers.play.referee import SetMatch, play_set
from workers.sandbox.bubblewrap import BubblewrapLauncher

pytestmark = pytest.mark.slow

FUZZ_EXAMPLES = 40
LONG_EXAMPLES = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "1000"))
# Roomy clocks: only the fuzzing bot may lose a match, never the honest one to a loaded host.
LIMITS = dataclasses.replace(FAST, move_seconds=2.0, time_bank_seconds=2.0)
KEYS = [100, 101, 102]
# How much the test process may grow, at its peak, over the whole run: replies are read
# a move at a time, so no set holds more than a few per-move limits (256 KB) at once.
MEMORY_BOUND = 64 << 20

# Written by the bot in place of these tokens: its match id, another match of the set,
# its first legal action.
OWN, OTHER, LEGAL = "@OWN@", "@OTHER@", "@LEGAL@"

FUZZ_BOT = """
import json
import os

# Per move, (bytes, times, newline) to write.
WRITES = {writes!r}
moves = [0]


class Bot:
    def setup(self, info):
        self.match = info.get("match", 0)

    def act(self, observation, legal_actions):
        turn = moves[0]
        moves[0] += 1
        other = {keys!r}[(({keys!r}.index(self.match)) + 1) % {count}]
        legal = json.dumps(legal_actions[0]).encode()
        for unit, times, newline in WRITES[turn] if turn < len(WRITES) else ():
            data = unit * times + newline
            data = data.replace(b'"{own}"', b"%d" % self.match)
            data = data.replace(b'"{other}"', b"%d" % other)
            data = data.replace(b'"{legal}"', legal)
            os.write(1, data)
        return legal_actions[0]
"""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["\ud800", "\x00", "\udfff-\ud83d", OWN, OTHER, LEGAL]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)
match_keys = st.sampled_from([OWN, OWN, OTHER, LEGAL]) | json_values
replies = st.fixed_dictionaries(
    {"match": match_keys},
    optional={
        "action": st.sampled_from([LEGAL, LEGAL]) | json_values,
        "error": json_values,
        "extra": json_values,
    },
)


def _line(value: object) -> tuple[bytes, int, bytes]:
    return json.dumps(value).encode(), 1, b"\n"


# One write: (bytes, times, newline), repeated by the bot (a run of megabytes stays short here).
writes = st.one_of(
    st.tuples(st.binary(max_size=200), st.just(1), st.just(b"")),
    json_values.map(_line),
    replies.map(_line),
    st.tuples(
        st.sampled_from([b"[", b"{", b'{"a":', b"x", b"\n", b'"\\', b"]", b'[{"match":1},']),
        st.integers(1, 400_000),  # past the 64 KB reply limit and the per-move output limit,
        st.sampled_from([b"", b"\n"]),
    ),
)
# A list of writes per move of the fuzzing bot, for its first moves (then it plays on).
scripts = st.lists(st.lists(writes, min_size=1, max_size=4), min_size=1, max_size=5)


@pytest.fixture(scope="module")
def sandbox() -> BubblewrapLauncher:
    assert os.geteuid() == 0, "the sandbox suite must run as root (each bot gets its own uid)"
    launcher = make_test_launcher()
    launcher.check(LIMITS)
    return launcher


@pytest.fixture(scope="module")
def memory_at_start() -> tuple[int, int]:
    return _peak_memory(), _memory()


def _peak_memory() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10


def _memory() -> int:
    # What the process holds, not what the allocator keeps cached for reuse: a freed
    # megabyte buffer otherwise stays in the RSS and reads as growth.
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def play_fuzzed_set(
    sandbox: BubblewrapLauncher, script: list[list[tuple[bytes, int, bytes]]]
) -> None:
    game = pick_game()
    with tempfile.TemporaryDirectory() as folder:
        bot = Path(folder) / "fuzz_bot.py"
        bot.write_text(
            FUZZ_BOT.format(
                writes=script, keys=KEYS, count=len(KEYS), own=OWN, other=OTHER, legal=LEGAL
            )
        )
        specs = [
            SetMatch(key=key, seed=3 + index, seats=[0, 1] if index % 2 == 0 else [1, 0])
            for index, key in enumerate(KEYS)
        ]
        bots = [
            BotProcess(sandbox.launch(path, LIMITS), LIMITS, len(specs))
            for path in (bot, RANDOM_BOT)
        ]
        uids = [b.process.uid for b in bots]  # type: ignore[attr-defined]
        outcomes = play_set(game, specs, bots, LIMITS.match_seconds)  # never raises
    fuzzer = bots[0]
    assert len(fuzzer._pending) <= LIMITS.output_bytes_per_move + 65536
    assert len(fuzzer._abandoned) <= len(specs) and len(fuzzer.stderr) <= LIMITS.stderr_bytes
    for spec, outcome in zip(specs, outcomes, strict=True):
        honest = spec.seats.index(1)
        assert honest not in outcome.forfeits, outcome.forfeits
        assert outcome.result["ranks"]
        for reason in outcome.forfeits.values():
            assert len(reason) <= 600
    assert_nothing_left(uids)


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(script=scripts)
# The attacks that once failed a whole set, always among the examples.
@example(script=[[(b'{"match": [7], "action": 0}', 1, b"\n")]])
@example(script=[[(b'{"match": "\\ud800", "action": 0}', 1, b"\n")]])
@example(script=[[(b'{"match": "@OWN@", "action": ' + b"[" * 1000 + b"]" * 1000 + b"}", 1, b"\n")]])
@example(script=[[(b"[", 1100, b"\n")], [(b"[", 1100, b"")]])
def test_nothing_one_bot_writes_stops_the_referee_or_touches_its_opponent(
    sandbox, memory_at_start, script
):
    play_fuzzed_set(sandbox, script)
    assert_memory_bounded(memory_at_start)


@pytest.mark.long
@settings(
    max_examples=LONG_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(script=scripts)
def test_nothing_one_bot_writes_stops_the_referee_at_length(sandbox, memory_at_start, script):
    play_fuzzed_set(sandbox, script)
    assert_memory_bounded(memory_at_start)


def assert_memory_bounded(at_start: tuple[int, int]) -> None:
    """Neither the peak nor what stays after a set grows past MEMORY_BOUND over the run
    (an earlier test's higher peak can hide growth, never fake it)."""
    peak, kept = _peak_memory() - at_start[0], _memory() - at_start[1]
    assert peak < MEMORY_BOUND and kept < MEMORY_BOUND, (peak >> 20, kept >> 20)
