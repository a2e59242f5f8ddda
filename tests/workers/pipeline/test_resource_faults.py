"""Faults of resources, with real processes: the database's disk full, Redis at maxmemory.

Real `celery -A workers worker` nodes play slowed-down Moonrollers matches with each bot in
the real sandbox, and a real `celery -A workers beat` runs the reaper, as in
tests/workers/pipeline/test_faults.py (its fixtures and checks are used here). Each fault
happens to a server of the test's own, never to the shared PostgreSQL or Redis:

* the database's disk full: a PostgreSQL whose write-ahead log is on a small tmpfs the test
  mounts. A filler table fills the log; PostgreSQL panics on the full disk and cannot start
  again until the tmpfs is grown. Nothing recorded is lost, every match is rated once, health
  names the database while it is down.
* Redis at maxmemory (`noeviction`): junk keys fill it until it refuses writes, so matches
  cannot be sent. No HTTP request that queues matches fails for it; once the junk is deleted
  the reaper sends the matches whose message never reached the queue.

The recovery times are printed (`pytest -s`) for the operators' guide.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.contrib.auth.models import User
from django.db import DatabaseError, connection
from django.test import Client, override_settings
from django.utils import timezone
from kombu.exceptions import OperationalError as SendFailed
from rest_framework.test import APIClient

from arena.models import Bot, Match, RatingChange
from arena.services import health
from tests.workers.pipeline.servers import OwnPostgres, OwnRedis
from tests.workers.pipeline.test_faults import (
    BOUND,
    FAULT_ENV,
    MATCH_SECONDS,
    assert_rated_once_and_uncharged,
    in_place_of_the_test_database,
    make_matches,
    progress_after,
    running_match,
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


# --- Redis at maxmemory, refusing writes ------------------------------------------------------

MAXMEMORY = ("--maxmemory", "2mb", "--maxmemory-policy", "noeviction")


@contextlib.contextmanager
def sending_to(url: str) -> Iterator[None]:
    """This process's Celery app (and health's broker check) on the broker at `url`."""
    from workers.celery import app

    def switch(to: str | None) -> None:
        # The app keeps its connections (and producers) to the broker it first used.
        if app._pool is not None:
            app._pool.force_close_all()
        app._pool = None
        app.amqp._producer_pool = None
        # Celery reads the variable before its configuration.
        if to is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = to

    saved = os.environ.get("CELERY_BROKER_URL")
    switch(url)
    try:
        with override_settings(CELERY_BROKER_URL=url):
            yield
    finally:
        switch(saved)


def fill_until_refused(client: redis.Redis) -> int:
    """Junk keys until Redis refuses a write; how many it took."""
    for count in range(100_000):
        try:
            client.set(f"junk:{count}", b"j" * 2048)
        except redis.exceptions.OutOfMemoryError:
            break
    # At the limit, a message a worker pops frees enough for the next write: a margin, so
    # every write is refused until the junk goes.
    used = int(client.info("memory")["used_memory"])
    client.config_set("maxmemory", used - 128 * 1024)
    with pytest.raises(redis.exceptions.OutOfMemoryError):
        client.set("junk:probe", b"j")
    return count


def delete_junk(client: redis.Redis) -> None:
    for key in client.scan_iter(match="junk:*", count=1000):
        client.delete(key)
    client.config_set("maxmemory", "2mb")


def test_redis_refusing_writes_loses_no_match(start_worker, start_beat, tmp_path):  # noqa: F811
    broker = OwnRedis(tmp_path / "redis", persistent=False, options=MAXMEMORY)
    broker.start()
    client = redis.Redis.from_url(broker.url)
    try:
        with sending_to(broker.url):
            run_the_redis_scenario(broker, client, start_worker, start_beat)
    finally:
        client.close()
        broker.kill()


def run_the_redis_scenario(broker: OwnRedis, client: redis.Redis, new_worker, new_beat) -> None:
    env = {**ENV, "CELERY_BROKER_URL": broker.url}
    matches = make_matches(2, games=2)
    ids = [m.pk for m in matches]
    # One match failed before: an organiser re-queues it from the admin during the fault.
    failed = ids.pop()
    Match.objects.filter(pk=failed).update(
        status=Match.Status.FAILED, error="failed before the test", finished_at=timezone.now()
    )
    worker = new_worker(concurrency=1, isolation="sandbox", extra_env=env)
    new_beat(env)
    # A backlog: one match plays, two wait in the queue when Redis fills.
    for match_id in ids:
        tasks.enqueue_match(match_id)
    running_match()

    junk = fill_until_refused(client)
    fault_at = time.monotonic()
    # Sending a match fails...
    with pytest.raises(SendFailed):
        tasks.enqueue_match(ids[0])
    # ...but no HTTP request that queues matches after its commit fails for it: a
    # tournament created over the API, a failed match re-queued from the admin.
    organiser = User.objects.create_superuser("olga", password="organiser-pass-9")
    api = APIClient()
    api.force_authenticate(organiser)
    bots = list(Bot.objects.filter(name__in=["slow0", "slow1"]).values_list("pk", flat=True))
    reply = api.post(
        "/api/tournaments/",
        {"name": "Full Moon", "game": "moonrollers", "format": "round_robin", "bots": bots,
         "players_per_match": 2, "games_per_pairing": 2,
         "limits": {"match_seconds": MATCH_SECONDS}},
        format="json",
    )  # fmt: skip
    assert reply.status_code == 201, reply.content
    cup = list(Match.objects.filter(tournament_id=reply.json()["id"]).values_list("pk", flat=True))
    admin = Client(raise_request_exception=False)
    admin.force_login(organiser)
    reply = admin.post(
        "/admin/arena/match/", {"action": "requeue_failed", "_selected_action": [failed]}
    )
    assert reply.status_code == 302, reply.content[:2000]
    assert Match.objects.get(pk=failed).status == Match.Status.QUEUED
    status, report = _health_over_http()
    print(f"\nhealth while Redis refuses writes: {status} failing={report['failing']}"
          f" broker={report['broker']}")  # fmt: skip
    assert status == 503 and report["failing"] == ["broker"]
    assert report["broker"]["error"] == "OutOfMemoryError"
    # The worker finishes its match and plays the next from its backlog while every write
    # is refused (taking it and acknowledging it are writes).
    _until(
        lambda: (
            Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() >= 2
            or worker.process.poll() is not None
        ),
        90,
        "the worker played nothing from its backlog while Redis refused writes",
    )
    assert worker.process.poll() is None, worker.text()[-3000:]
    time.sleep(max(0.0, 10.0 - (time.monotonic() - fault_at)))

    delete_junk(client)
    freed_at = timezone.now()
    refused = time.monotonic() - fault_at
    every = [*ids, failed, *cup]
    assert_rated_once_and_uncharged(every, [worker])
    last = max(m.finished_at for m in Match.objects.filter(pk__in=every))
    resent = int(client.get(health.RESENT_KEY) or 0)
    print(
        f"Redis at maxmemory ({junk} junk keys) refusing writes for {refused:.1f}s:"
        f" all {len(every)} matches finished {(last - freed_at).total_seconds():.1f}s after"
        f" the memory was freed; the reaper re-sent {resent}"
    )
    assert (last - freed_at).total_seconds() < BOUND + 30
    assert _health_over_http()[0] == 200
