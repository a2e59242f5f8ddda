"""CPU time of other processes on this machine, read from /proc, for the benchmarks.

A benchmark that drives a server (gunicorn, Celery, PostgreSQL) reports the CPU each side
spent, since on a shared machine the wall clock also counts time other work held a core.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

from django.db import connections

TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, *, reaped_children: bool = False) -> float:
    """CPU seconds (user + system) of a live process, with those of the children it has
    reaped if asked; 0 once the process is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime, stime, cutime, cstime: fields 14-17 of the line (11-14 after the name).
    last = 15 if reaped_children else 13
    return sum(int(value) for value in fields[11:last]) / TICKS


def children(pid: int) -> list[int]:
    """The live child processes of `pid` (its main thread's)."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def is_postgres(pid: int) -> bool:
    """Whether `pid` is a PostgreSQL server process on this machine."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == "postgres"
    except OSError:
        return False


def own_cpu() -> float:
    """CPU time of this process and of every child it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def celery_worker_cpu(pid: int) -> tuple[float, float]:
    """A Celery worker's CPU: its main process, and its live pool processes (each with
    the bot processes it has reaped)."""
    pool = children(pid)
    return process_cpu(pid, reaped_children=True), sum(
        process_cpu(child, reaped_children=True) for child in pool
    )


def database_cpu_by_backend() -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving this database but not this process,
    when the server runs on this machine (empty otherwise)."""
    if connections["default"].vendor != "postgresql":
        return {}
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        pids = [row[0] for row in cursor.fetchall()]
    return {pid: process_cpu(pid, reaped_children=True) for pid in pids if is_postgres(pid)}


def database_cpu_since(before: dict[int, float]) -> float:
    after = database_cpu_by_backend()
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())
