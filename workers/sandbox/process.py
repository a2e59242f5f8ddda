"""The running sandbox: uid leases, the sandboxed process, and reaping what it leaves.

Each live sandbox runs as its own unprivileged uid, leased with an flock so workers never
share one; `SandboxedProcess` (a Popen) reaps its children of that uid when it ends, kills
anything left in its cgroup, removes the cgroup and frees the uid, once. The worker is a
child subreaper, so what bwrap leaves behind comes here to be reaped rather than piling
up as zombies counted against the next bot's process limit.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import stat
import subprocess
import tempfile
import threading
import time
from typing import Any

from workers.sandbox.cgroups import BotCgroup
from workers.sandbox.limits import Limits

PR_SET_CHILD_SUBREAPER = 36
# Where the launch tools are looked up (the worker's own PATH may be a venv's).
TOOL_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
SHELL = "/bin/sh"
# Writes the shell's own pid (the future bwrap) into each cgroup.procs file named
# before "--", then execs the rest of its arguments.
JOIN_CGROUPS = (
    'pid=$$; while [ "$1" != "--" ]; do '
    'echo "$pid" > "$1" || { echo "arena-sandbox: cannot join cgroup $1" >&2; exit 125; }; '
    'shift; done; shift; exec "$@"'
)
# bwrap reports a command killed by signal N as exit status 128 + N.
BWRAP_SIGNAL_BASE = 128


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot work on this host; the message says what to do."""


# ----- small OS helpers -------------------------------------------------------------


def _world_readable(path: str, executable: bool = False) -> bool:
    """Whether a uid with no special rights can reach and read `path`."""
    try:
        target = os.path.realpath(path)
        mode = os.stat(target).st_mode
        need = stat.S_IROTH | (stat.S_IXOTH if executable or stat.S_ISDIR(mode) else 0)
        if mode & need != need:
            return False
        parent = os.path.dirname(target)
        while parent and parent != "/":
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return False
            parent = os.path.dirname(parent)
    except OSError:
        return False
    return True


def _proc_uid(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _proc_status(pid: str) -> tuple[int, bytes, int] | None:
    """A process's real uid, state letter (b"Z" for a zombie) and parent, from /proc."""
    state, parent = b"?", 0
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"State:"):
                    state = line.split()[1]
                elif line.startswith(b"PPid:"):
                    parent = int(line.split()[1])
                elif line.startswith(b"Uid:"):
                    return int(line.split()[1]), state, parent
    except (OSError, ValueError, IndexError):
        return None
    return None


def _uid_table(uid: int) -> dict[int, tuple[bytes, int]]:
    """pid -> (state, parent) of every process whose real uid is `uid`."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (seen := _proc_status(entry)) is not None and seen[0] == uid:
            table[int(entry)] = seen[1], seen[2]
    return table


def processes_of_uid(uid: int) -> list[int]:
    """Every process (zombies included) whose real uid is `uid`, from a /proc scan."""
    return list(_uid_table(uid))


def _children_of_self() -> list[int]:
    children: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with (
                contextlib.suppress(OSError, ValueError),
                open(f"/proc/self/task/{task}/children") as handle,
            ):
                children.extend(int(p) for p in handle.read().split())
    except OSError:
        pass
    return children


def _become_subreaper() -> bool:
    """Orphans of sandboxes come to this process (not a slow pid 1) to be reaped."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# Popen pids of live sandboxes: their statuses belong to their Popen objects.
_LIVE_PIDS: set[int] = set()
_LIVE_LOCK = threading.Lock()


# ----- uid leases -------------------------------------------------------------------


