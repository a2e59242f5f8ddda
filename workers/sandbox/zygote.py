"""The zygote: an interpreter that starts once per sandbox lane and forks each bot.

Runs *inside* a bubblewrap sandbox (standard library only, nothing of the project is
imported: the runner comes from its compiled file). A bot's sandboxed start used to be
an interpreter start-up (~7.7 ms of CPU here for `python -I -S -c pass`), the launch
chain and bwrap (~7 ms) and the runner, codec and bot loading (~5 ms): ~20 ms of CPU per
bot per set. The zygote pays that once; a start is then three forks of a small, clean
process and a few mounts. The design follows Android's zygote and Chromium's: nothing
untrusted ever runs in the zygote, so every child starts from the same clean memory,
and each child builds its own walls before any bot code runs.

One request (a datagram on the lane socket, fd given by `--socket`) starts one bot:

    {"name": ..., "tmp_bytes": ..., "max_bytes": ..., "rlimits": {...}, "emit": int}
    + b"\n" + the seccomp program (BPF, may be empty)
    with SCM_RIGHTS: stdin, stdout, stderr, control socket, bot file[, compiled code]

The first child (the *keeper*) starts a session and says hello on the control socket
(the worker reads its host pid from the kernel's credentials), then enters new mount,
PID, network, IPC and cgroup namespaces (inside the lane's user namespace, where the
zygote holds CAP_SYS_ADMIN), puts a fresh tmpfs on /tmp and /dev/shm and the bot's file
on a read-only tmpfs, and forks the bot's PID 1, as bwrap's own: it mounts the
namespace's /proc, forks the bot as PID 2, drops its own capabilities and reaps. The bot
takes its file descriptors, rlimits and working directory, drops every capability, sets
no_new_privs, installs the seccomp filter and only then runs the runner. The keeper
reports the PID 1's status ("exit <status>", 128 + N for a bot killed by signal N) on
the control socket. The keeper dies with the zygote, the PID 1 with the keeper, and
with a PID 1 everything of its namespace.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import importlib.machinery
import importlib.util
import io
import json
import os
import resource
import signal
import socket
import struct
import sys
from collections.abc import Callable
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECCOMP_MODE_FILTER = 2
LINUX_CAPABILITY_VERSION_3 = 0x20080522
MAX_FDS = 6
BOT_DIR = "/arena/bot"
CODE_FILE = "/arena/bot/code"
# What bwrap's --proc covers read-only.
PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus")

libc = ctypes.CDLL(None, use_errno=True)


class SetupError(Exception):
    """A step of a bot's start failed: reported to the worker, the bot never runs."""


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise SetupError(f"{what}: {os.strerror(code)} (errno {code})")


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str = "") -> None:
    _check(
        libc.mount(
            source.encode() if source else None,
            target.encode(),
            kind.encode() if kind else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                ("k", ctypes.c_uint32)]  # fmt: skip


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _drop_capabilities() -> None:
    """No capability left in any set: the lane's CAP_SYS_ADMIN stays with the zygote."""
    for capability in range(64):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL:
                break  # past the kernel's last capability
            _check(-1, f"drop capability {capability} from the bounding set")
    header = struct.pack("Ii", LINUX_CAPABILITY_VERSION_3, 0)
    data = bytes(24)  # two (effective, permitted, inheritable) triples, all empty
    _check(libc.capset(ctypes.c_char_p(header), ctypes.c_char_p(data)), "capset")
    _check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient caps")


def _install_seccomp(program: bytes) -> None:
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    if not program:
        return
    count = len(program) // 8
    filters = (_SockFilter * count).from_buffer_copy(program[: count * 8])
    prog = _SockFprog(count, ctypes.cast(filters, ctypes.POINTER(_SockFilter)))
    _check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0), "seccomp")


def _read_all(fd: int, limit: int) -> bytes:
    chunks, total = [], 0
    while chunk := os.pread(fd, 1 << 20, total):
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise SetupError("the bot's file is larger than its sandbox allows")
    return b"".join(chunks)


