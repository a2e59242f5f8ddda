"""Cgroups: the real v1 tree of this host, and the v2 layout against a stand-in tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.workers.sandbox.conftest import FAST, RANDOM_BOT
from workers.sandbox.cgroups import CgroupManager
from workers.sandbox.limits import Limits


def test_memory_cgroup_bounds_a_forked_tree(launcher):
    """Each child stays under the per-process address-space limit; only the cgroup stops the sum."""
    if launcher._cgroups is None or "memory" not in launcher._cgroups.describe():
        pytest.fail(f"no memory cgroup on this host: {launcher.describe()['cgroups']}")
    code = (
        "import os, time\n"
        "kids = []\n"
        "for _ in range(3):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        block = bytearray(120 << 20)\n"
        "        block[::4096] = b'x' * len(range(0, len(block), 4096))\n"
        "        time.sleep(1.5)  # hold it while the others allocate\n"
        "        os._exit(0)\n"
        "    kids.append(pid)\n"
        "print(sorted(os.waitstatus_to_exitcode(os.waitpid(k, 0)[1]) for k in kids))\n"
    )
    process = launcher._start(RANDOM_BOT, FAST, command=["-c", code])
    out, err = process.communicate(timeout=30)
    statuses = out.decode().strip()
    assert "-9" in statuses, (statuses, err.decode()[-300:])


def test_oom_killed_runner_is_reported_as_out_of_memory(launcher):
    limits = Limits(**{**FAST.to_dict(), "memory_mb": 200, "tmp_mb": 4})
    code = (
        "import os\n"
        "block = bytearray(150 << 20)\n"
        "block[::4096] = b'x' * len(range(0, len(block), 4096))\n"
        "if os.fork() == 0:\n"
        "    import time; time.sleep(30)\n"
        "block[::4096] = b'y' * len(range(0, len(block), 4096))\n"  # the child keeps the old copy
        "extra = bytearray(40 << 20)\n"
        "extra[::4096] = b'x' * len(range(0, len(extra), 4096))\n"
        "import time; time.sleep(30)\n"
    )
    process = launcher._start(RANDOM_BOT, limits, command=["-c", code])
    process.communicate(timeout=30)
    assert process.returncode == -9
    assert process.death_cause == "out of memory: the sandbox passed its 200 MB limit"


def _fake_v2(tmp_path: Path) -> Path:
    root = tmp_path / "cgroup"
    delegated = root / "worker.slice"
    delegated.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (delegated / "cgroup.controllers").write_text("cpu memory pids\n")
    (delegated / "cgroup.subtree_control").write_text("")
    return root


def test_v2_groups_get_pids_memory_and_cpu_limits(tmp_path, monkeypatch):
    root = _fake_v2(tmp_path)
    monkeypatch.setenv("ARENA_SANDBOX_CGROUP", str(root / "worker.slice"))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    # A kernel fills a new group with its control files; the stand-in does it here.
    original_mkdir = os.mkdir

    def mkdir_with_files(path, *args, **kwargs):
        original_mkdir(path, *args, **kwargs)
        for name in (
            "cgroup.subtree_control",
            "cgroup.procs",
            "pids.max",
            "memory.max",
            "memory.swap.max",
            "cpu.max",
        ):
            Path(path, name).write_text("")

    monkeypatch.setattr(os, "mkdir", mkdir_with_files)
    manager = CgroupManager(root=str(root))
    assert manager.describe() == "cgroup v2: pids, memory, cpu"
    base = root / "worker.slice" / "arena-sandbox"
    assert (root / "worker.slice" / "cgroup.subtree_control").read_text() == "+pids +memory +cpu"
    assert (base / "cgroup.subtree_control").read_text() == "+pids +memory +cpu"

    group = manager.create("uid-7", max_processes=10, memory_bytes=300 << 20, cpus=1.0)
    assert group is not None
    directory = base / "uid-7"
    assert (directory / "pids.max").read_text() == "10"
    assert (directory / "memory.max").read_text() == str(300 << 20)
    assert (directory / "memory.swap.max").read_text() == "0"
    assert (directory / "cpu.max").read_text() == "100000 100000"
    assert group.procs_files == [f"{directory}/cgroup.procs"]
    (directory / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\n")
    (directory / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert group.cpu_seconds() == 1.5
    assert group.oom_killed()


def test_undelegated_v2_tree_falls_back_to_rlimits_with_a_reason(tmp_path, monkeypatch):
    root = _fake_v2(tmp_path)
    monkeypatch.setenv("ARENA_SANDBOX_CGROUP", str(root / "missing"))
    manager = CgroupManager(root=str(root))
    assert not manager.available
    assert manager.describe().startswith("none, rlimits only (")
