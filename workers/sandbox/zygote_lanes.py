"""Sandbox lanes: bots started by a zygote (`workers/sandbox/zygote.py`) instead of a new bwrap.

A lane is one long-lived bubblewrap sandbox on a leased uid, in a cgroup of its own,
running the zygote: an interpreter with the runner and codec loaded, allowed to make
namespaces inside its own user namespace (CAP_SYS_ADMIN there, nowhere else). Each bot
start is a request on the lane's socket: the zygote forks a keeper (its host pid comes
to the worker with the kernel's credentials on the bot's control socket), the keeper
builds the bot's own mount, PID, network, IPC and cgroup namespaces, a fresh /tmp and
/dev/shm and a read-only copy of the bot's file, and forks the bot's PID 1, which forks
the bot; the bot drops every capability and installs the seccomp filter before the
runner starts. The bot's view is the sandbox's usual one; what it costs is three forks
of a clean interpreter instead of a new interpreter, a launch chain and bwrap.

One lane plays one bot at a time (a set's bots take one lane each), inside the lane's
own cgroup, bounded for that bot: a bot's tree is everything in the group but the
lane's three processes, and the lane goes back to the launcher's idle list only once
all of that is gone, so nothing of one set can meet the next. (A cgroup per bot would
mean a cgroup v1 migration per start: ~2-3 ms of waiting per hierarchy.) A lane whose
zygote died, or whose bot could not be cleaned up, is closed: every process of its uid
killed, the lease freed. Lanes need root and cgroups; elsewhere the launcher starts a
bwrap per bot as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from workers.sandbox.cgroups import BotCgroup, CgroupManager
from workers.sandbox.limits import Limits
from workers.sandbox.process import (
    BWRAP_SIGNAL_BASE,
    SandboxReadings,
    UidLease,
    _kill_uid,
    _pipe_with,
)

ZYGOTE_SOURCE = Path(__file__).resolve().parent / "zygote.py"
# Processes of the lane's uid besides the bot's own: bwrap, its PID 1, the zygote, the
# keeper and the bot's PID 1.
LANE_PROCESSES = 5
# The keeper's hello, and the zygote's ready: a healthy host answers in milliseconds.
HANDSHAKE_SECONDS = 5.0
# Bot file and compiled code together, at most (a bot upload is far smaller).
MAX_FILE_BYTES = 64 << 20
# The zygote's own cage (it never runs bot code): enough for an interpreter and orjson.
LANE_MEMORY_BYTES = 256 << 20
# While a bot runs, the lane's group is bounded to the bot's own budget (memory and /tmp,
# as a bwrap'd bot's group) plus what the lane's three processes hold (~15 MB resident).
LANE_RESIDENT_BYTES = 32 << 20
LANE_PIDS = 64
CREDENTIALS = struct.Struct("iII")


class LaneError(RuntimeError):
    """A lane cannot start this bot: the launcher falls back to a bwrap of its own."""


def _receive_with_pid(control: socket.socket, timeout: float) -> tuple[bytes, int | None]:
    """One message and the sender's pid, as the kernel translated it into our namespace."""
    ready, _, _ = select.select([control], [], [], timeout)
    if not ready:
        raise LaneError("the zygote did not answer in time")
    data, ancillary, _, _ = control.recvmsg(4096, socket.CMSG_SPACE(CREDENTIALS.size))
    pid = None
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = CREDENTIALS.unpack(payload[: CREDENTIALS.size])[0]
    return data, pid


class LaneLauncher(Protocol):
    """What a lane needs of the launcher that owns it (sandbox.BubblewrapLauncher, which
    imports this module: the lanes name what they use rather than import it back)."""

    @property
    def cgroups(self) -> CgroupManager | None: ...
    @property
    def seccomp_program(self) -> bytes | None: ...
    @property
    def lanes(self) -> LanePool: ...
    def lease_uid(self) -> UidLease: ...
    def lane_options(self) -> list[str]: ...
    def lane_command(
        self, uid: int, procs_files: list[str], socket_fd: int, args_fd: int
    ) -> list[str]: ...
    def bot_file_name(self, bot_path: Path) -> str: ...
    def code_options(
        self, bot_fd: int, name: str, limits: Limits, options: list[str], fds: list[int]
    ) -> tuple[list[str], str | None]: ...


