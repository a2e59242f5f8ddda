"""What a load balancer asks a web node: can it reach the database, the broker, workers?

`check()` returns a report without secrets (no URLs, hosts or passwords: a failure is
named by its exception class only) and whether the node is healthy: the database and
the broker answer, and at least ARENA_HEALTH_MIN_WORKERS workers answered a ping.
The number of workers comes from the worker side (ARENA_LIVE_WORKERS, loaded by name
so arena never imports workers): Celery's own broadcast ping, nothing kept here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils.module_loading import import_string
from kombu import Connection


def _timed(probe: Callable[[], Any]) -> dict[str, Any]:
    started = time.monotonic()
    try:
        value = probe()
    except Exception as exc:  # any failure is the answer, never a 500
        return {"ok": False, "error": type(exc).__name__}
    found: dict[str, Any] = {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1)}
    if value is not None:
        found["count"] = value
    return found


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _broker() -> None:
    timeout = settings.ARENA_HEALTH_TIMEOUT_SECONDS
    url = settings.CELERY_BROKER_URL
    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {})
    with Connection(url, connect_timeout=timeout, transport_options=options) as broker:
        broker.ensure_connection(max_retries=1, timeout=timeout)


def _workers() -> int:
    live_workers = import_string(settings.ARENA_LIVE_WORKERS)
    return int(live_workers(settings.ARENA_HEALTH_TIMEOUT_SECONDS))


def check() -> tuple[bool, dict[str, Any]]:
    """(healthy, report): the report is safe to show to anyone."""
    database = _timed(_database)
    broker = _timed(_broker)
    # Without a broker no ping can travel: say so rather than wait for the timeout.
    workers = _timed(_workers) if broker["ok"] else {"ok": False, "error": "NoBroker"}
    wanted = settings.ARENA_HEALTH_MIN_WORKERS
    enough = workers.get("count", 0) >= wanted
    if workers["ok"] and not enough:
        workers = {**workers, "ok": False, "error": f"fewer than {wanted} live workers"}
    healthy = database["ok"] and broker["ok"] and (enough or wanted == 0)
    report = {
        "status": "ok" if healthy else "unavailable",
        "database": database,
        "broker": broker,
        "workers": {**workers, "required": wanted},
    }
    return healthy, report
