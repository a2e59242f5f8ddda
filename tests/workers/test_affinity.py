"""Pinning a referee (and so its bots) to one CPU, as batch work."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from workers.node.affinity import current_cpu, schedule_as_batch

CODE = """
import os
from workers.node.affinity import pin_to_one_cpu
cpu = pin_to_one_cpu({slot})
child = os.popen("cat /proc/self/status").read()
allowed = [l for l in child.splitlines() if l.startswith("Cpus_allowed_list")][0].split()[1]
print(cpu, ",".join(map(str, sorted(os.sched_getaffinity(0)))), allowed)
"""


def run_pinned(slot: int | None) -> list[str]:
    """Pinned alone: with claims of its own, so the host's workers holding CPUs (a test
    suite's, a benchmark's) do not move it."""
    with tempfile.TemporaryDirectory() as claims:
        done = subprocess.run(
            [sys.executable, "-c", CODE.format(slot=slot)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "ARENA_CPU_CLAIMS_DIR": claims},
        )
    return done.stdout.split()


def test_pool_slots_spread_over_cpus_and_children_inherit_the_cpu():
    allowed = sorted(os.sched_getaffinity(0))
    for slot in range(len(allowed) + 1):
        cpu, own, child = run_pinned(slot)
        if len(allowed) < 2:
            assert cpu == "None"  # nothing to gain on one CPU: left alone
            continue
        expected = str(allowed[slot % len(allowed)])
        assert (cpu, own, child) == (expected, expected, expected)


HOLDING_CODE = """
import sys
from workers.node.affinity import pin_to_one_cpu
print(pin_to_one_cpu(0), flush=True)
sys.stdin.read()  # holds its claim until told to go
"""


def test_worker_processes_of_one_host_claim_different_cpus_while_they_live(tmp_path):
    """Two `celery worker -c 1` on one host both have pool slot 0: the second takes the
    CPU the first has not claimed, and a CPU is free again once its holder is gone."""
    # Every CPU of the host: an earlier test may have pinned this process to one, and a
    # worker process starts with the whole host.
    allowed = list(range(os.cpu_count() or 1))
    assert len(allowed) >= 2, "this host needs two CPUs for the suite's affinity checks"
    env = {**os.environ, "ARENA_CPU_CLAIMS_DIR": str(tmp_path)}

    def start() -> tuple[subprocess.Popen[str], int]:
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDING_CODE],
            preexec_fn=lambda: os.sched_setaffinity(0, allowed),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert holder.stdout is not None
        return holder, int(holder.stdout.readline())

    first, first_cpu = start()
    second, second_cpu = start()
    try:
        assert first_cpu == allowed[0]
        assert second_cpu == allowed[1]
    finally:
        first.communicate("")
    third, third_cpu = start()
    third.communicate("")
    second.communicate("")
    assert third_cpu == allowed[0]


def test_without_a_slot_the_process_stays_on_a_cpu_it_may_use():
    cpu, own, _ = run_pinned(None)
    allowed = os.sched_getaffinity(0)
    if len(allowed) >= 2:
        assert int(cpu) in allowed and own == cpu


def test_current_cpu_is_one_this_process_may_use():
    assert current_cpu() in os.sched_getaffinity(0)


BATCH_CODE = """
import os, subprocess
from workers.node.affinity import pin_to_one_cpu
pin_to_one_cpu()
child = subprocess.run(["cat", "/proc/self/sched"], capture_output=True, text=True).stdout
policy = [l for l in child.splitlines() if l.startswith("policy")][0].split(":")[1].strip()
print(os.sched_getscheduler(0), policy)
"""


def test_a_pinned_referee_and_what_it_starts_run_as_batch_work():
    done = subprocess.run(
        [sys.executable, "-c", BATCH_CODE], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [str(os.SCHED_BATCH)] * 2


def test_batch_scheduling_is_refused_quietly_where_the_policy_cannot_be_set(monkeypatch):
    def refuse(*_: object) -> None:
        raise PermissionError("not allowed here")

    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    assert schedule_as_batch() is False


FREEZE_CODE = """
import gc, weakref
from workers.node.affinity import freeze_startup_heap


class Node:
    pass


frozen = freeze_startup_heap()
# Cyclic garbage made afterwards is still collected.
a, b = Node(), Node()
a.other, b.other = b, a
gone = weakref.ref(a)
del a, b
gc.collect()
print(frozen, gc.get_freeze_count() == frozen, gone() is None)
"""


def test_a_pool_processs_start_up_heap_is_frozen_and_later_garbage_still_collected():
    done = subprocess.run(
        [sys.executable, "-c", FREEZE_CODE], capture_output=True, text=True, check=True
    )
    frozen, same, collected = done.stdout.split()
    assert int(frozen) > 1000  # the interpreter's and the project's modules, at least
    assert (same, collected) == ("True", "True")