def _build_walls(request: dict[str, Any], bot_fd: int, code_fd: int | None) -> str:
    """In the keeper: the namespaces and file systems of this one bot."""
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWCGROUP
    _check(libc.unshare(flags), "unshare")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    safe = MS_NOSUID | MS_NODEV
    _mount("tmpfs", "/tmp", "tmpfs", safe, f"size={int(request['tmp_bytes'])},mode=0755")
    if os.path.isdir("/dev/shm"):
        _mount("tmpfs", "/dev/shm", "tmpfs", safe, f"size={int(request['tmp_bytes'])},mode=1777")
    name = str(request["name"])
    if "/" in name or name in ("", ".", "..", "code"):
        raise SetupError(f"bad bot file name {name!r}")
    source = _read_all(bot_fd, int(request["max_bytes"]))
    code = _read_all(code_fd, int(request["max_bytes"])) if code_fd is not None else b""
    room = len(source) + len(code) + (64 << 10)
    _mount("tmpfs", BOT_DIR, "tmpfs", safe | MS_NOEXEC, f"size={room},mode=0755")
    for path, data in ((f"{BOT_DIR}/{name}", source), (CODE_FILE, code)):
        if path == CODE_FILE and code_fd is None:
            continue
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
    _mount(None, BOT_DIR, None, MS_REMOUNT | MS_RDONLY | safe | MS_NOEXEC)
    return f"{BOT_DIR}/{name}"


def _fork(child: Callable[[], int], stderr: int) -> int:
    """Fork; the child runs `child` and exits with its status, or 125 with a line on
    `stderr` if it raised. Returns the child's pid to the parent."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        status = 125
        try:
            status = child()
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.write(stderr, f"arena-sandbox: cannot start the bot: {exc}\n".encode())
        finally:
            os._exit(status)
    return pid


def _mount_proc() -> None:
    """In the bot's PID 1: a /proc of its own namespace, with bwrap's read-only parts."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for name in PROC_READ_ONLY:
        path = f"/proc/{name}"
        if os.path.exists(path):
            _mount(path, path, None, MS_BIND | MS_REC)
            _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _become_bot(request: dict[str, Any], seccomp: bytes, streams: list[int]) -> None:
    """In the bot (PID 2): its fds, limits and working directory, no privileges."""
    for target, fd in enumerate(streams):
        os.dup2(fd, target, inheritable=True)
    os.closerange(3, 1 << 16)
    os.chdir("/tmp")
    os.environ["PWD"] = "/tmp"  # as bwrap's --chdir leaves it
    for name, (soft, hard) in request["rlimits"].items():
        resource.setrlimit(getattr(resource, name), (int(soft), int(hard)))
    _drop_capabilities()
    _install_seccomp(seccomp)


def _init(
    request: dict[str, Any], seccomp: bytes, streams: list[int], run: Callable[[], int]
) -> int:
    """PID 1 of the bot's namespace, as bwrap's own: start the bot as PID 2, reap what it
    leaves, and end with its status (128 + N for signal N) when it ends; the kernel then
    kills whatever else of the namespace still runs."""
    _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
    _mount_proc()

    def become_bot() -> int:
        _become_bot(request, seccomp, streams)
        return run()

    bot = _fork(become_bot, streams[2])
    for fd in streams:
        os.close(fd)
    # The bot may signal its PID 1: only signals with a handler reach it, so none at all.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _drop_capabilities()
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except InterruptedError:
            continue
        if pid == bot:
            if os.WIFSIGNALED(status):
                return 128 + os.WTERMSIG(status)
            return os.waitstatus_to_exitcode(status) & 0xFF


def _fresh_standard_streams() -> None:
    """What the interpreter itself would have made of fds 0-2 at start-up."""
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), "utf-8")
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)), "utf-8")
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
        "utf-8",
        "backslashreplace",
        line_buffering=True,
    )
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _run_bot(runner: Any, argv: list[str]) -> int:
    """The runner's main, with the exit an interpreter would make (threads joined,
    atexit run, streams flushed), as `python runner.pyc ...` exits."""
    _fresh_standard_streams()
    sys.argv = argv
    try:
        code = runner.main(argv)
    except SystemExit as stop:
        code = stop.code
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()  # type: ignore[attr-defined]
        import atexit

        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                if stream is not None:
                    stream.flush()
            except Exception:
                pass
    return code & 0xFF


