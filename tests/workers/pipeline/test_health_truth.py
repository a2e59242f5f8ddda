"""Health that tells the truth, with real workers, the real sandbox and real Redis.

Every worker killed while matches wait: /api/health/ answers 503 naming the workers, and
200 again once a worker is back. A pool process killed with SIGKILL mid-match: the node's
main process reaps what its sandboxes leave (no zombie stays), the pool is full again
within 30 s, the heartbeat says so, and /metrics counts the matches that finished and the
bots started.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time

import pytest
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families

from arena.services.health import HEARTBEAT_KEY, SANDBOX_STARTS_KEY
from tests.workers.pipeline.conftest import wait_for_matches
from tests.workers.pipeline.test_faults import make_matches, running_match
from workers import tasks
from workers.node.heartbeat import _redis, leaked_processes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _health() -> tuple[int, dict]:
    reply = Client().get("/api/health/")
    return reply.status_code, reply.json()


def _until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, what
        time.sleep(0.5)


@override_settings(ARENA_HEALTH_MIN_WORKERS=1)
def test_health_is_503_with_every_worker_killed_and_200_once_one_is_back(start_worker):
    worker = start_worker(isolation="sandbox")
    _until(lambda: _health()[0] == 200, 30, "a live worker never made health 200")
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.process.pid, signal.SIGKILL)
    worker.process.wait(timeout=10)
    status, report = _until(
        lambda: (found := _health())[0] == 503 and found, 30, "health stayed 200"
    )
    assert "workers" in report["failing"] and report["status"] == "unavailable"
    start_worker(isolation="sandbox")
    _until(lambda: _health()[0] == 200, 30, "health did not come back to 200")


def _pool(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        kids = [int(k) for k in handle.read().split()]
    found = []
    for kid in kids:
        with contextlib.suppress(OSError), open(f"/proc/{kid}/cmdline", "rb") as handle:
            if b"ForkPoolWorker" in handle.read():
                found.append(kid)
    return found


def _heartbeat(node_prefix: str) -> dict | None:
    client = _redis()
    for key in client.scan_iter(match=HEARTBEAT_KEY + node_prefix + "*"):
        raw = client.get(key)
        if raw:
            return json.loads(raw)
    return None


def test_a_pool_process_killed_mid_match_leaves_no_zombie_and_the_pool_refills(
    start_worker, queue_name
):
    matches = make_matches(pairs=3, games=4)
    starts_before = int(_redis().get(SANDBOX_STARTS_KEY) or 0)
    worker = start_worker(
        concurrency=2, isolation="sandbox", extra_env={"ARENA_HEARTBEAT_SECONDS": "1"}
    )
    for match in matches:
        tasks.enqueue_match(match.pk)
    pool = _until(lambda: len(p := _pool(worker.process.pid)) == 2 and p, 30, "no pool")
    # Kill a pool process while its bots play: with 12 matches queued, both slots play.
    running_match()
    time.sleep(0.5)
    os.kill(pool[0], signal.SIGKILL)
    killed_at = time.monotonic()
    refilled = _until(
        lambda: (p := _pool(worker.process.pid)) and len(p) == 2 and pool[0] not in p,
        30,
        "the pool did not refill within 30 s",
    )
    assert refilled
    _until(lambda: leaked_processes(worker.process.pid) == (0, 0), 30, "zombies stayed")
    print(f"pool full again {time.monotonic() - killed_at:.1f} s after the kill")
    beat = _until(
        lambda: (b := _heartbeat(f"w0-{queue_name}")) and b["pool_processes"] == 2 and b,
        30,
        "no heartbeat",
    )  # noqa: E501
    assert beat["zombies"] == 0 and beat["pool_starts_last_hour"] >= 3
    done = wait_for_matches([m.pk for m in matches], [worker], timeout=180)
    assert all(m.status == "finished" for m in done)
    metrics = {
        (family.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(Client().get("/metrics").content.decode())
        for sample in family.samples
    }
    finished = metrics[("arena_matches", (("purpose", "tournament"), ("status", "finished")))]
    assert finished == len(matches)
    # Each of the 3 pairs' sets starts its two bots at least once, some again after the kill.
    assert metrics[("arena_sandbox_starts", ())] - starts_before >= 6