class Lane:
    """One zygote on one leased uid, used by one bot at a time."""

    def __init__(self, launcher: LaneLauncher, starter: ThreadPoolExecutor) -> None:
        self.launcher = launcher
        self.starter = starter
        self.owner_pid = os.getpid()
        self.closed = False
        self.lease: UidLease = launcher.lease_uid()
        self.own_pids: set[int] = set()
        self.uid = self.lease.uid
        self.cgroup: BotCgroup | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.socket: socket.socket | None = None
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        launcher = self.launcher
        cgroups = launcher.cgroups
        if cgroups is None:
            raise LaneError("lanes need cgroups")
        self.cgroup = cgroups.create(f"lane-{self.uid}", LANE_PIDS, LANE_MEMORY_BYTES)
        if self.cgroup is None:
            raise LaneError("no cgroup for the lane")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket = ours
        args_fd = _pipe_with(b"".join(o.encode() + b"\0" for o in launcher.lane_options()))
        try:
            command = launcher.lane_command(
                self.uid, self.cgroup.procs_files, theirs.fileno(), args_fd
            )
            # From the pool's own long-lived thread: bwrap's --die-with-parent follows the
            # thread that started it, and a set's bots start from short-lived threads.
            self.process = self.starter.submit(
                subprocess.Popen,
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={},
                cwd="/",
                start_new_session=True,
                close_fds=True,
                pass_fds=[args_fd, theirs.fileno()],
            ).result()
        finally:
            theirs.close()
            with contextlib.suppress(OSError):
                os.close(args_fd)
        data, _ = _receive_with_pid(ours, HANDSHAKE_SECONDS)
        if data != b"ready":
            raise LaneError("the zygote did not start")
        self.own_pids = _descendants(self.process.pid, depth=2)

    def is_usable(self) -> bool:
        return (
            self.owner_pid == os.getpid()
            and self.socket is not None
            and self.process is not None
            and self.process.poll() is None
        )

    def spawn(self, bot_path: Path, limits: Limits) -> ForkedSandbox:
        """Start one bot in this lane; the lane is the bot's until the bot's cleanup."""
        launcher = self.launcher
        assert self.socket is not None and launcher.cgroups is not None
        name = launcher.bot_file_name(bot_path)
        cgroup = self.cgroup
        if cgroup is None:
            raise LaneError("the lane has no cgroup")
        # The lane's own group holds the bot while it runs, bounded for this bot: joining
        # a group is a cgroup v1 migration, ~2-3 ms of waiting (an RCU grace period) per
        # hierarchy, where setting two limits is two writes.
        cgroup.set_limits(
            limits.max_processes + LANE_PROCESSES,
            ((limits.memory_mb + limits.tmp_mb) << 20) + LANE_RESIDENT_BYTES,
        )
        baseline = (cgroup.cpu_seconds() or 0.0, cgroup.oom_kills())
        local: list[Any] = []
        remote: list[int] = []
        try:
            stdin_read, stdin_write = os.pipe()
            stdout_read, stdout_write = os.pipe()
            stderr_read, stderr_write = os.pipe()
            local += [stdin_write, stdout_read, stderr_read]
            remote += [stdin_read, stdout_write, stderr_write]
            control, keeper_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            control.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
            local.append(control)
            remote.append(keeper_end.detach())
            bot_fd = os.open(bot_path, os.O_RDONLY | os.O_CLOEXEC)
            remote.append(bot_fd)
            code_fd, emit, code_key = self._code(bot_fd, name, limits)
            if code_fd is not None:
                remote.append(code_fd)
            request = {
                "name": name,
                "tmp_bytes": limits.tmp_mb << 20,
                "max_bytes": MAX_FILE_BYTES,
                "rlimits": _rlimits(limits),
                "emit": emit,
            }
            payload = json.dumps(request).encode() + b"\n" + (launcher.seccomp_program or b"")
            rights = [
                (socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack(f"{len(remote)}i", *remote))
            ]
            self.socket.sendmsg([payload], rights)
            for fd in remote:
                os.close(fd)
            remote.clear()
            hello, pid = _receive_with_pid(control, HANDSHAKE_SECONDS)
            if hello != b"hello" or pid is None:
                raise LaneError(f"the keeper did not start ({hello[:200]!r})")
            process = ForkedSandbox(
                self, pid, baseline, limits, control, stdin_write, stdout_read, stderr_read
            )
            process.code_key = code_key
            return process
        except BaseException:
            for item in local:
                with contextlib.suppress(OSError):
                    item.close() if isinstance(item, socket.socket) else os.close(item)
            for fd in remote:
                with contextlib.suppress(OSError):
                    os.close(fd)
            raise

    def _code(self, bot_fd: int, name: str, limits: Limits) -> tuple[int | None, int, str | None]:
        """The bot's cached compiled code to send (or how much room to emit it in), and
        the key to store emitted code under (workers/sandbox/code_cache.py)."""
        options: list[str] = []
        fds: list[int] = []
        args, key = self.launcher.code_options(bot_fd, name, limits, options, fds)
        if args[:1] == ["--code"] and fds:
            return fds[0], 0, None
        for fd in fds:
            os.close(fd)
        if args[:1] == ["--emit-code"]:
            return None, int(args[1]), key
        return None, 0, None

    def close(self) -> None:
        """Stop the zygote, kill everything of the lane's uid, free the uid (once)."""
        if self.closed:
            return
        if self.socket is not None:
            with contextlib.suppress(OSError):
                self.socket.close()
            self.socket = None
        if self.owner_pid != os.getpid():
            return  # a forked worker's copy: the lane belongs to the process that made it
        self.closed = True
        if self.process is not None:
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)
        _LIVE_LANES.discard(self)
        deadline = time.monotonic() + 2.0
        clean = _kill_uid(self.uid, deadline)
        if self.cgroup is not None:
            self.cgroup.kill_all()
            clean = self.cgroup.remove(timeout=max(0.05, deadline - time.monotonic())) and clean
            self.cgroup = None
        self.lease.release(clean=clean)