def _keeper(
    runner: Any,
    argv_base: list[str],
    request: dict[str, Any],
    seccomp: bytes,
    fds: list[int],
) -> int:
    """The first child: one bot's start, its wait, and its report."""
    stdin, stdout, stderr, control_fd, bot_fd = fds[:5]
    code_fd = fds[5] if len(fds) > 5 else None
    control = socket.socket(fileno=control_fd)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
    try:
        control.send(b"hello")  # the worker reads our host pid from the credentials
        bot_path = _build_walls(request, bot_fd, code_fd)
    except (OSError, SetupError, ValueError, KeyError, TypeError) as exc:
        with contextlib.suppress(OSError):
            os.write(stderr, f"arena-sandbox: cannot start the bot: {exc}\n".encode())
        _report(control, f"error {exc}")
        return 1
    argv = [*argv_base]
    if code_fd is not None:
        argv += ["--code", CODE_FILE]
    elif int(request.get("emit", 0)) > 0:
        argv += ["--emit-code", str(int(request["emit"]))]
    argv.append(bot_path)
    for fd in (bot_fd, *([code_fd] if code_fd is not None else [])):
        os.close(fd)

    def start_init() -> int:
        control.close()
        return _init(request, seccomp, [stdin, stdout, stderr], lambda: _run_bot(runner, argv))

    pid = _fork(start_init, stderr)
    for fd in (stdin, stdout, stderr):
        os.close(fd)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    _report(control, f"exit {status}")
    return 0


def _report(control: socket.socket, text: str) -> None:
    with contextlib.suppress(OSError):
        control.send(text.encode()[:4000])


def _load_runner(path: str) -> Any:
    loader = importlib.machinery.SourcelessFileLoader("arena_runner", path)
    spec = importlib.util.spec_from_loader("arena_runner", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def serve(lane: socket.socket, runner: Any, argv_base: list[str]) -> None:
    """Fork a keeper for each request until the worker closes the lane."""
    # Keepers are reaped by the kernel: the zygote never needs their status.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    lane.send(b"ready")
    fd_bytes = socket.CMSG_SPACE(MAX_FDS * 4)
    while True:
        try:
            data, ancillary, _, _ = lane.recvmsg(1 << 20, fd_bytes)
        except InterruptedError:
            continue
        if not data:
            return
        fds: list[int] = []
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                usable = len(payload) - len(payload) % 4
                fds.extend(struct.unpack(f"{usable // 4}i", payload[:usable]))
        header, _, seccomp = data.partition(b"\n")
        try:
            request = json.loads(header)
        except ValueError:
            request = None
        if not isinstance(request, dict) or len(fds) < 5:
            for fd in fds:
                os.close(fd)
            continue

        def start_keeper(
            request: dict[str, Any] = request, fds: list[int] = fds, seccomp: bytes = seccomp
        ) -> int:
            lane.close()
            return _keeper(runner, argv_base, request, seccomp, fds)

        _fork(start_keeper, fds[2])
        for fd in fds:
            os.close(fd)


def main(argv: list[str]) -> int:
    args = argv[1:]
    lane_fd, runner_path, libs = -1, "", []
    while len(args) >= 2:
        if args[0] == "--socket":
            lane_fd = int(args[1])
        elif args[0] == "--runner":
            runner_path = args[1]
        elif args[0] == "--lib":
            libs.append(args[1])
        else:
            break
        args = args[2:]
    if lane_fd < 0 or not runner_path or args:
        sys.stderr.write("usage: zygote.py --socket FD --runner RUNNER.pyc [--lib DIR]...\n")
        return 2
    for folder in libs:
        sys.path.insert(0, folder)
    runner = _load_runner(runner_path)
    runner.use_fast_codec()  # orjson (or the standard codec) loaded once, for every bot
    argv_base = ["runner.py"]
    for folder in libs:
        argv_base += ["--lib", folder]
    lane = socket.socket(fileno=lane_fd)
    # Every bot of the lane runs as batch work, as its referee does: workers/node/affinity.py's
    # schedule_as_batch, written out since the zygote imports nothing of the project.
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    # What every child shares stays out of the collector's way: fewer copied pages.
    gc.collect()
    gc.freeze()
    try:
        serve(lane, runner, argv_base)
    except OSError as exc:
        if exc.errno not in (errno.ECONNRESET, errno.EPIPE):
            raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
