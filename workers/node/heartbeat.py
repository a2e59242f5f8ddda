"""The worker main process's watch: reap what sandboxes leave it, and say how the node is.

The main process is the child subreaper of its pool (workers/sandbox/process.py): when a
pool process dies, whatever of its sandboxes outlives it is reparented here. Billiard
reaps the processes it started (the pool, an embedded beat) and nothing else, so without
this loop each such orphan stays a zombie for the life of the worker. `reap_adopted()`
waits for exactly those: zombie children that billiard did not start.

Every few seconds the same loop publishes a heartbeat for /api/health/ and /metrics
(arena/services/health.py reads it): a JSON value per node in Redis under
`arena:heartbeat:<node>`, expiring when the node stops writing, with its live pool
processes, zombies and orphans on the host, pool-process starts in the last hour and the
node's own starts (a node restarting in a loop shows as many starts).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from typing import Any

from arena.services.health import (
    HEARTBEAT_KEY,
    POOL_STARTS_KEY,
    SANDBOX_STARTS_KEY,
    STARTS_KEY,
)

log = logging.getLogger(__name__)

# Seconds between a worker node's heartbeats into Redis (and its sweeps for zombies).
HEARTBEAT_SECONDS = float(os.environ.get("ARENA_HEARTBEAT_SECONDS", "5"))
HOUR = 3600.0


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, real uid) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as handle:
            uid = next(int(line.split()[1]) for line in handle if line.startswith("Uid:"))
    except (OSError, ValueError, StopIteration, IndexError):
        return None
    return fields[0], int(fields[1]), uid


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def sandbox_uids() -> range:
    base = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "61000"))
    return range(base, base + int(os.environ.get("ARENA_SANDBOX_UIDS", "512")))


def leaked_processes(root: int | None = None) -> tuple[int, int]:
    """(zombies, orphans) of this node: zombie children of `root` (this process) or of its
    pool, and sandbox-uid processes whose parent is neither `root`'s tree nor alive in it
    (reparented to init: they escaped their sandbox's end)."""
    root = os.getpid() if root is None else root
    stats = {pid: stat for pid in _pids() if (stat := _stat(pid)) is not None}
    tree = {root}
    changed = True
    while changed:
        changed = False
        for pid, (_state, parent, _uid) in stats.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                changed = True
    uids = sandbox_uids()
    zombies = sum(1 for pid in tree - {root} if stats.get(pid, ("",))[0] == "Z")
    orphans = sum(
        1
        for pid, (state, parent, uid) in stats.items()
        if uid in uids and state != "Z" and pid not in tree and parent == 1
    )
    return zombies, orphans


def reap_adopted(keep: set[int]) -> int:
    """Wait for zombie children of this process that are not in `keep`; how many were reaped."""
    me = os.getpid()
    reaped = 0
    for pid in _pids():
        if pid in keep:
            continue
        stat = _stat(pid)
        if stat is None or stat[1] != me or stat[0] != "Z":
            continue
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
        except ChildProcessError:
            pass  # someone else reaped it first
    return reaped


def _billiard_children() -> set[int]:
    from billiard import process

    return {child.pid for child in list(process._children) if child.pid}


def _redis() -> Any:
    from django.conf import settings

    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis

    return redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)


def record_pool_start(node: str) -> None:
    """Called in each new pool process: a pool restarting in a loop shows in health."""
    try:
        client = _redis()
        if client is not None:
            now = time.time()
            client.zadd(POOL_STARTS_KEY + node, {f"{os.getpid()}:{now}": now})
            client.zremrangebyscore(POOL_STARTS_KEY + node, 0, now - HOUR)
            client.expire(POOL_STARTS_KEY + node, int(HOUR) * 2)
    except Exception:  # health is a report: never let it stop a pool process
        log.debug("could not record the pool start", exc_info=True)


def record_sandbox_starts() -> None:
    """Add this pool process's sandbox starts since the last call to the arena's counter."""
    from workers.sandbox.launchers import SANDBOX_STARTS

    count = SANDBOX_STARTS.take()
    if not count:
        return
    try:
        client = _redis()
        if client is not None:
            client.incrby(SANDBOX_STARTS_KEY, count)
    except Exception:  # Redis away: keep the count for the next task
        SANDBOX_STARTS.add(count)
        log.debug("could not record the sandbox starts", exc_info=True)


class Watch:
    """The loop on a daemon thread of the worker's main process."""

    def __init__(self, node: str, concurrency: int) -> None:
        self.node = node or socket.gethostname()
        self.concurrency = concurrency
        self.started = time.time()
        self.reaped = 0

    def start(self) -> None:
        self._record_start()
        threading.Thread(target=self._loop, name="arena-watch", daemon=True).start()

    def _record_start(self) -> None:
        try:
            client = _redis()
            if client is not None:
                client.zadd(STARTS_KEY + self.node, {str(self.started): self.started})
                client.zremrangebyscore(STARTS_KEY + self.node, 0, self.started - HOUR)
                client.expire(STARTS_KEY + self.node, int(HOUR) * 2)
        except Exception:
            log.warning("could not record this worker's start", exc_info=True)

    def _loop(self) -> None:
        while True:
            try:
                self.beat_once()
            except Exception:
                log.warning("the worker's watch failed a round", exc_info=True)
            time.sleep(HEARTBEAT_SECONDS)

    def beat_once(self) -> dict[str, Any]:
        children = _billiard_children()
        self.reaped += reap_adopted(children)
        zombies, orphans = leaked_processes()
        pool = [pid for pid in children if (stat := _stat(pid)) and stat[0] != "Z"]
        report: dict[str, Any] = {
            "node": self.node,
            "pid": os.getpid(),
            "concurrency": self.concurrency,
            "pool_processes": len(pool),
            "zombies": zombies,
            "orphans": orphans,
            "reaped": self.reaped,
            "started": self.started,
            "at": time.time(),
        }
        client = _redis()
        if client is not None:
            now = report["at"]
            report["starts_last_hour"] = int(client.zcount(STARTS_KEY + self.node, now - HOUR, now))
            report["pool_starts_last_hour"] = int(
                client.zcount(POOL_STARTS_KEY + self.node, now - HOUR, now)
            )
            client.set(HEARTBEAT_KEY + self.node, json.dumps(report), ex=int(HEARTBEAT_SECONDS * 4))
        return report
