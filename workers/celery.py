"""The Celery app: `celery -A workers worker` (and `--beat` for the periodic jobs).

Configuration comes from Django settings (the CELERY_* names in arena/settings.py).
Matches are long tasks whose result is committed once by the task itself, so the
app acknowledges a message only after the task ran (`acks_late`), takes one message
at a time per process (prefetch 1: a message held by a busy process would wait behind
its match), and gives a message back to the queue when the process running it dies
(`reject_on_worker_lost`): the redelivered task takes the match over once its lease
has lapsed, or finds it held and leaves it to the reaper, which re-queues a lapsed
lease within seconds (workers/queue/lease.py, workers/reaper.py). Redis's visibility timeout
(arena/settings.py) is not on the recovery path.
"""

from __future__ import annotations

import logging
import os

from celery import Celery
from celery.signals import (
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
    worker_process_shutdown,
    worker_ready,
)

from workers.queue import routing

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
# A worker keeps its database connection between matches instead of opening one per
# task (a PostgreSQL connection costs a server process fork); DB_CONN_MAX_AGE wins.
os.environ.setdefault("DB_CONN_MAX_AGE", "300")

# The task modules are imported when a worker or beat starts, after Celery's Django fix-up
# has set Django up (they need the models). The reaper's module also starts the reaper in
# beat (its own `beat_init` handler): this module imports neither back.
app = Celery("workers", include=["workers.tasks", "workers.reaper"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    # Results live in the database (Match rows): no result backend to fill up.
    task_ignore_result=True,
    # Queues by purpose, consumed highest priority first (workers/queue/routing.py says how);
    # the router reads the queue prefix when a task is sent, not when this module loads.
    task_queues=routing.task_queues(),
    task_default_queue=routing.queue_name(routing.TOURNAMENT),
    task_routes=(routing.route_task,),
    # One line per task in the worker's log is enough; matches log their own summary.
    worker_hijack_root_logger=False,
    broker_connection_retry_on_startup=True,
    # Through a broker outage a worker reconnects for ever; a send retries for ~10 s, and
    # a match whose message was lost anyway is re-sent by the reaper (workers/reaper.py).
    broker_connection_max_retries=None,
    task_publish_retry_policy={
        "max_retries": 5,
        "interval_start": 0.5,
        "interval_step": 1.0,
        "interval_max": 3.0,
    },
    # A worker process that ran many matches is recycled, so a slow leak in a game
    # or in the referee never grows without bound.
    worker_max_tasks_per_child=500,
    # Prefork, joining a recycled process as soon as it ends (workers/node/pool.py).
    worker_pool="workers.node.pool:ArenaTaskPool",
)
# Celery's Django fix-up closes the database connection before and after every task
# unless this (old-style) setting is set: each match then paid a new PostgreSQL
# connection (a server process fork, authentication, session set-up: ~4 ms of a
# busy core). The fix-up now closes it only once a process's whole lifetime of
# tasks; `_recycle_stale_connection` below applies Django's own rules instead.
app.conf.update(CELERY_DB_REUSE_MAX=app.conf.worker_max_tasks_per_child)
app.conf.beat_schedule = {
    "start-due-tournaments": {
        "task": "workers.tasks.start_due_tournaments",
        "schedule": 30.0,
    },
    "schedule-ladders": {
        "task": "workers.tasks.schedule_ladders",
        "schedule": float(
            os.environ.get("ARENA_LADDER_TICK_SECONDS", "5")
        ),  # settings.py checks it
        # A tick that waited longer than the next one is useless: drop it.
        "options": {"expires": 30.0},
    },
}


def die_with_embedding_worker() -> None:
    """A beat embedded in a worker (`--beat`) ends when that worker's main process dies.

    Otherwise a worker killed with SIGKILL leaves its beat running under init, and the
    worker started in its place starts a second one: two ladder schedulers, two reapers.
    """
    import ctypes
    import signal

    from billiard.process import current_process

    if current_process().name != "Beat":
        return  # a beat of its own (`celery beat`): its parent is the service manager
    parent = os.getppid()
    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the worker died before the request took effect
        os._exit(1)


@worker_init.connect
def _name_the_node(sender: object = None, **_: object) -> None:
    """Pool processes (forked later) record their starts under their node's name."""
    os.environ["ARENA_NODE"] = str(getattr(sender, "hostname", "") or "")


@worker_ready.connect
def _start_watch(sender: object = None, **_: object) -> None:
    """Reap what dead pool processes leave, and publish the node's heartbeat."""
    from workers.node.heartbeat import Watch

    controller = getattr(sender, "controller", None)
    concurrency = int(getattr(controller, "concurrency", 0) or 1)
    Watch(os.environ.get("ARENA_NODE", ""), concurrency).start()


@worker_init.connect
def _import_games(**_: object) -> None:
    """Import every game once in the main process, so forked pool processes share it.

    Otherwise each pool process pays the imports (a third of a second) in its first match.
    """
    import engine

    engine.game_names()


@worker_ready.connect
def _sweep_scratch(**_: object) -> None:
    """Remove match folders a killed process left in /dev/shm, now and periodically.

    Every node sweeps its own host (a beat task would reach one node only), on a daemon
    thread of the main process, which plays no match.
    """
    import threading

    from workers.sandbox.scratch import sweep

    period = float(os.environ.get("ARENA_SCRATCH_SWEEP_SECONDS", "300"))

    def loop() -> None:
        while True:
            try:
                sweep()
            except Exception:
                logging.getLogger(__name__).exception("sweeping stale match folders failed")
            threading.Event().wait(period)

    threading.Thread(target=loop, name="arena-scratch-sweep", daemon=True).start()


@task_prerun.connect
def _recycle_stale_connection(**_: object) -> None:
    """Before each task, drop a connection Django would drop before a request.

    That is one broken by an error, or older than CONN_MAX_AGE; it costs no query.
    """
    from django.db import close_old_connections

    close_old_connections()


@task_postrun.connect
def _count_sandbox_starts(**_: object) -> None:
    """After each task, the bots it started go to the arena's counter (GET /metrics)."""
    from workers.node.heartbeat import record_sandbox_starts

    record_sandbox_starts()


@worker_process_init.connect
def _prepare_launcher(**_: object) -> None:
    """Build and check this pool process's launcher before its first match.

    The sandbox's check starts one probe sandbox; doing it here keeps that cost out
    of the first match, and a host that cannot run bots says so in the log at once.
    A failure is only logged: each match retries the check and fails as an
    infrastructure fault, which is retried, rather than killing the pool process.
    """
    from billiard.process import current_process
    from django.conf import settings

    from workers.node.affinity import freeze_startup_heap, pin_to_one_cpu
    from workers.node.heartbeat import record_pool_start
    from workers.play.set_play import InfrastructureFault, worker_launcher

    record_pool_start(os.environ.get("ARENA_NODE", ""))
    if settings.ARENA_PIN_MATCH_CPU:
        pin_to_one_cpu(getattr(current_process(), "index", None))
    launcher = None
    try:
        launcher = worker_launcher()
    except InfrastructureFault as exc:
        logging.getLogger(__name__).error("%s", exc)
    # Zygote lanes for a two-seat set, started here rather than in the first match.
    warm = getattr(launcher, "warm_lanes", None)
    if warm is not None:
        warm(2)
    # What the process holds now stays for its life (workers/node/affinity.py).
    freeze_startup_heap()


@worker_process_shutdown.connect
def _close_launcher(**_: object) -> None:
    """A pool process that ends (recycled after its share of matches, or stopped) closes
    its zygote lanes first, so their processes end with it and none is left a zombie."""
    from workers.play.set_play import close_launchers

    close_launchers()


@worker_ready.connect
def _report_capacity(sender: object = None, **_: object) -> None:
    """Check this host once it is up and log what it can run (workers/node/host.py)."""
    from workers.node.host import log_capacity

    controller = getattr(sender, "controller", None)
    log_capacity(int(getattr(controller, "concurrency", 0) or 1))


def live_workers(timeout: float = 1.0) -> int:
    """How many workers answered Celery's broadcast ping within `timeout` seconds.

    Workers answer from their main process even while every pool process plays a
    match, so a busy worker counts as live; one whose host is gone does not.
    """
    replies = app.control.ping(timeout=timeout) or []
    return len(replies)
