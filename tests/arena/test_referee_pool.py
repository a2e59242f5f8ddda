"""The bench's referee pool ends each set's bots as a worker does: killed at once, waited
for behind the next set's start, and the last set's waited for before the CPU reading."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from arena.bench import referee_pool

REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"


def _children(pid: int) -> list[int]:
    """The live (or unreaped) children of one process, from /proc."""
    tasks = Path(f"/proc/{pid}/task")
    found: list[int] = []
    for task in tasks.iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(child) for child in text)
    return found


def _job(seeds: list[int]) -> tuple:
    bot = str(REFERENCE / "random_bot.py")
    return ("moonrollers", [(seed, [bot, bot]) for seed in seeds], {}, {})


def test_the_pools_sets_end_and_the_last_is_waited_for(settings):
    settings.ARENA_PIN_MATCH_CPU = False
    context = multiprocessing.get_context("fork")
    initargs = ("process", context.Value("i", 0), context.Barrier(2))
    with context.Pool(2, initializer=referee_pool.pool_init, initargs=initargs) as pool:
        played = pool.map(referee_pool.pool_play_set, [_job([1, 2]), _job([3, 4]), _job([5])])
        assert all(decisions > 0 for decisions, _ in played)
        pids = [process.pid for process in pool._pool]
        finished = pool.map(referee_pool.pool_finish, range(2), chunksize=1)
        # The barrier makes each process take exactly one finishing call...
        assert sorted(finished) == sorted(pids)
        # ...and after it no process has a bot left, dead or alive.
        assert [_children(pid) for pid in pids] == [[], []]


def test_a_set_that_fails_still_ends_its_bots(settings):
    settings.ARENA_PIN_MATCH_CPU = False
    context = multiprocessing.get_context("fork")
    initargs = ("process", context.Value("i", 0), context.Barrier(1))
    with context.Pool(1, initializer=referee_pool.pool_init, initargs=initargs) as pool:
        pid = pool._pool[0].pid
        with pytest.raises(Exception, match="no-such-game"):
            # An unknown game: the referee raises after the bots started.
            pool.apply(referee_pool.pool_play_set, (("no-such-game", *_job([1])[1:]),))
        assert _children(pid) == []
