"""How long a pool process takes to make its sandbox ready, against the number of sandbox
uids and of uids that a killed pool process left behind.

    python -m workers.bench.pool_start [--uids 16 128 512] [--dirty 0 4 12] [--runs 5] [--json]

Each run starts a fresh interpreter that does what a Celery pool process does when it starts
(`_prepare_launcher` in workers/celery.py): build the bubblewrap launcher, check it (one
probe sandbox) and warm two zygote lanes. It reports that time; Celery kills a pool process
that takes more than 4 s (`worker_proc_alive_timeout`).

Before each run, `--dirty` uids at the front of the launcher's leasing order are left as a
SIGKILLed pool process leaves them: the lock file says "dirty", and the uid has zombie
processes whose parent (this benchmark, standing for the worker's main process) has not yet
reaped them. The worker's main process reaps such zombies every 5 s (workers/node/heartbeat.py);
a pool process started before that must not wait for them.

Needs root (sandbox uids and lanes are root-only), as the workers have.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time

from workers.sandbox.process import _lock_dir

DEFAULT_UID_BASE = 65000  # away from the workers' (61000) and the tests' (63000-64999)

CHILD = """
import json, sys, time
from workers.sandbox.bubblewrap import BubblewrapLauncher
base, count = int(sys.argv[1]), int(sys.argv[2])
started = time.perf_counter()
launcher = BubblewrapLauncher(slot=0, uid_base=base, uid_count=count)
launcher.check()
launcher.warm_lanes(2)
ready = time.perf_counter() - started
lanes = launcher.lanes if launcher.lanes_note == "on" else None
leased = sorted(lane.uid for lane in lanes._idle) if lanes is not None else []
if lanes is not None:
    lanes.close()
print(json.dumps({"seconds": ready, "lanes": launcher.lanes_note, "leased": leased}))
"""


def leave_dirty(uids: list[int]) -> list[int]:
    """Mark each uid's lease dirty and give it a zombie; the zombies' pids."""
    folder = _lock_dir()
    zombies = []
    for uid in uids:
        with open(f"{folder}/uid-{uid}.lock", "wb") as handle:
            handle.write(b"dirty")
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child only changes uid and exits
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os._exit(0)
        zombies.append(pid)
    time.sleep(0.05)  # let them exit: zombies now, as nobody waits for them yet
    return zombies


def reap(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def one_run(base: int, count: int, dirty: int) -> dict[str, object]:
    zombies = leave_dirty(list(range(base, base + min(dirty, count))))
    try:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(base), str(count)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        reap(zombies)
    if out.returncode != 0:
        raise SystemExit(f"a run with {count} uids, {dirty} dirty, failed:\n{out.stderr[-2000:]}")
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uids", type=int, nargs="+", default=[16, 128, 512])
    parser.add_argument("--dirty", type=int, nargs="+", default=[0, 4, 12])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--uid-base", type=int, default=DEFAULT_UID_BASE)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("bench_pool_start needs root, as the sandbox's uids and lanes do", file=sys.stderr)
        return 2
    rows = []
    for count in args.uids:
        for dirty in args.dirty:
            if dirty + 3 > count:  # the probe and two lanes need three clean uids
                continue
            runs = [one_run(args.uid_base, count, dirty) for _ in range(args.runs)]
            seconds = [float(run["seconds"]) for run in runs]  # type: ignore[arg-type]
            rows.append(
                {
                    "uids": count,
                    "dirty": dirty,
                    "median_seconds": statistics.median(seconds),
                    "max_seconds": max(seconds),
                    "lanes": runs[0]["lanes"],
                    "leased": runs[-1]["leased"],
                }
            )
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"rows": rows, "load_average": load}, indent=2))
        return 0
    print(f"pool process start-up (check + 2 lanes), median of {args.runs} runs")
    print(f"{'uids':>6} {'dirty':>6} {'median s':>9} {'max s':>7}  leased")
    for row in rows:
        print(
            f"{row['uids']:>6} {row['dirty']:>6} {row['median_seconds']:>9.3f} "
            f"{row['max_seconds']:>7.3f}  {row['leased']}"
        )
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
