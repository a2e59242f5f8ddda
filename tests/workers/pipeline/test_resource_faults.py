"""Faults of resources, with real processes: the database's disk full.

Real `celery -A workers worker` nodes play slowed-down Moonrollers matches with each bot in
the real sandbox, and a real `celery -A workers beat` runs the reaper, as in
tests/workers/pipeline/test_faults.py (its fixtures and checks are used here). Each fault
happens to a server of the test's own, never to the shared PostgreSQL:

* the database's disk full: a PostgreSQL whose write-ahead log is on a small tmpfs the test
  mounts. A filler table fills the log; PostgreSQL panics on the full disk and cannot start
  again until the tmpfs is grown. Nothing recorded is lost, every match is rated once, health
  names the database while it is down.

The recovery times are printed (`pytest -s`) for the operators' guide.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import DatabaseError, connection
from django.test import Client
from django.utils import timezone

from arena.models import Match, RatingChange
from arena.services import health
from tests.workers.pipeline.servers import OwnPostgres
from tests.workers.pipeline.test_faults import (
    BOUND,
    FAULT_ENV,
    assert_rated_once_and_uncharged,
    in_place_of_the_test_database,
    make_matches,
    progress_after,
    start_beat,  # noqa: F401  (a fixture)
)
from workers import tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.long]

ENV = {**FAULT_ENV, "ARENA_ORPHAN_SCAN_SECONDS": "1"}


def _until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return value


def _health_over_http() -> tuple[int, dict]:
    reply = Client().get("/api/health/")
    return reply.status_code, reply.json()


# --- the database's disk full (its write-ahead log on a small tmpfs) -------------------------

WAL_DISK = "24m"  # one 16 MB WAL segment fits, the next does not
WAL_DISK_GROWN = "128m"


@pytest.fixture
def wal_disk() -> Iterator[Path]:
    """A small tmpfs of the test's own, for a PostgreSQL's write-ahead log; unmounted after."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    # Not under pytest's tmp_path: its folders are private to root, and the server runs as
    # the `postgres` user (tests/workers/pipeline/servers.py).
    folder = Path(tempfile.mkdtemp(prefix="arena-wal-disk-"))
    folder.chmod(0o755)
    owner = pwd.getpwnam("postgres")
    options = f"size={WAL_DISK},uid={owner.pw_uid},gid={owner.pw_gid},mode=0700"
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], check=False).returncode != 0:
            subprocess.run(["umount", "--lazy", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def database_on_a_small_disk(transactional_db, wal_disk: Path) -> Iterator[OwnPostgres]:
    """This test's own PostgreSQL, its log on `wal_disk`, in place of the test database."""
    server = OwnPostgres(waldir=wal_disk / "pg_wal")
    try:
        server.start()
        with in_place_of_the_test_database(server):
            yield server
    finally:
        server.close()


def fill_the_log_until_refused() -> int:
    """Write a filler table from this process until the database refuses (or dies); MB written."""
    written = 0
    try:
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE wal_filler (x text)")
            while written < 200:
                # About 1 MB of rows, each uncompressed (under TOAST's threshold): 1 MB of log.
                cursor.execute(
                    "INSERT INTO wal_filler SELECT repeat('x', 1000) FROM generate_series(1, 1000)"
                )
                written += 1
    except DatabaseError:
        pass
    finally:
        connection.close()
    assert written < 200, "a 24 MB disk took 200 MB of log: the log is not on the small disk"
    return written


def results_of(ids: list[int]) -> dict[int, tuple]:
    found = {}
    for match in Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED):
        changes = list(
            RatingChange.objects.filter(match=match)
            .order_by("id")
            .values_list("rating_id", "before", "after")
        )
        found[match.pk] = (match.finished_at, match.result, changes)
    return found


def test_the_database_disk_full_loses_no_result(
    wal_disk,
    database_on_a_small_disk,
    start_worker,
    start_beat,  # noqa: F811
):
    server = database_on_a_small_disk
    matches = make_matches(2, games=4)
    ids = [m.pk for m in matches]
    worker = start_worker(concurrency=1, isolation="sandbox", extra_env=ENV)
    start_beat(ENV)
    for match_id in ids:
        tasks.enqueue_match(match_id)
    _until(
        lambda: Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() >= 2,
        120,
        "no two matches finished before the fault",
    )
    recorded = results_of(ids)

    filled = fill_the_log_until_refused()
    # PostgreSQL panics when it cannot add a segment to its log, and its crash recovery
    # needs one more: the server stops and cannot start again on the full disk.
    _until(lambda: server.process is None or server.process.poll() is not None, 60,
           f"PostgreSQL kept running on a full disk:\n{server.text()[-3000:]}")  # fmt: skip
    fault_at = timezone.now()
    assert "No space left on device" in server.text()
    status, report = _health_over_http()
    print(f"\nhealth while the database's disk is full: {status} failing={report['failing']}"
          f" database={report['database']}")  # fmt: skip
    assert status == 503 and "database" in report["failing"]
    assert health.check()[1]["database"] == {"ok": False, "error": "OperationalError"}
    # Down long enough for the worker to meet the outage with a match in hand.
    time.sleep(max(0.0, 8.0 - (timezone.now() - fault_at).total_seconds()))

    subprocess.run(["mount", "-o", f"remount,size={WAL_DISK_GROWN}", str(wal_disk)], check=True)
    freed_at = timezone.now()
    server.stop()
    server.start()
    started = (timezone.now() - freed_at).total_seconds()

    assert_rated_once_and_uncharged(ids, [worker])
    # What was recorded before the disk filled is there, unchanged: result and ratings.
    assert {k: v for k, v in results_of(ids).items() if k in recorded} == recorded
    after = progress_after(ids, freed_at)
    print(
        f"database disk full ({filled} MB of filler; down"
        f" {(freed_at - fault_at).total_seconds():.1f}s): PostgreSQL up {started:.1f}s after"
        f" the space was freed; {len(after)} matches finished after it, the first"
        f" {after[0] if after else 0:.1f}s after, the last {after[-1] if after else 0:.1f}s after"
    )
    assert after and after[0] < BOUND
    assert health.check()[1]["database"]["ok"]
