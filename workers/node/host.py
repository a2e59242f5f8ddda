"""What this worker host can do, checked once when the worker starts and logged.

A new worker host is often set up by hand; the first line a worker writes after
"ready" says whether it can run bots at all (bubblewrap present, a probe sandbox
starts), how many CPUs it may use and so how many matches it plays at once. The
capacity is min(pool processes, usable CPUs): a match and its bots busy one core,
so more processes than cores only slow every match down. A host that cannot run
bots reports capacity 0 and says why; its matches fail over as infrastructure
faults (retried elsewhere), so the log line is the thing to read.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
from dataclasses import asdict, dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HostCapacity:
    hostname: str
    cpus: int  # CPUs this process may run on (affinity, cgroup cpusets)
    processes: int  # the worker's pool size (-c)
    isolation: str  # settings.ARENA_BOT_ISOLATION
    bubblewrap: str | None  # path of bwrap, None when missing
    sandbox_ok: bool
    problem: str

    @property
    def capacity(self) -> int:
        """Matches this host plays at once at full speed (0: it cannot run bots)."""
        if not self.sandbox_ok:
            return 0
        return max(0, min(self.processes, self.cpus))

    def describe(self) -> str:
        facts = asdict(self)
        facts["capacity"] = self.capacity
        return " ".join(f"{key}={value}" for key, value in facts.items() if value != "")


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_host(processes: int) -> HostCapacity:
    """Check the launcher this host is configured for, and count what it may use."""
    from django.conf import settings

    from workers.sandbox.isolation import get_launcher

    isolation = settings.ARENA_BOT_ISOLATION
    problem = ""
    try:
        get_launcher(isolation).check()
    except Exception as exc:  # the check's own message says what is missing
        problem = f"the {isolation} launcher cannot run bots: {exc}"
    return HostCapacity(
        hostname=socket.gethostname(),
        cpus=usable_cpus(),
        processes=processes,
        isolation=isolation,
        bubblewrap=shutil.which("bwrap"),
        sandbox_ok=not problem,
        problem=problem,
    )


def log_capacity(processes: int) -> HostCapacity:
    found = check_host(processes)
    if found.sandbox_ok:
        log.info("worker host capacity: %s", found.describe())
    else:
        log.error("worker host cannot run bots: %s", found.describe())
    if found.processes > found.cpus:
        log.warning(
            "%d pool processes on %d usable CPUs: matches will share cores and run slower",
            found.processes,
            found.cpus,
        )
    return found
