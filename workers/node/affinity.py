"""A referee's process: its match on one CPU, as batch work, its start-up heap frozen.

A match is strictly turn-based: the referee waits while a bot thinks, and the
bot waits while the referee checks its move. Left to the scheduler, the two
often sit on different CPUs, and every move then pays a cross-CPU wake-up (on
this project's VMs an interrupt to a halted virtual CPU: ~100 µs a round trip,
against ~12 µs for the same exchange on one CPU). Pinning the process that
referees a match to one CPU keeps its bots there too, since affinity is
inherited, and costs no parallelism, because a match never runs two of its
processes at once. Different pool processes get different CPUs.

Sharing that CPU, the referee and its bots also run as batch work (SCHED_BATCH,
inherited like the affinity; a zygote lane's bot sets it itself). A woken process of
that policy waits for the tick instead of preempting the one running: the referee writes
to every bot of a set before any of them runs, and a bot answers all of its requests
before the referee reads them. A set of 16 quick matches then switches ~30 % less
(measured: ~630 against ~900 switches of the referee a set) and costs ~3-5 % less CPU.
Answers read together are timed together (workers/play/bot_process.py), and a slow bot is
still preempted by the tick, so a move is charged at most a scheduler slice more.
"""

from __future__ import annotations

import gc
import os


def current_cpu() -> int | None:
    """The CPU this process last ran on (field 39 of /proc/self/stat)."""
    try:
        with open("/proc/self/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return int(fields[36])
    except (OSError, IndexError, ValueError):
        return None


def pin_to_one_cpu(slot: int | None = None) -> int | None:
    """Pin this process to one of the CPUs it may use and run it as batch work; return
    that CPU, or None.

    `slot` (a pool process's index) spreads pool processes over the CPUs; without
    it the process stays on the CPU it is running on. The CPU is left alone on a
    single-CPU host or where affinity cannot be set.
    """
    schedule_as_batch()
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    if len(allowed) < 2:
        return None
    if slot is not None:
        cpu = allowed[slot % len(allowed)]
    else:
        here = current_cpu()
        cpu = here if here in allowed else allowed[0]
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return cpu


def schedule_as_batch() -> bool:
    """Run this thread, and what it starts from now on, under SCHED_BATCH (see above);
    False where the policy cannot be set."""
    try:
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    except (AttributeError, OSError):
        return False
    return True


def freeze_startup_heap() -> int:
    """Keep what a pool process holds once it has started (Django, Celery, the engine's
    tables: ~110,000 objects) out of the cyclic collector's passes; how many were frozen.

    A full collection walks every tracked object: in a worker's pool process each cost
    ~64 ms, ~0.4 ms a match of quick bots (two in 300 matches), as much as recording the
    match. Frozen, a full collection walks only what the matches made since. Objects freed
    by reference counting are still freed; a worker process is recycled after
    worker_max_tasks_per_child tasks anyway.
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
