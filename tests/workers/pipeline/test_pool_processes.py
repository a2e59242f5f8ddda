"""A real worker's pool processes are set up to referee: one CPU each, as batch work."""

from __future__ import annotations

import os
import time

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as handle:
            found += [int(child) for child in handle.read().split()]
    return found


def test_each_pool_process_runs_on_a_cpu_of_its_own_as_batch_work(start_worker):
    worker = start_worker(concurrency=2)
    cpus = sorted(os.sched_getaffinity(0))
    deadline = time.monotonic() + 20
    while True:
        # The pool processes set themselves up as they start (workers/celery.py).
        pool = _children(worker.process.pid)
        policies = [os.sched_getscheduler(pid) for pid in pool]
        pinned = [sorted(os.sched_getaffinity(pid)) for pid in pool]
        ready = len(pool) == 2 and policies == [os.SCHED_BATCH] * 2
        if ready and (len(cpus) < 2 or all(len(p) == 1 for p in pinned)):
            break
        assert time.monotonic() < deadline, (pool, policies, pinned, worker.text()[-2000:])
        time.sleep(0.1)
    if len(cpus) >= 2:
        assert pinned[0] != pinned[1]  # two pool processes, two CPUs
