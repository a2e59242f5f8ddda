"""Celery queues by purpose, and the one function that routes a match to its queue.

A worker started with the default command (`celery -A workers worker`) consumes every
queue, and takes from them in the order of `QUEUE_ORDER`: with Redis, Kombu's
`queue_order_strategy = "priority"` sends one BRPOP naming the queues in this order,
and Redis pops from the first non-empty one, so a ladder match only starts when no
tournament, validation or challenge work is waiting. (Kombu's default, round robin,
rotates the last-used queue to the back and would share workers evenly instead.)

- maintenance: the reaper, the ladder scheduler, due tournaments: short periodic jobs
  that must not wait behind a backlog of matches (the reaper frees stuck matches).
- validation: upload smoke matches; an author is waiting for the answer.
- tournament: matches an organiser scheduled (and ad-hoc ones).
- challenge: sequential tests between two versions.
- ladder: the self-running stream; it fills whatever capacity is left.

`ARENA_QUEUE`, when set, prefixes every name (`<prefix>.<queue>`): tests and benchmarks
give each run its own queues on a shared Redis. It is read when a name is needed, so a
process can change it (the test fixtures do).
"""

from __future__ import annotations

import os

from kombu import Queue

MAINTENANCE = "maintenance"
VALIDATION = "validation"
TOURNAMENT = "tournament"
CHALLENGE = "challenge"
LADDER = "ladder"

# Highest priority first.
QUEUE_ORDER: tuple[str, ...] = (MAINTENANCE, VALIDATION, TOURNAMENT, CHALLENGE, LADDER)

# A match's purpose (arena.models.Match.Purpose values) -> its queue.
_MATCH_QUEUES = {
    VALIDATION: VALIDATION,
    TOURNAMENT: TOURNAMENT,
    CHALLENGE: CHALLENGE,
    LADDER: LADDER,
}

# Periodic and housekeeping tasks, by task name.
MAINTENANCE_TASKS = (
    "workers.tasks.reap_stuck_matches",
    "workers.tasks.start_due_tournaments",
    "workers.tasks.schedule_ladders",
)
# Upload smoke matches (a bot version's validation).
VALIDATION_TASKS = ("workers.tasks.validate_version",)


def prefix() -> str:
    # A prefix for every queue name, so two deployments can share one Redis.
    return os.environ.get("ARENA_QUEUE", "").strip()


def queue_name(queue: str) -> str:
    """The broker name of one of QUEUE_ORDER's queues, with this process's prefix."""
    if queue not in QUEUE_ORDER:
        raise ValueError(f"unknown queue {queue!r}; queues: {', '.join(QUEUE_ORDER)}")
    found = prefix()
    return f"{found}.{queue}" if found else queue


def queue_for_purpose(purpose: str) -> str:
    """The queue a match of this purpose goes to (the only place that decides it)."""
    try:
        return queue_name(_MATCH_QUEUES[purpose])
    except KeyError:
        raise ValueError(
            f"no queue for match purpose {purpose!r}; purposes: {', '.join(_MATCH_QUEUES)}"
        ) from None


def queue_names() -> list[str]:
    """Every queue's broker name, highest priority first."""
    return [queue_name(queue) for queue in QUEUE_ORDER]


def task_queues() -> list[Queue]:
    return [Queue(name, routing_key=name) for name in queue_names()]


def task_routes() -> dict[str, dict[str, str]]:
    routes = {task: {"queue": queue_name(MAINTENANCE)} for task in MAINTENANCE_TASKS}
    routes.update({task: {"queue": queue_name(VALIDATION)} for task in VALIDATION_TASKS})
    return routes


def route_task(name: str, args: object, kwargs: object, options: dict, task=None, **_: object):
    """Celery router: maintenance and validation tasks to theirs, a match without one to tournament.

    A queue given when sending (`apply_async(queue=...)`, as `enqueue_match` does) wins.
    """
    if name in MAINTENANCE_TASKS:
        return {"queue": queue_name(MAINTENANCE)}
    if name in VALIDATION_TASKS:
        return {"queue": queue_name(VALIDATION)}
    return {"queue": queue_name(TOURNAMENT)}