class ForkedSandbox(SandboxReadings):
    """A bot started by a lane's zygote, with the part of Popen's interface the referee
    uses. `pid` is the keeper's host pid (a session leader: killpg reaches the bot)."""

    def __init__(
        self,
        lane: Lane,
        pid: int,
        baseline: tuple[float, int],
        limits: Limits,
        control: socket.socket,
        stdin_fd: int,
        stdout_fd: int,
        stderr_fd: int,
    ) -> None:
        super().__init__(lane.cgroup, limits)
        # The lane's group counted this much CPU and these OOM kills before this bot.
        self._cpu_base, self._oom_base = baseline
        self.lane = lane
        self.uid = lane.uid
        self.pid = pid
        self.args = ["zygote", str(pid)]
        self.returncode: int | None = None
        self.setup_error: str | None = None
        self._doomed: set[int] = set()  # the bot's processes when it was killed
        self._control = control
        self.stdin = os.fdopen(stdin_fd, "wb", buffering=0)
        self.stdout = os.fdopen(stdout_fd, "rb", buffering=0)
        self.stderr = os.fdopen(stderr_fd, "rb", buffering=0)
        self.code_key: str | None = None

    def _bot_pid_depth(self) -> int:
        return 2  # the keeper -> the bot's PID 1 -> the bot

    def cpu_seconds(self) -> float | None:
        used = super().cpu_seconds()
        return None if used is None else max(0.0, used - self._cpu_base)

    def _oom_killed(self) -> bool:
        return self.cgroup is not None and self.cgroup.oom_kills() > self._oom_base

    def _take_report(self, data: bytes) -> None:
        text = data.decode(errors="replace")
        if text.startswith("exit "):
            code = os.waitstatus_to_exitcode(int(text[5:]))
            # The bot's PID 1 ends with 128 + N for a bot killed by signal N, as bwrap does.
            if BWRAP_SIGNAL_BASE < code < BWRAP_SIGNAL_BASE + 65:
                code = -(code - BWRAP_SIGNAL_BASE)
            self.returncode = code
        elif text.startswith("error "):
            self.setup_error = text[6:]
            self.returncode = 125
        elif not data:
            self.returncode = -signal.SIGKILL  # the keeper died without a word: killed

    def poll(self) -> int | None:
        if self.returncode is None and not self._finished:
            try:
                data = self._control.recv(4096, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return None
            except OSError:
                data = b""
            self._take_report(data)
            if self.returncode is None:
                return None
            self._finish()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            select.select([self._control], [], [], left)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.kill_tree()

    def kill_tree(self) -> None:
        """Note every process of the bot (all of the lane's group but the lane's own), so
        that the cleanup waits for each to be reaped, then kill the keeper's session."""
        if self.cgroup is not None:
            self._doomed.update(set(self.cgroup.pids()) - self.lane.own_pids)
        os.killpg(self.pid, signal.SIGKILL)

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        self.death_cause = self.setup_error or self._cause_of_death(self.returncode or 0)
        self._close_readers()
        with contextlib.suppress(OSError):
            self._control.close()
        self.cleanup()

    def cleanup(self, timeout: float = 2.0) -> None:
        """Kill whatever of this bot still runs; the lane goes back only once all is gone.

        Everything in the lane's group but the lane's own three processes is the bot's.
        The keeper and the bot's PID 1 are the last to go: the keeper is reaped by the
        zygote at once, the PID 1 (orphaned when the keeper dies first) by the lane's own
        PID 1, and a PID 1 is reaped only after everything of its namespace."""
        deadline = time.monotonic() + timeout
        assert self.cgroup is not None
        own = self.lane.own_pids
        with contextlib.suppress(OSError):
            self.kill_tree()
        last = self._doomed | set(self.pid_chain[:1])
        pause = 0.0002
        clean = True
        while True:
            left = [pid for pid in self.cgroup.pids() if pid not in own]
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if not left and not any(os.path.exists(f"/proc/{pid}") for pid in last):
                break
            if time.monotonic() > deadline:
                clean = False
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        self.lane.launcher.lanes.give_back(self.lane, clean=clean)


class LanePool:
    """A launcher's lanes: at most `limit`, started on demand, each lent to one bot."""

    def __init__(self, launcher: LaneLauncher, limit: int) -> None:
        self.launcher = launcher
        self.limit = limit
        self._lock = threading.Lock()
        self._idle: list[Lane] = []
        # Every lane started and not yet closed, idle or lent: `close` ends them all.
        self._lanes: set[Lane] = set()
        self._count = 0
        self._pid = os.getpid()
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="arena-lanes")
        _POOLS.add(self)

    def spawn(self, bot_path: Path, limits: Limits) -> ForkedSandbox:
        lane = self._take()
        try:
            return lane.spawn(bot_path, limits)
        except BaseException:
            self.give_back(lane, clean=False)
            raise

    def _take(self) -> Lane:
        with self._lock:
            if self._pid != os.getpid():
                # A forked worker: the lanes are its parent's (their sockets are dropped here).
                for lane in self._idle:
                    lane.close()
                self._idle, self._lanes, self._count, self._pid = [], set(), 0, os.getpid()
                self._starter = ThreadPoolExecutor(1, thread_name_prefix="arena-lanes")
            while self._idle:
                lane = self._idle.pop()
                if lane.is_usable():
                    return lane
                lane.close()
                self._lanes.discard(lane)
                self._count -= 1
            if self._count >= self.limit:
                raise LaneError(f"all {self.limit} lanes are busy")
            self._count += 1
        try:
            lane = Lane(self.launcher, self._starter)
        except BaseException:
            with self._lock:
                self._count -= 1
            raise
        _LIVE_LANES.add(lane)
        with self._lock:
            self._lanes.add(lane)
        return lane

    def give_back(self, lane: Lane, clean: bool) -> None:
        if clean and lane.is_usable():
            with self._lock:
                if self._pid == os.getpid() and lane in self._lanes:
                    self._idle.append(lane)
                    return
        lane.close()
        with self._lock:
            if lane in self._lanes:  # not when `close` already ended it
                self._lanes.discard(lane)
                self._count = max(0, self._count - 1)

    def warm(self, count: int) -> None:
        """Start lanes until `count` wait idle (a worker's first set then pays none)."""
        started = []
        try:
            while len(started) + len(self._idle) < min(count, self.limit):
                started.append(self._take())
        finally:
            for lane in started:
                self.give_back(lane, clean=True)

    def close(self) -> None:
        """Close every lane of this pool, idle or lent (a lent one's bot dies with it)."""
        with self._lock:
            if self._pid != os.getpid():
                return  # a forked worker's copy: the lanes are its parent's
            lanes, self._lanes, self._idle, self._count = list(self._lanes), set(), [], 0
        for lane in lanes:
            lane.close()

    def probe(self) -> str | None:
        """Start a probe bot in a lane and see that its walls stand; None when they do."""
        with tempfile.TemporaryDirectory(prefix="arena-lane-probe-") as folder:
            path = Path(folder) / "probe.py"
            path.write_text(PROBE_BOT)
            try:
                process = self.spawn(path, Limits())
            except (LaneError, OSError) as exc:
                self.close()
                return f"cannot start a zygote lane: {exc}"
            try:
                assert process.stdin is not None and process.stderr is not None
                process.stdin.close()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                    return "the lane probe did not finish in 20 s"
                text = process.stderr.read().decode(errors="replace").strip()
            finally:
                for stream in (process.stdout, process.stderr):
                    with contextlib.suppress(OSError):
                        stream.close()
        # The probe's lane is not kept: a worker forks after its check, and lanes belong
        # to the process that starts them.
        self.close()
        return None if "probe: ok" in text.splitlines() else f"lane probe: {text[-400:]}"