class UidLease:
    """One sandbox uid held by this process: an flock, so other workers skip it.

    The lock file says "clean" when the last holder saw the uid's processes
    all gone; otherwise (a crashed worker) the next holder searches /proc.
    """

    def __init__(self, uid: int, fd: int | None) -> None:
        self.uid = uid
        self._fd = fd

    def was_clean(self) -> bool:
        if self._fd is None:
            return True
        try:
            return os.pread(self._fd, 16, 0) == b"clean"
        except OSError:
            return False

    def mark(self, clean: bool) -> None:
        # Same-size overwrites: changing the file's size (a truncate) is a journalled
        # metadata change that waited behind the database's disk flushes (~0.2 ms a call
        # in the pipeline), twice per bot per match.
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.pwrite(self._fd, b"clean" if clean else b"dirty", 0)

    def release(self, clean: bool = False) -> None:
        if self._fd is not None:
            self.mark(clean)
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _lock_dir() -> str:
    for candidate in ("/run/arena-sandbox", os.path.join(tempfile.gettempdir(), "arena-sandbox")):
        with contextlib.suppress(OSError):
            os.makedirs(candidate, mode=0o700, exist_ok=True)
            if os.access(candidate, os.W_OK):
                return candidate
    raise SandboxUnavailable("no writable directory for sandbox uid locks")


# ----- the running sandbox ----------------------------------------------------------


