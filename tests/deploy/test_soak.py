"""A short soak (scripts/soak.py): `make run`'s stack, the sandbox on, one fault of each kind.

Every check of the two-hour `make soak` must hold over a few minutes too: no zombie or
orphan once a fault has settled, throughput kept, RSS flat, every match rated exactly once,
no match waiting past its lease plus 60 s outside outages, health 503 during each outage
and 200 after it. The worker's main process killed with SIGKILL leaves no beat behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.long
def test_a_short_soak_with_one_fault_of_each_kind_passes_every_check(tmp_path):
    out = tmp_path / "soak"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "soak.py"), "--minutes", "6", "--warmup", "1",
         "--fault-every", "0.2", "--sample", "10", "--upload-every", "1",
         "--tournament-every", "1.5", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    summary = json.loads((out / "summary.json").read_text())
    kinds = {fault["kind"] for fault in summary["faults"]}
    assert kinds == {"pool_kill", "worker_kill", "redis_restart", "postgres_restart", "worker_stop"}
    assert not [f for f in summary["faults"] if f["detail"].startswith("not applied")]
    failed = [check for check in summary["checks"] if not check["passed"]]
    assert not failed, (failed, done.stdout[-3000:])
    assert done.returncode == 0
    assert (out / "soak.png").stat().st_size > 10_000
    # Nothing of the stack outlives it: no beat, worker or server from its folder.
    left = [
        p.pid
        for p in psutil.process_iter(["cmdline"])
        if str(out) in " ".join(p.info["cmdline"] or [])
    ]
    assert left == []
