"""A referee's process: its match on one CPU, as batch work, its start-up heap frozen.

A match is strictly turn-based: the referee waits while a bot thinks, and the
bot waits while the referee checks its move. Left to the scheduler, the two
often sit on different CPUs, and every move then pays a cross-CPU wake-up (on
this project's VMs an interrupt to a halted virtual CPU: ~100 µs a round trip,
against ~12 µs for the same exchange on one CPU). Pinning the process that
referees a match to one CPU keeps its bots there too, since affinity is
inherited, and costs no parallelism, because a match never runs two of its
processes at once. Different pool processes get different CPUs, also across worker
processes on one host: a pool process claims its CPU with a lock file that it holds while
it lives (`ARENA_CPU_CLAIMS_DIR`), and takes the next unclaimed CPU when another holds its
own (two `celery worker -c 1` on a 2-CPU host otherwise both pinned their matches to
CPU 0, each bot getting half a CPU).

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

import fcntl
import gc
import os
import tempfile

# Open lock files of the CPUs this process claimed: a lock lasts as long as its file is
# open, so these stay open for the process's life.
_claims: list[int] = []


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

    `slot` (a pool process's index) spreads pool processes over the CPUs: the CPU of
    that index, or the next one no other process of the host has claimed (the slot's own
    when every CPU is claimed). Without it the process stays on the CPU it is running on.
    The CPU is left alone on a single-CPU host or where affinity cannot be set.
    """
    schedule_as_batch()
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    if len(allowed) < 2:
        return None
    if slot is not None:
        first = slot % len(allowed)
        cpu = claim_cpu(allowed[first:] + allowed[:first])
        if cpu is None:
            cpu = allowed[first]
    else:
        here = current_cpu()
        cpu = here if here in allowed else allowed[0]
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return cpu


def claims_dir() -> str:
    # The folder of the CPU claims (lock files) shared by the worker processes of one host:
    # they must all see the same folder (a service with a private /tmp needs this set).
    return os.environ.get("ARENA_CPU_CLAIMS_DIR") or os.path.join(
        tempfile.gettempdir(), "arena-cpu-claims"
    )


def claim_cpu(order: list[int]) -> int | None:
    """The first CPU of `order` that no other live process of this host has claimed,
    claimed now for this process's life; None when all are (or claims cannot be made)."""
    while _claims:  # a process claims one CPU: pinned again, it gives up the old claim
        os.close(_claims.pop())
    folder = claims_dir()
    try:
        os.makedirs(folder, exist_ok=True)
        # Workers of a host may run as different users: anyone may add a claim file, and
        # a claim (flock) needs only read access to an existing one.
        os.chmod(folder, 0o1777)
    except PermissionError:
        pass  # made by another user, who opened it to all
    except OSError:
        return None
    for cpu in order:
        try:
            handle = os.open(os.path.join(folder, f"cpu{cpu}"), os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError:
            return None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(handle)
            continue
        os.set_inheritable(handle, False)
        _claims.append(handle)
        return cpu
    return None


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