# Every lane pool of this process (each launcher has one: the worker's, the validation's).
_POOLS: weakref.WeakSet[LanePool] = weakref.WeakSet()


def close_all_lanes() -> None:
    """Close every lane this process started, in every launcher: a pool process does this
    as it exits, or its lanes outlive it as zombies for the worker's main process to reap."""
    for pool in list(_POOLS):
        pool.close()


# The lanes alive in this process, for the tests' check that nothing but a lane's own
# processes runs under its uid once a bot is done.
_LIVE_LANES: weakref.WeakSet[Lane] = weakref.WeakSet()


def lane_pids_of_uid(uid: int) -> set[int]:
    return {pid for lane in list(_LIVE_LANES) if lane.uid == uid for pid in lane.own_pids}


def _descendants(pid: int, depth: int) -> set[int]:
    found, level = {pid}, [pid]
    for _ in range(depth):
        nxt = []
        for parent in level:
            with (
                contextlib.suppress(OSError, ValueError),
                open(f"/proc/{parent}/task/{parent}/children") as handle,
            ):
                nxt.extend(int(child) for child in handle.read().split())
        found.update(nxt)
        level = nxt
    return found


# A bot that checks its walls from the inside (run as a bot file: see LanePool.probe).
PROBE_BOT = (Path(__file__).resolve().parent / "lane_probe_bot.py").read_text()


def _rlimits(limits: Limits) -> dict[str, list[int]]:
    memory = limits.memory_mb << 20
    size = limits.file_size_mb << 20
    processes = limits.max_processes + LANE_PROCESSES
    return {
        "RLIMIT_AS": [memory, memory],
        "RLIMIT_CPU": [limits.cpu_seconds, limits.cpu_seconds + 1],
        "RLIMIT_NOFILE": [limits.open_files, limits.open_files],
        "RLIMIT_FSIZE": [size, size],
        "RLIMIT_CORE": [0, 0],
        "RLIMIT_NPROC": [processes, processes],
    }


__all__ = ["ForkedSandbox", "Lane", "LaneError", "LanePool", "lane_pids_of_uid"]
