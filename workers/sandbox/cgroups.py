"""Control groups for sandboxed bots: a pids, memory and CPU cage per bot process tree.

Rlimits are per process (memory, CPU time) or per uid (processes); a control
group bounds the whole tree a bot starts. This module finds a writable place in
the host's cgroup tree (v1 with one hierarchy per controller, as on the
development VMs, or the unified v2 tree of production hosts), creates one group
per sandbox, and reads back CPU time and out-of-memory kills.

Where nothing is writable (an unprivileged worker, an undelegated v2 tree) the
manager says why and the sandbox relies on rlimits alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass, field

CGROUP_ROOT = "/sys/fs/cgroup"
# A delegated v2 directory the worker may manage (systemd `Delegate=yes`), used
# instead of a sub-group of the worker's own cgroup when set.
CGROUP_ENV = "ARENA_SANDBOX_CGROUP"
GROUP_PARENT = "arena-sandbox"
V1_CONTROLLERS = ("pids", "memory", "cpu", "cpuacct")
V2_CONTROLLERS = ("pids", "memory", "cpu")
CPU_PERIOD_US = 100_000


def _write(path: str, value: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _read(path: str) -> str:
    with open(path) as handle:
        return handle.read()


def _own_v1_paths() -> dict[str, str]:
    """controller -> this process's cgroup path in that v1 hierarchy."""
    paths: dict[str, str] = {}
    for line in _read("/proc/self/cgroup").splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(","):
            if name:
                paths[name] = path
    return paths


def _v1_mounts() -> dict[str, str]:
    """controller -> mount point of its v1 hierarchy, from /proc/self/mountinfo."""
    mounts: dict[str, str] = {}
    for line in _read("/proc/self/mountinfo").splitlines():
        before, _, after = line.partition(" - ")
        fs_type, _, super_options = (after.split(" ") + ["", "", ""])[:3]
        if fs_type != "cgroup":
            continue
        mount_point = before.split(" ")[4]
        for option in super_options.split(","):
            if option in V1_CONTROLLERS:
                mounts.setdefault(option, mount_point)
    return mounts


@dataclass
class BotCgroup:
    """The groups one sandbox lives in; `procs_files` are joined before exec."""

    version: int
    dirs: dict[str, str]  # controller (or "unified") -> directory
    procs_files: list[str] = field(default_factory=list)

    def cpu_usage_file(self) -> str | None:
        if self.version == 1 and "cpuacct" in self.dirs:
            return f"{self.dirs['cpuacct']}/cpuacct.usage"
        if self.version == 2:
            return f"{self.dirs['unified']}/cpu.stat"
        return None

    def parse_cpu_usage(self, data: bytes) -> float:
        if self.version == 1:
            return int(data) / 1e9
        for line in data.decode().splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
        raise ValueError("no usage_usec in cpu.stat")

    def cpu_seconds(self) -> float | None:
        path = self.cpu_usage_file()
        if path is None:
            return None
        try:
            with open(path, "rb") as handle:
                return self.parse_cpu_usage(handle.read())
        except (OSError, ValueError):
            return None

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of this group for lack of memory."""
        return self.oom_kills() > 0

    def oom_kills(self) -> int:
        """How many processes of this group the kernel killed for lack of memory."""
        try:
            if self.version == 1 and "memory" in self.dirs:
                return _field(_read(f"{self.dirs['memory']}/memory.oom_control"), "oom_kill")
            if self.version == 2:
                return _field(_read(f"{self.dirs['unified']}/memory.events"), "oom_kill")
        except (OSError, ValueError):
            return 0
        return 0

    def set_limits(self, max_processes: int, memory_bytes: int) -> None:
        """New process and memory bounds for a group that lives on (a zygote lane's)."""
        if self.version == 1:
            if "pids" in self.dirs:
                _write(f"{self.dirs['pids']}/pids.max", str(max_processes))
            if "memory" in self.dirs:
                directory = self.dirs["memory"]
                # memsw may not go below the plain limit: raise in the order that allows it.
                files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
                try:
                    current = int(_read(f"{directory}/memory.limit_in_bytes"))
                except (OSError, ValueError):
                    current = 0
                for name in files if memory_bytes <= current else files[::-1]:
                    with contextlib.suppress(FileNotFoundError):
                        _write(f"{directory}/{name}", str(memory_bytes))
        elif self.version == 2:
            directory = self.dirs["unified"]
            _write(f"{directory}/pids.max", str(max_processes))
            with contextlib.suppress(FileNotFoundError):
                _write(f"{directory}/memory.max", str(memory_bytes))

    def pids(self) -> list[int]:
        found: set[int] = set()
        for directory in self.dirs.values():
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in _read(f"{directory}/cgroup.procs").split())
        return sorted(found)

    def kill_all(self) -> None:
        if self.version == 2:
            with contextlib.suppress(OSError):
                _write(f"{self.dirs['unified']}/cgroup.kill", "1")
        for pid in self.pids():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def remove(self, timeout: float = 1.0) -> bool:
        """Delete the groups once empty; True when all are gone."""
        deadline = time.monotonic() + timeout
        left = dict(self.dirs)
        pause = 0.0002  # killed processes leave within a millisecond or so: poll finely
        while left:
            for name, directory in list(left.items()):
                try:
                    os.rmdir(directory)
                    del left[name]
                except FileNotFoundError:
                    del left[name]
                except OSError:
                    pass
            if not left or time.monotonic() > deadline:
                break
            self.kill_all()
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        return not left


