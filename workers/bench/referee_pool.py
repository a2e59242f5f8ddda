"""The referee alone, in a pool of processes: the side of `manage.py arena_bench`
(workers/bench/pipeline.py) that plays matches with no broker and no database, as a
worker's pool process would.

Each process pins itself to one CPU, checks its launcher and starts its zygote lanes
before the clock starts, as a Celery pool process does (workers/celery.py).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from django.conf import settings

_launcher: Any = None
# The previous set's bots, killed and still being waited for (workers/play/set_play.py).
_ending: Any = None
_barrier: Any = None


def pool_init(isolation: str, slots: Any, barrier: Any) -> None:
    """`barrier`: one party per pool process, for `pool_finish`."""
    global _launcher, _barrier
    _barrier = barrier
    from workers.node.affinity import freeze_startup_heap, pin_to_one_cpu
    from workers.sandbox.isolation import get_launcher

    # Pinned like a worker's pool process (workers/celery.py), so both sides compare alike.
    if settings.ARENA_PIN_MATCH_CPU:
        with slots.get_lock():
            slot = slots.value
            slots.value += 1
        pin_to_one_cpu(slot)

    # One launcher per process, checked before the clock starts, as in a worker.
    _launcher = get_launcher(isolation)
    _launcher.check()
    getattr(_launcher, "warm_lanes", lambda count: None)(2)  # as a worker does
    freeze_startup_heap()  # as a worker does


def pool_warm(_: int) -> int:
    return os.getpid()


def pool_finish(_: int) -> int:
    """Wait for this process's last set to end, so its bots' CPU is counted. The
    barrier holds each process until all have a call, so each takes exactly one."""
    global _ending
    if _ending is not None:
        _ending.wait()
        _ending = None
    _barrier.wait(timeout=60)
    return os.getpid()


def pool_play(
    job: tuple[str, int, list[str], dict[str, Any], dict[str, Any]],
) -> tuple[int, float]:
    from workers.play.players import ProcessPlayer
    from workers.play.referee import play_match
    from workers.sandbox.limits import Limits

    game, seed, paths, options, limits_dict = job
    limits = Limits.from_dict(limits_dict)
    players = []
    try:
        for path in paths:
            players.append(ProcessPlayer(_launcher.launch(Path(path), limits), limits))
        outcome = play_match(game, seed, players, options, limits.match_seconds)
    finally:
        for player in players:
            with contextlib.suppress(Exception):
                player.close()
    return outcome.decisions, outcome.seconds


def pool_play_set(
    job: tuple[str, list[tuple[int, list[str]]], dict[str, Any], dict[str, Any]],
) -> tuple[int, float]:
    """A set of matches: one bot process per bot file for the whole set.

    As in a worker, the set's bots are killed when it ends and waited for in a thread;
    here that wait overlaps the next set's start (a worker overlaps it with the
    recording), so the referee's figure does not pay a cost the pipeline hides."""
    global _ending
    from workers.play.players import BotProcess, close_all
    from workers.play.referee import SetMatch, play_set
    from workers.play.set_play import SetEnding
    from workers.sandbox.limits import Limits

    game, matches, options, limits_dict = job
    limits = Limits.from_dict(limits_dict)
    files = sorted({path for _, paths in matches for path in paths})
    specs = [
        SetMatch(key=index, seed=seed, seats=[files.index(p) for p in paths], options=options)
        for index, (seed, paths) in enumerate(matches)
    ]
    bots: list[BotProcess] = []
    try:
        for path in files:
            bots.append(BotProcess(_launcher.launch(Path(path), limits), limits, len(specs)))
        if _ending is not None:
            _ending.wait()  # the previous set's end, behind this one's start
            _ending = None
        outcomes = play_set(game, specs, bots, limits.match_seconds, reap=False)
    except BaseException:
        with contextlib.suppress(Exception):
            close_all(bots)
        raise
    _ending = SetEnding(bots)
    return sum(o.decisions for o in outcomes), sum(o.seconds for o in outcomes) / len(outcomes)