class SandboxReadings:
    """What the referee may read of a running sandbox, from its cgroup and /proc, and why
    the kernel killed it: shared by a bwrap'd bot and a lane's forked one."""

    def __init__(self, cgroup: BotCgroup | None, limits: Limits) -> None:
        self.cgroup = cgroup
        self.limits = limits
        self.death_cause: str | None = None
        self._finished = False
        self._bot_pid: int | None = None
        # The processes from `pid` down to the runner, once found.
        self.pid_chain: list[int] = []
        self._readers: dict[str, int] = {}

    pid: int

    def _bot_pid_depth(self) -> int:
        """How many generations below `pid` the runner is."""
        return 2  # bwrap -> its pid-1 reaper -> the runner

    def cpu_seconds(self) -> float | None:
        """CPU time used by everything in this sandbox so far (its cgroup's accounting)."""
        if self.cgroup is None:
            return None
        fd = self._reader("cpu", self.cgroup.cpu_usage_file())
        if fd is None:
            return None
        try:
            return self.cgroup.parse_cpu_usage(os.pread(fd, 4096, 0))
        except (OSError, ValueError):
            return None

    def starved_seconds(self) -> float:
        """Time the runner waited, runnable, for a CPU: a loaded host, not the bot's own time.

        The runner's main thread only (bots are single-threaded Python); 0 before it starts.
        """
        pid = self._find_bot_pid()
        if pid is None:
            return 0.0
        fd = self._reader("sched", f"/proc/{pid}/schedstat")
        if fd is None:
            return 0.0
        try:
            return int(os.pread(fd, 128, 0).split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return 0.0

    def _reader(self, key: str, path: str | None) -> int | None:
        """A file kept open for cheap re-reads with pread, once per move."""
        fd = self._readers.get(key)
        if fd is None and path is not None and not self._finished:
            with contextlib.suppress(OSError):
                fd = self._readers[key] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        return fd

    def _close_readers(self) -> None:
        for fd in self._readers.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._readers.clear()

    def _find_bot_pid(self) -> int | None:
        """The host pid of the runner, found once below `pid`."""
        if self._bot_pid is not None:
            return self._bot_pid
        pid = self.pid
        chain = []
        for _ in range(self._bot_pid_depth()):
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as handle:
                    children = handle.read().split()
            except OSError:
                return None
            if not children:
                return None
            pid = int(children[0])
            chain.append(pid)
        self._bot_pid = pid
        self.pid_chain = chain
        return pid

    def _oom_killed(self) -> bool:
        return self.cgroup is not None and self.cgroup.oom_killed()

    def _cause_of_death(self, code: int) -> str | None:
        out_of_memory = f"out of memory: the sandbox passed its {self.limits.memory_mb} MB limit"
        if code == -signal.SIGKILL and self._oom_killed():
            return out_of_memory
        if code == -signal.SIGXCPU:
            return f"CPU time limit ({self.limits.cpu_seconds}s)"
        if code == -signal.SIGXFSZ:
            return f"file size limit ({self.limits.file_size_mb} MB)"
        # A process that failed after the kernel killed one of its children for memory:
        # a compiler's driver reports its killed cc1plus as a plain failure.
        if code != 0 and self._oom_killed():
            return out_of_memory
        return None


class SandboxedProcess(SandboxReadings, subprocess.Popen[bytes]):
    """A bwrap process running one bot; cleans up its uid and cgroup when it ends."""

    def __init__(
        self,
        args: list[str],
        *,
        lease: UidLease,
        cgroup: BotCgroup | None,
        limits: Limits,
        **kwargs: Any,
    ) -> None:
        SandboxReadings.__init__(self, cgroup, limits)
        self.lease = lease
        self.uid = lease.uid
        # Set by the launcher when the runner is to send its compiled code first.
        self.code_key: str | None = None
        subprocess.Popen.__init__(self, args, **kwargs)
        with _LIVE_LOCK:
            _LIVE_PIDS.add(self.pid)

    # Popen calls these; finishing is idempotent.
    def poll(self) -> int | None:
        code = super().poll()
        if code is not None:
            self._finish()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        super().wait(timeout)
        self._finish()
        return self.returncode

    # ----- the end ---------------------------------------------------------------

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        code = self.returncode
        if code is not None and BWRAP_SIGNAL_BASE < code < BWRAP_SIGNAL_BASE + 65:
            self.returncode = -(code - BWRAP_SIGNAL_BASE)
        self.death_cause = self._cause_of_death(self.returncode or 0)
        self._close_readers()
        with _LIVE_LOCK:
            _LIVE_PIDS.discard(self.pid)
        self.cleanup()

    def cleanup(self, timeout: float = 2.0) -> None:
        """Kill whatever of this sandbox still runs, reap it, free the uid and cgroup."""
        deadline = time.monotonic() + timeout
        own_uid = self.uid == os.getuid()  # not root: the bot shares our uid, never kill by uid
        # bwrap leaves its pid-1 reaper behind as our child (we are a subreaper):
        # it counts against the uid's process limit until it is reaped.
        clean = own_uid or _reap_uid_children(self.uid, deadline)
        if self.cgroup is not None:
            self.cgroup.kill_all()
            clean = self.cgroup.remove(timeout=max(0.05, deadline - time.monotonic())) and clean
        elif not own_uid:
            clean = _kill_uid(self.uid, deadline) and clean
        self.lease.release(clean=clean)


def _reap_uid_children(uid: int, deadline: float) -> bool:
    """Kill and wait for our children that run as `uid`; True if none is left."""
    while True:
        pending = []
        for pid in _children_of_self():
            with _LIVE_LOCK:
                if pid in _LIVE_PIDS:
                    continue
            if _proc_uid(str(pid)) != uid:
                continue
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                continue
            if not done:
                pending.append(pid)
        if not pending:
            return True
        if time.monotonic() > deadline:
            return False
        # A killed process is usually gone within a fraction of a millisecond.
        time.sleep(0.0002)


def _kill_uid(uid: int, deadline: float) -> bool:
    """Without a cgroup: find the uid's processes in /proc, kill and reap them.

    True when none is left. Zombies whose parent is alive and neither this process nor
    one of the uid's own (a killed pool process's sandboxes, the worker main's to reap
    within a heartbeat) end the wait at once with False: nothing here can remove them,
    and waiting out the deadline for each such uid cost a starting pool process a
    second per uid, past Celery's start-up limit.
    """
    me = os.getpid()
    while True:
        table = _uid_table(uid)
        for pid, (state, _) in table.items():
            if state != b"Z":
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        _reap_uid_children(uid, time.monotonic())
        if not table:
            return True
        going = [
            pid
            for pid, (state, parent) in table.items()
            if state != b"Z" or parent == me or parent in table
        ]
        if not going or time.monotonic() > deadline:
            return False
        time.sleep(0.002)


def _count_own_processes() -> int:
    uid = os.getuid()
    return sum(1 for entry in os.listdir("/proc") if entry.isdigit() and _proc_uid(entry) == uid)


def _pipe_with(data: bytes) -> int:
    """A pipe's read end holding `data` (small: it must fit the pipe buffer)."""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, data)
    finally:
        os.close(write_end)
    return read_end
