"""Pool processes recycled after their share of matches leave nothing behind.

Celery replaces a pool process once it has run `worker_max_tasks_per_child` tasks. Two
things left zombies for seconds, which the soak's leak check counted: the process's
zygote lanes (workers/sandbox/zygote_lanes.py; the worker's launcher's and the
validation's), left open, outlived it under the worker's main process until its watch
reaped them; and Celery sometimes looked for the ended process a moment too early and
then not again for 5 s (workers/node/pool.py). Here a worker
recycles a pool process every two matches while the test looks for leftovers the way
the soak does: a zombie in the worker's process tree, still there a second later.
"""

from __future__ import annotations

import math
import time

import psutil
import pytest
from django.contrib.auth.models import User

from arena.models import Match
from arena.services.bots import Upload, create_bot
from tests.workers.pipeline.conftest import wait_for_matches, wait_for_validation
from tests.workers.pipeline.test_faults import SLOW_BOT, make_matches
from tests.workers.pipeline.test_health_truth import _pool
from workers import tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _zombies(root: int) -> dict[tuple[int, float], str]:
    """Zombies in the worker's process tree. (The soak also counts zombies of its sandbox
    uids anywhere; here other tests running beside this one share those uids.)"""
    found = {}
    for proc in psutil.process_iter(["pid", "ppid", "status", "create_time", "name"]):
        info = proc.info
        if info["status"] != psutil.STATUS_ZOMBIE:
            continue
        try:
            in_tree = root in {parent.pid for parent in proc.parents()}
        except psutil.Error:
            continue
        if in_tree:
            found[(info["pid"], info["create_time"])] = (
                f"{info['name']} (pid {info['pid']}, parent {info['ppid']})"
            )
    return found


def test_recycled_pool_processes_leave_no_zombie_for_a_second(start_worker):
    matches = make_matches(pairs=3, games=4)
    worker = start_worker(
        concurrency=2, isolation="sandbox", extra_args=("--max-tasks-per-child=2",)
    )
    # Validations too: their smoke matches start lanes of the validation's own launcher
    # (workers/play/smoke.py), which a recycled process must close as well.
    owner = User.objects.create_user("val")
    uploads = [
        create_bot(owner, f"new{index}", "moonrollers", Upload("bot.py", SLOW_BOT))
        for index in range(3)
    ]
    for match in matches:
        tasks.enqueue_match(match.pk)
    first_seen: dict[tuple[int, float], float] = {}
    lasting: set[str] = set()
    pool_processes: set[int] = set()
    pending = {m.pk for m in matches}
    deadline = time.monotonic() + 240
    end = math.inf
    # Watched until 8 s after the last match: the last recycled process ends then.
    while (pending or time.monotonic() < end) and time.monotonic() < deadline:
        if not pending and end == math.inf:
            end = time.monotonic() + 8
        now = time.monotonic()
        seen = _zombies(worker.process.pid)
        pool_processes.update(_pool(worker.process.pid))
        for key, label in seen.items():
            since = first_seen.setdefault(key, now)
            if now - since >= 1.0:
                lasting.add(label)
        first_seen = {key: at for key, at in first_seen.items() if key in seen}
        time.sleep(0.2)
        finished = Match.objects.filter(pk__in=pending, status=Match.Status.FINISHED)
        pending -= set(finished.values_list("pk", flat=True))
    done = wait_for_matches([m.pk for m in matches], [worker], timeout=60)
    assert all(m.status == "finished" for m in done)
    for bot in uploads:
        assert wait_for_validation(bot.pk).validation == "ready"
    # Twelve matches, two per pool process: at least four processes replaced.
    assert len(pool_processes) >= 6, pool_processes
    assert not lasting, f"zombies lasted a second or more: {sorted(lasting)}"
