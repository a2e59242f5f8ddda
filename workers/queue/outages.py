"""Riding out a database outage: the backoff of infrastructure retries, and played results
kept until the database is back.

Infrastructure faults (database, broker, sandbox) are retried with exponential backoff
from 1 s, capped at ARENA_RETRY_CAP_SECONDS, for ARENA_RETRY_TOTAL_SECONDS in all (15 s
and 600 s by default: 1, 2, 4, 8, then every 15 s, 43 retries). A task that cannot claim
its matches retries through Celery (`retry_delay`, `retries_in_budget`); a worker holding
played results retries their write in place (`when_database_is_back`).

Only an outage (`OUTAGES`: the database cannot be reached or cannot work now) is waited
for. A statement the database refuses (DataError, IntegrityError, ...) would be refused
again: it is raised at once, for the caller to record as the bug it is.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection

from arena.errors import DATABASE_OUTAGES as OUTAGES
from workers.queue.lease import Lease

log = logging.getLogger(__name__)


def when_database_is_back(write: Callable[[], Any], lease: Lease, first_id: int) -> Any:
    """`write()`, retried through a database outage for up to the retry budget.

    The played results stay in memory and the lease thread keeps trying to renew the
    claims; when the database is back they are still this worker's (the reaper waits a
    lease after an outage) and the results are recorded once. The first renewal that gets
    through ends the backoff's wait, so the write follows the database's return within a
    third of a lease instead of up to ARENA_RETRY_CAP_SECONDS later.
    """
    budget = time.monotonic() + float(settings.ARENA_RETRY_TOTAL_SECONDS)
    for retry in itertools.count():
        try:
            return write()
        except OUTAGES as exc:
            if time.monotonic() > budget or lease.lost():
                raise
            wait = min(retry_delay(retry), max(0.0, budget - time.monotonic()))
            log.warning("set of %s: results kept, database down, retry in %.1fs or when the "
                        "lease renews: %s", first_id, wait, exc)  # fmt: skip
            connection.close()
            lease.wait_for_database(wait)
    raise AssertionError("unreachable")


def retry_delay(retry: int) -> float:
    """Exponential backoff from 1 s, capped at ARENA_RETRY_CAP_SECONDS."""
    return min(float(settings.ARENA_RETRY_CAP_SECONDS), 2.0**retry)


def retries_in_budget() -> int:
    """How many retries fit in ARENA_RETRY_TOTAL_SECONDS of backoff."""
    total, retries = 0.0, 0
    while total < float(settings.ARENA_RETRY_TOTAL_SECONDS):
        total += retry_delay(retries)
        retries += 1
    return retries
