"""The workers' database connections terminated mid-play and mid-commit.

`pg_terminate_backend` ends every other connection to the test's database, again and
again, while a real worker (the real sandbox) plays a set and records it: each loss is a
connection-level outage to the worker, which keeps its played results and writes them
when it reconnects. Every match ends finished and rated once, no bot charged.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from tests.workers.pipeline.test_faults import (  # noqa: F401  (fixtures)
    FAULT_ENV,
    assert_rated_once_and_uncharged,
    make_matches,
    running_match,
    start_beat,
)
from workers import tasks

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate_others(stop: threading.Event, every: float, kills: list[int]) -> None:
    import psycopg

    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as own:
        while not stop.wait(every):
            ended = own.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
            kills.append(int(ended[0]) if ended else 0)


def test_connections_terminated_mid_commit_lose_no_result(start_worker, start_beat):  # noqa: F811
    matches = make_matches(2, games=4)
    ids = [m.pk for m in matches]
    worker = start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV)
    start_beat()
    tasks.enqueue_matches(ids)
    running_match()
    stop, kills = threading.Event(), []
    killer = threading.Thread(target=_terminate_others, args=(stop, 0.3, kills), daemon=True)
    killer.start()
    time.sleep(8)
    stop.set()
    killer.join(timeout=10)
    connection.close()
    assert sum(kills) >= 10, kills  # the worker's (and beat's) connections were hit
    last_kill = time.monotonic()
    assert_rated_once_and_uncharged(ids, [worker])
    print(f"{sum(kills)} connections ended; all matches recorded "
          f"{time.monotonic() - last_kill:.1f} s after the last")  # fmt: skip
