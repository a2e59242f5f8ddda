"""The bench's referee pool ends each set's bots as a worker does: killed at once, waited
for behind the next set's start, and the last set's waited for before the CPU reading.

Each scenario runs in a fresh interpreter, as `manage.py arena_bench` does: a pool forked
from the test process would copy its heap, grown by every earlier test, and collect it
(`freeze_startup_heap`) in each child.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PREAMBLE = """
import json, multiprocessing, sys
from pathlib import Path
import django
django.setup()
from workers.bench import referee_pool

BOT = str(Path("bots/reference/random_bot.py").resolve())


def children(pid):
    # The live (or unreaped) children of one process, from /proc.
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def job(seeds, game="moonrollers"):
    return (game, [(seed, [BOT, BOT]) for seed in seeds], {}, {})


def pool(size):
    context = multiprocessing.get_context("fork")
    initargs = ("process", context.Value("i", 0), context.Barrier(size))
    return context.Pool(size, initializer=referee_pool.pool_init, initargs=initargs)
"""

SETS_END = """
with pool(2) as workers:
    played = workers.map(referee_pool.pool_play_set, [job([1, 2]), job([3, 4]), job([5])])
    pids = [process.pid for process in workers._pool]
    finished = workers.map(referee_pool.pool_finish, range(2), chunksize=1)
    left = [children(pid) for pid in pids]
print(json.dumps({"decisions": [d for d, _ in played], "pids": pids, "finished": finished,
                  "left": left}))
"""

FAILING_SET = """
with pool(1) as workers:
    pid = workers._pool[0].pid
    try:
        workers.apply(referee_pool.pool_play_set, (job([1], game="no-such-game"),))
        error = ""
    except Exception as exc:
        error = str(exc)
    print(json.dumps({"error": error, "left": children(pid)}))
"""


def run(code: str) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arena.test_settings",
        "ARENA_PIN_MATCH_CPU": "false",  # the test's cores are shared with other tests
    }
    done = subprocess.run(
        [sys.executable, "-c", PREAMBLE + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_pools_sets_end_and_the_last_is_waited_for():
    report = run(SETS_END)
    assert len(report["decisions"]) == 3 and all(d > 0 for d in report["decisions"])
    # The barrier makes each process take exactly one finishing call...
    assert sorted(report["finished"]) == sorted(report["pids"])
    # ...and after it no process has a bot left, dead or alive.
    assert report["left"] == [[], []]


def test_a_set_that_fails_still_ends_its_bots():
    report = run(FAILING_SET)
    assert "no-such-game" in report["error"]  # the referee raised after the bots started
    assert report["left"] == []