def _field(text: str, key: str) -> int:
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return int(value)
    return 0


class CgroupManager:
    """Finds where sandbox groups can be made; `create` makes one per bot."""

    def __init__(self, root: str = CGROUP_ROOT) -> None:
        self.root = root
        self.version = 0
        self.bases: dict[str, str] = {}
        self.v2_controllers: tuple[str, ...] = ()
        self.reason = ""
        if os.geteuid() != 0:
            self.reason = "the worker is not root"
            return
        try:
            if os.path.exists(f"{root}/cgroup.controllers"):
                self._setup_v2()
            else:
                self._setup_v1()
        except OSError as exc:
            self.bases = {}
            self.reason = f"{exc.filename or root}: {exc.strerror or exc}"
        if not self.bases and not self.reason:
            self.reason = "no writable pids/memory/cpu controller"
        if self.bases:
            self.reason = ""

    @property
    def available(self) -> bool:
        return bool(self.bases)

    def describe(self) -> str:
        if not self.bases:
            return f"none, rlimits only ({self.reason})"
        names = sorted(self.bases) if self.version == 1 else list(self.v2_controllers)
        return f"cgroup v{self.version}: {', '.join(names)}"

    # ----- discovery -----------------------------------------------------------

    def _setup_v1(self) -> None:
        mounts = _v1_mounts()
        own = _own_v1_paths()
        for controller in V1_CONTROLLERS:
            if controller not in mounts:
                continue
            base = os.path.join(
                mounts[controller], own.get(controller, "/").lstrip("/"), GROUP_PARENT
            )
            try:
                os.makedirs(base, exist_ok=True)
                if not os.access(f"{base}/cgroup.procs", os.W_OK):
                    continue
            except OSError:
                continue
            self.bases[controller] = base
        if self.bases:
            self.version = 1

    def _setup_v2(self) -> None:
        delegated = os.environ.get(CGROUP_ENV)
        if delegated:
            parent = delegated
        else:
            own = "/"
            for line in _read("/proc/self/cgroup").splitlines():
                if line.startswith("0::"):
                    own = line[3:]
            parent = os.path.join(self.root, own.lstrip("/"))
        available = set(_read(f"{parent}/cgroup.controllers").split())
        wanted = [c for c in V2_CONTROLLERS if c in available]
        if "pids" not in wanted:
            self.reason = f"{parent}: the pids controller is not available"
            return
        # Enabling controllers for children fails (EBUSY) in a group that holds
        # processes, unless it is the root: the tree must be delegated to us.
        try:
            _write(f"{parent}/cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
        except OSError as exc:
            self.reason = (
                f"cannot enable {', '.join(wanted)} under {parent} ({exc.strerror}); "
                f"delegate a cgroup to the worker and set {CGROUP_ENV}"
            )
            return
        base = os.path.join(parent, GROUP_PARENT)
        os.makedirs(base, exist_ok=True)
        _write(f"{base}/cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
        self.bases["unified"] = base
        self.v2_controllers = tuple(wanted)
        self.version = 2

    # ----- one group per bot -----------------------------------------------------

    def create(
        self, name: str, max_processes: int, memory_bytes: int, cpus: float = 1.0
    ) -> BotCgroup | None:
        """A fresh group for one sandbox, or None (rlimits only) if it cannot be made."""
        if not self.bases:
            return None
        group = BotCgroup(self.version, {})
        try:
            for controller, base in self.bases.items():
                directory = os.path.join(base, name)
                if directory not in group.dirs.values():
                    if os.path.isdir(directory):
                        # Left over by a crashed worker: empty it and start again.
                        BotCgroup(self.version, {controller: directory}).remove(timeout=0.5)
                    os.mkdir(directory)
                    group.procs_files.append(f"{directory}/cgroup.procs")
                group.dirs[controller] = directory
                self._configure(controller, directory, max_processes, memory_bytes, cpus)
        except OSError:
            group.remove(timeout=0.2)
            return None
        return group

    def _configure(
        self, controller: str, directory: str, max_processes: int, memory_bytes: int, cpus: float
    ) -> None:
        quota = str(int(CPU_PERIOD_US * cpus))
        if controller == "pids":
            _write(f"{directory}/pids.max", str(max_processes))
        elif controller == "memory":
            _write(f"{directory}/memory.limit_in_bytes", str(memory_bytes))
            with contextlib.suppress(OSError):  # absent without swap accounting
                _write(f"{directory}/memory.memsw.limit_in_bytes", str(memory_bytes))
        elif controller == "cpu":
            _write(f"{directory}/cpu.cfs_period_us", str(CPU_PERIOD_US))
            _write(f"{directory}/cpu.cfs_quota_us", quota)
        elif controller == "unified":
            _write(f"{directory}/pids.max", str(max_processes))
            if "memory" in self.v2_controllers:
                _write(f"{directory}/memory.max", str(memory_bytes))
                with contextlib.suppress(OSError):
                    _write(f"{directory}/memory.swap.max", "0")
            if "cpu" in self.v2_controllers:
                _write(f"{directory}/cpu.max", f"{quota} {CPU_PERIOD_US}")
