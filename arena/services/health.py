"""What a load balancer and an operator ask a web node: is every part of the arena working?

`check()` returns (healthy, report). The report has one entry per part, safe to show to
anyone (no URLs, hosts or passwords: a failure is named by its exception class only):

* database: latency; free disk where the database is on this host;
* broker: latency, depth of each queue; failing when Redis refuses a write (full at its
  maxmemory);
* matches: how many wait, the oldest one's age, how many finished in the last 5 minutes;
* workers: live count (Celery's ping), and per node its heartbeat (workers/node/heartbeat.py):
  pool processes, zombies, orphans, starts in the last hour;
* reaper: seconds since its last sweep.

The node is unhealthy (503) when a critical part fails, and `failing` names each: the
database or broker unreachable (or the broker refusing writes), fewer live workers than
ARENA_HEALTH_MIN_WORKERS, the oldest waiting match older than
ARENA_HEALTH_MAX_WAIT_SECONDS, a node started more than ARENA_HEALTH_MAX_STARTS_PER_HOUR
times in the last hour (restarting in a loop), the database's disk under
ARENA_HEALTH_MIN_FREE_DISK_PERCENT free.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.module_loading import import_string
from kombu import Connection

# Written by the workers (workers/node/heartbeat.py, workers/reaper.py), read here.
HEARTBEAT_KEY = "arena:heartbeat:"
STARTS_KEY = "arena:starts:"
POOL_STARTS_KEY = "arena:pool-starts:"
REAPER_KEY = "arena:reaper:last"
# Bots started in a sandbox, arena-wide, since Redis was new (a counter: INCRBY).
SANDBOX_STARTS_KEY = "arena:sandbox-starts"
# Queued matches the reaper sent again because their message was lost (a counter).
RESENT_KEY = "arena:reaper:resent"
# Written by each health check: a broker that refuses writes is failing.
WRITE_PROBE_KEY = "arena:health:write-probe"
THROUGHPUT_SECONDS = 300


def _timed(probe: Callable[[], Any]) -> dict[str, Any]:
    started = time.monotonic()
    try:
        value = probe()
    except Exception as exc:  # any failure is the answer, never a 500
        return {"ok": False, "error": type(exc).__name__}
    found: dict[str, Any] = {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1)}
    if isinstance(value, dict):
        found.update(value)
    elif value is not None:
        found["count"] = value
    return found


def _local_data_dir() -> str | None:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return os.path.dirname(os.path.abspath(str(db["NAME"])))
    if db.get("HOST") not in ("", "127.0.0.1", "localhost", "::1"):
        return None
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW data_directory")
            return str(cursor.fetchone()[0])
    except Exception:  # not allowed to read it (not a superuser): no disk figure
        return None


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    found: dict[str, Any] = {}
    folder = _local_data_dir()
    if folder and os.path.isdir(folder):
        usage = shutil.disk_usage(folder)
        found["free_disk_percent"] = round(100 * usage.free / usage.total, 1)
    return found


def _redis_client() -> Any:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis

    timeout = settings.ARENA_HEALTH_TIMEOUT_SECONDS
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


def _broker() -> dict[str, Any]:
    timeout = settings.ARENA_HEALTH_TIMEOUT_SECONDS
    url = settings.CELERY_BROKER_URL
    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {})
    with Connection(url, connect_timeout=timeout, transport_options=options) as broker:
        broker.ensure_connection(max_retries=1, timeout=timeout)
    client = _redis_client()
    if client is None:
        return {}
    names = import_string(settings.ARENA_QUEUE_NAMES)()
    with client.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.llen(name)
        depths = pipe.execute()
    found: dict[str, Any] = {"queues": dict(zip(names, (int(d) for d in depths), strict=True))}
    import redis

    try:
        # A Redis full at its maxmemory (noeviction) answers every read and refuses every
        # write: no match can be sent, and a worker cannot answer a ping.
        client.set(WRITE_PROBE_KEY, "1", ex=60)
    except redis.ResponseError as exc:
        found.update(ok=False, error=type(exc).__name__)
    return found


def _matches() -> dict[str, Any]:
    from arena.models import Match

    now = timezone.now()
    waiting = Match.objects.filter(status=Match.Status.QUEUED)
    oldest = waiting.order_by("created_at").values_list("created_at", flat=True).first()
    finished = Match.objects.filter(
        status=Match.Status.FINISHED, finished_at__gte=now - timedelta(seconds=THROUGHPUT_SECONDS)
    ).count()
    return {
        "waiting": waiting.count(),
        "oldest_wait_seconds": round((now - oldest).total_seconds(), 1) if oldest else 0.0,
        "finished_last_5_minutes": finished,
    }


def _heartbeats() -> dict[str, Any]:
    client = _redis_client()
    if client is None:
        return {}
    nodes = []
    for key in sorted(client.scan_iter(match=HEARTBEAT_KEY + "*", count=100)):
        raw = client.get(key)
        if raw:
            beat = json.loads(raw)
            beat["age_seconds"] = round(time.time() - float(beat.pop("at", time.time())), 1)
            for private in ("pid", "node"):
                beat.pop(private, None)
            nodes.append(beat)
    last = client.get(REAPER_KEY)
    return {
        "nodes": nodes,
        "reaper_seconds_ago": round(time.time() - float(last), 1) if last else None,
        "resent": int(client.get(RESENT_KEY) or 0),
    }


def _workers() -> int:
    live_workers = import_string(settings.ARENA_LIVE_WORKERS)
    return int(live_workers(settings.ARENA_HEALTH_TIMEOUT_SECONDS))


def check() -> tuple[bool, dict[str, Any]]:
    """(healthy, report): the report is safe to show to anyone."""
    database = _timed(_database)
    broker = _timed(_broker)
    matches = _timed(_matches) if database["ok"] else {"ok": False, "error": "NoDatabase"}
    # Without a broker no ping can travel: say so rather than wait for the timeout.
    workers = _timed(_workers) if broker["ok"] else {"ok": False, "error": "NoBroker"}
    beats = _timed(_heartbeats) if broker["ok"] else {"ok": False, "error": "NoBroker"}
    failing: list[str] = []
    if not database["ok"]:
        failing.append("database")
    elif database.get("free_disk_percent", 100.0) < settings.ARENA_HEALTH_MIN_FREE_DISK_PERCENT:
        failing.append("database disk")
    if not broker["ok"]:
        failing.append("broker")
    wanted = settings.ARENA_HEALTH_MIN_WORKERS
    if wanted and workers.get("count", 0) < wanted:
        failing.append("workers")
        if workers["ok"]:
            workers = {**workers, "ok": False, "error": f"fewer than {wanted} live workers"}
    if matches.get("oldest_wait_seconds", 0) > settings.ARENA_HEALTH_MAX_WAIT_SECONDS:
        failing.append("queue")
    nodes = beats.get("nodes", [])
    if any(n.get("starts_last_hour", 0) > settings.ARENA_HEALTH_MAX_STARTS_PER_HOUR for n in nodes):
        failing.append("worker restarts")
    report = {
        "status": "ok" if not failing else "unavailable",
        "failing": failing,
        "database": database,
        "broker": broker,
        "matches": matches,
        "workers": {**workers, "required": wanted, "nodes": nodes},
        "reaper": {"seconds_ago": beats.get("reaper_seconds_ago"), "resent": beats.get("resent")},
    }
    return not failing, report
