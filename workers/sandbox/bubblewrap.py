"""The bubblewrap sandbox: every untrusted bot runs here, one sandbox per bot per set.

Where the worker is root with a writable cgroup tree, a bot is forked into its walls by
a zygote lane (`workers/sandbox/zygote_lanes.py`, `workers/sandbox/zygote.py`): a long-lived sandbox of
this same view, one uid and cgroup per lane, one bot at a time, in which each bot gets
the namespaces, `/tmp`, limits and seccomp filter described below as a bwrap'd bot
does, for three forks of a clean interpreter instead of a new one. Elsewhere, when a
lane cannot start a bot, or with ARENA_SANDBOX_ZYGOTE=off, each bot gets a bwrap of its
own:

A bot process gets new user, PID, network, IPC, mount and UTS namespaces (no
network interface but its own loopback), a read-only view of only the Python
interpreter, `/usr`, the bot runner, the pure `engine` package and the bot's
own file, a private size-limited `/tmp`, an empty environment, and a new
session; it dies with its parent. Around that:

* each live sandbox runs as its own unprivileged uid, leased with a lock file,
  so `RLIMIT_NPROC` bounds that one bot and a cleanup can find all it started;
* rlimits (address space, CPU time, processes, open files, file size) and, where
  the host's cgroup tree is writable, a pids/memory/CPU cgroup per sandbox
  (`workers/sandbox/cgroups.py`), applied before bwrap starts by a vfork'd chain of
  `/bin/sh` (joins the cgroups), `prlimit` and `setpriv` (drops to the uid);
* a seccomp deny-list (`workers/sandbox/seccomp_filter.py`) when pyseccomp is present;
* the worker becomes a child subreaper and reaps what the sandboxes leave, so
  nothing outlives a match, not even a zombie counted against the next bot.

`BubblewrapLauncher.check()` raises one `SandboxUnavailable` with a clear
message when any of this cannot work; call it once when a worker starts.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from workers.sandbox import code_cache, native
from workers.sandbox.cgroups import CgroupManager
from workers.sandbox.launchers import (
    PROJECT_ROOT,
    RUNNER,
    SANDBOX_STARTS,
    compiled_file,
    compiled_runner,
    fast_codec_file,
)
from workers.sandbox.limits import Limits, LimitsError
from workers.sandbox.mounts import LIBRARY, _interpreter_prefix, _package_dirs, _stage_library
from workers.sandbox.process import (
    JOIN_CGROUPS,
    SHELL,
    TOOL_PATH,
    SandboxedProcess,
    SandboxUnavailable,
    UidLease,
    _become_subreaper,
    _count_own_processes,
    _kill_uid,
    _lock_dir,
    _pipe_with,
    _world_readable,
    processes_of_uid,
)
from workers.sandbox.zygote_lanes import ZYGOTE_SOURCE, LaneError, LanePool

__all__ = [
    "BubblewrapLauncher",
    "SandboxUnavailable",
    "SandboxedProcess",
    "UidLease",
    "processes_of_uid",
]

# Where things appear inside the sandbox.
SANDBOX_RUNNER = "/arena/runner.pyc"
SANDBOX_LIB = "/arena/lib"
SANDBOX_BOT_DIR = "/arena/bot"
SANDBOX_ZYGOTE = "/arena/zygote.pyc"

# Bots run as uids from this one on (uids in /etc/passwd are skipped); two deployments or
# checkouts on one host need ranges of their own.
UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "61000"))
# How many uids the sandbox may lease: at least one per bot running at once on the host.
UID_COUNT = int(os.environ.get("ARENA_SANDBOX_UIDS", "512"))
UIDS_PER_SLOT = 16
# The interpreter bots run with, when neither the worker's own nor a system python3 of the
# same minor version can be read by an unprivileged uid.
PYTHON_ENV = "ARENA_SANDBOX_PYTHON"
# "off": a bwrap of its own for every bot, no zygote lanes (workers/sandbox/zygote_lanes.py).
ZYGOTE_ENV = "ARENA_SANDBOX_ZYGOTE"
OFF_WORDS = ("off", "0", "false", "no")
# Lanes one launcher (one worker process) keeps: a set's bots take one each.
MAX_LANES = 8


SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")
# Where the worker's orjson extension appears, read-only, for the runner's codec.
SANDBOX_CODEC = "/arena/codec"


_CHECKED: set[tuple[str, str, str, str | None, bool]] = set()
# Per set-up whose lanes were probed: True when zygote lanes work, else why not.
_LANES_PROVED: dict[tuple[str, str, str, str | None, bool], bool | str] = {}


# ----- the launcher -----------------------------------------------------------------


class BubblewrapLauncher:
    """Starts each bot in its own bubblewrap sandbox. One per worker process."""

    name = "sandbox"

    def __init__(
        self,
        slot: int = 0,
        *,
        uid_base: int = UID_BASE,
        uid_count: int = UID_COUNT,
        python: str | None = None,
        use_cgroups: bool = True,
        use_seccomp: bool = True,
        bwrap: str | None = None,
        use_lanes: bool | None = None,
    ) -> None:
        self.slot = slot
        self.bwrap = bwrap or shutil.which("bwrap") or "/usr/bin/bwrap"
        # util-linux tools that apply the limits and the uid between the spawn and
        # bwrap (see _spawn_prefix); Debian marks util-linux essential.
        self.prlimit = shutil.which("prlimit", path=TOOL_PATH) or "/usr/bin/prlimit"
        self.setpriv = shutil.which("setpriv", path=TOOL_PATH) or "/usr/bin/setpriv"
        self.is_root = os.geteuid() == 0
        self._python_choice = python or os.environ.get(PYTHON_ENV) or None
        self._uids = self._candidate_uids(uid_base, uid_count)
        self._lock_dir: str | None = None
        self._cgroups = CgroupManager() if use_cgroups else None
        self._seccomp: bytes | None = None
        self.seccomp_note = "off"
        if use_seccomp:
            from workers.sandbox.seccomp_filter import compiled_filter

            self._seccomp, self.seccomp_note = compiled_filter()
        self.subreaper = _become_subreaper() if self.is_root else False
        self._static: list[str] | None = None
        self._codec = False
        self._python: str | None = None
        self._checked = False
        if use_lanes is None:
            use_lanes = os.environ.get(ZYGOTE_ENV, "on").strip().lower() not in OFF_WORDS
        self._use_lanes = (
            use_lanes and self.is_root and bool(self._cgroups and self._cgroups.available)
        )
        self.lanes_note = "on" if self._use_lanes else "off"
        if use_lanes and not self._use_lanes:
            self.lanes_note = "off (lanes need root and a writable cgroup tree)"
        self._lanes: LanePool | None = None

    # ----- set-up ----------------------------------------------------------------

    def _candidate_uids(self, base: int, count: int) -> list[int]:
        if not self.is_root:
            return [os.getuid()]
        uids = []
        for uid in range(base, base + count):
            try:
                pwd.getpwuid(uid)
            except KeyError:
                uids.append(uid)  # nobody's uid: safe to kill everything it runs
        start = (self.slot * UIDS_PER_SLOT) % max(len(uids), 1)
        return uids[start:] + uids[:start]

    def _choose_python(self) -> str:
        """The interpreter for bots: the worker's own binary when the sandbox uid can read it."""
        if self._python_choice:
            path = os.path.realpath(self._python_choice)
            if not _world_readable(path, executable=True):
                raise SandboxUnavailable(f"{PYTHON_ENV}={path} is not readable by the sandbox uid")
            return path
        own = os.path.realpath(sys.executable)
        if not self.is_root or _world_readable(own, executable=True):
            return own
        # A pyenv interpreter under /root cannot be reached by an unprivileged uid:
        # use a system interpreter of the same minor version.
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        for candidate in (f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"):
            if os.path.exists(candidate) and _world_readable(candidate, executable=True):
                return os.path.realpath(candidate)
        raise SandboxUnavailable(
            f"the interpreter {own} is not readable by an unprivileged uid and no "
            f"/usr/bin/python{version} exists: install python{version} or set {PYTHON_ENV}"
        )

    def _static_args(self) -> list[str]:
        """The part of the bwrap command line that is the same for every bot."""
        if self._static is not None:
            return self._static
        python = self._python = self._choose_python()
        args = [
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            "--setenv", "HOME", "/tmp",
            "--setenv", "TMPDIR", "/tmp",
            "--setenv", "LANG", "C.UTF-8",
            "--setenv", "PATH", "/usr/bin:/bin",
            "--hostname", "arena",
            "--ro-bind", "/usr", "/usr",
        ]  # fmt: skip
        for name in ("lib", "lib64", "lib32", "bin", "sbin"):
            host = f"/{name}"
            if os.path.islink(host):
                args += ["--symlink", os.readlink(host), host]
            elif os.path.isdir(host):
                args += ["--ro-bind", host, host]
        prefix = _interpreter_prefix(python)
        if prefix != "/usr" and not prefix.startswith("/usr/"):
            args += ["--ro-bind", prefix, prefix]
        # Only the standard library: hide third-party packages next to it.
        for hidden in _package_dirs(python, prefix):
            args += ["--tmpfs", hidden, "--remount-ro", hidden]
        runner, library = _stage_library() if self.is_root else (RUNNER, PROJECT_ROOT)
        compiled = compiled_runner()
        if compiled != RUNNER and (not self.is_root or _world_readable(str(compiled))):
            runner = compiled  # no compiling of the runner at every start
        for name in LIBRARY:
            args += ["--ro-bind", str(library / name), f"{SANDBOX_LIB}/{name}"]
        args += ["--ro-bind", str(runner), SANDBOX_RUNNER]
        codec = fast_codec_file()
        if codec is not None and self.is_root and not _world_readable(str(codec)):
            codec = None  # the sandbox's uid could not open it: the runner's own codec
        if codec is not None:
            args += ["--ro-bind", str(codec), f"{SANDBOX_CODEC}/{codec.name}"]
        args += [
            "--proc", "/proc",
            "--dev", "/dev",
        ]  # fmt: skip
        self._codec = codec is not None
        self._static = args
        return args

    def check(self, limits: Limits | dict[str, Any] | None = None) -> None:
        """Raise one SandboxUnavailable saying what is wrong, or return if bots can run."""
        if limits is not None and not isinstance(limits, Limits):
            try:
                Limits.from_dict(limits)
            except LimitsError as exc:
                raise SandboxUnavailable(f"bad sandbox limits: {exc}") from None
        if self._checked:
            return
        key = (
            self.bwrap,
            self.prlimit,
            self.setpriv,
            self._python_choice,
            self._seccomp is not None,
        )
        if key in _CHECKED:
            # Another launcher of this process already proved this set-up works.
            self._static_args()
            self._check_lanes(key)
            self._checked = True
            return
        if not os.path.exists(self.bwrap):
            raise SandboxUnavailable(
                "bubblewrap is not installed: apt-get install bubblewrap (the bwrap command)"
            )
        if not sys.platform.startswith("linux"):
            raise SandboxUnavailable("the bot sandbox needs Linux (bubblewrap and namespaces)")
        for tool in (SHELL, self.prlimit, self.setpriv):
            if not os.access(tool, os.X_OK):
                raise SandboxUnavailable(
                    f"{tool} is missing: the sandbox needs /bin/sh and util-linux's prlimit "
                    "and setpriv (apt-get install util-linux)"
                )
        for path in (RUNNER, *(PROJECT_ROOT / name for name in LIBRARY)):
            if not path.exists():
                raise SandboxUnavailable(f"{path} is missing")
        if not self._uids:
            raise SandboxUnavailable("no free uid for sandboxes in the configured range")
        self._static_args()
        probe = self._probe()
        if probe is not None:
            raise SandboxUnavailable(probe)
        self._check_lanes(key)
        self._checked = True
        _CHECKED.add(key)

    def _check_lanes(self, key: tuple[str, str, str, str | None, bool]) -> None:
        """Probe zygote lanes once per set-up and process; without them, bwrap per bot."""
        if not self._use_lanes:
            return
        if key not in _LANES_PROVED:
            _LANES_PROVED[key] = self.lanes.probe() or True
        verdict = _LANES_PROVED[key]
        if verdict is not True:
            self._use_lanes = False
            self.lanes_note = f"off ({verdict})"

    def _probe(self) -> str | None:
        """Start a sandbox once, as a bot would be, and see that it is sealed."""
        code = (
            "import os,socket\n"
            "assert os.getuid() != 0, 'runs as root'\n"
            "try:\n"
            "    socket.create_connection(('1.1.1.1', 53), timeout=0.2)\n"
            "    print('network')\n"
            "except OSError:\n"
            "    pass\n"
            "try:\n"
            "    open('/probe', 'w')\n"
            "    print('writable root')\n"
            "except OSError:\n"
            "    pass\n"
            "print('ok')\n"
        )
        with tempfile.TemporaryDirectory(prefix="arena-probe-") as folder:
            path = Path(folder) / "probe.py"
            path.write_text("")
            try:
                process = self._start(path, Limits(), command=["-c", code])
            except OSError as exc:
                return f"cannot start bubblewrap ({self.bwrap}): {exc}"
            try:
                out, err = process.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                return "the sandbox probe did not finish in 20 s"
        text = out.decode(errors="replace").strip()
        if text != "ok":
            detail = (err.decode(errors="replace").strip() or text)[-500:]
            return f"bubblewrap cannot create the sandbox's namespaces here: {detail}"
        return None

    def describe(self) -> dict[str, Any]:
        """What protects bots on this host, for logs, `bench-sandbox` and the docs."""
        self._static_args()
        return {
            "bwrap": self.bwrap,
            "python": self._python,
            "uids": f"{self._uids[0]}.. ({len(self._uids)})" if self.is_root else "own uid",
            "cgroups": self._cgroups.describe() if self._cgroups else "off",
            "seccomp": self.seccomp_note,
            "subreaper": self.subreaper,
            "zygote_lanes": self.lanes_note,
        }

    # ----- launching -------------------------------------------------------------

    def launch(self, bot_path: Path, limits: Limits) -> subprocess.Popen[bytes]:
        if not self._checked:
            self.check()
        SANDBOX_STARTS.add()
        if Path(bot_path).is_dir():  # an unpacked build of another language
            return native.start_bot(self, Path(bot_path), limits)
        if self._use_lanes:
            try:
                return self.lanes.spawn(Path(bot_path), limits)  # type: ignore[return-value]
            except (LaneError, OSError):
                pass  # a bwrap of its own, as without lanes
        return self._start(Path(bot_path), limits)

    # ----- what zygote lanes need (workers/sandbox/zygote_lanes.py) ---------------------

    def warm_lanes(self, count: int = 2) -> None:
        """Start `count` zygote lanes now (where they are on): once per worker process,
        so that its first set starts as fast as the others."""
        if self._use_lanes:
            with contextlib.suppress(LaneError, OSError):
                self.lanes.warm(count)

    def close(self) -> None:
        """Close this launcher's zygote lanes."""
        if self._lanes is not None:
            self._lanes.close()

    @property
    def lanes(self) -> LanePool:
        if self._lanes is None:
            self._lanes = LanePool(self, MAX_LANES)
        return self._lanes

    def lane_options(self) -> list[str]:
        """bwrap's options for a lane: a bot's view, with nothing writable at all (each
        bot mounts its own /tmp, /dev/shm and file) and, inside the lane's user
        namespace only, the capabilities to build a bot's namespaces and drop them."""
        return [
            *self._static_args(),
            "--dir", "/tmp",
            "--dir", SANDBOX_BOT_DIR,
            "--ro-bind", str(compiled_file(ZYGOTE_SOURCE)), SANDBOX_ZYGOTE,
            "--remount-ro", "/dev",
            "--remount-ro", "/",
            "--chdir", "/",
            "--cap-add", "CAP_SYS_ADMIN",
            "--cap-add", "CAP_SETPCAP",
        ]  # fmt: skip

    def lane_command(
        self, uid: int, procs_files: list[str], socket_fd: int, args_fd: int
    ) -> list[str]:
        """The zygote's command line: join the lane's cgroup, drop to its uid, bwrap."""
        command = [SHELL, "-c", JOIN_CGROUPS, "arena-sandbox", *procs_files, "--"]
        command += [self.setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]
        command += [self.bwrap, "--args", str(args_fd), "--", self._python or sys.executable]
        command += ["-I", "-S", SANDBOX_ZYGOTE, "--socket", str(socket_fd)]
        command += ["--runner", SANDBOX_RUNNER, "--lib", SANDBOX_LIB]
        if self._codec:
            command += ["--lib", SANDBOX_CODEC]
        return command

    @property
    def seccomp_program(self) -> bytes | None:
        return self._seccomp

    @property
    def cgroups(self) -> CgroupManager | None:
        return self._cgroups

    def lease_uid(self) -> UidLease:
        return self._lease()

    def bot_file_name(self, bot_path: Path) -> str:
        return bot_path.name if SAFE_NAME.fullmatch(bot_path.name) else "bot.py"

    def _spawn_prefix(
        self,
        uid: int | None,
        limits: Limits,
        processes: int,
        procs_files: list[str],
        address_space_mb: int | None = None,
    ) -> list[str]:
        """The commands that prepare a sandbox's first process, each exec'ing the next:
        the shell joins the bot's cgroups (as root, before anything of the bot runs),
        prlimit sets the rlimits (the address space `memory_mb` unless given), setpriv
        drops to the leased uid with no groups. A failure stops the chain with a message
        on the bot's stderr before bwrap."""
        memory = (address_space_mb or limits.memory_mb) << 20
        size = limits.file_size_mb << 20
        cpu = limits.cpu_seconds
        if uid is None:
            # Not root: the bot shares this uid, so its process limit must leave room for ours.
            processes += _count_own_processes()
        prefix = [SHELL, "-c", JOIN_CGROUPS, "arena-sandbox", *procs_files, "--"]
        prefix += [
            self.prlimit,
            f"--as={memory}",
            f"--cpu={cpu}:{cpu + 1}",
            f"--nofile={limits.open_files}",
            f"--fsize={size}",
            "--core=0",
            f"--nproc={processes}",
            "--",
        ]
        if uid is not None:
            prefix += [self.setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]
        return prefix

    def _lease(self) -> UidLease:
        if not self.is_root:
            return UidLease(os.getuid(), None)
        if self._lock_dir is None:
            self._lock_dir = _lock_dir()
        for uid in self._uids:
            fd = os.open(f"{self._lock_dir}/uid-{uid}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EACCES):
                    continue
                raise
            lease = UidLease(uid, fd)
            # A crashed worker may have left something behind under this uid.
            if not lease.was_clean() and not _kill_uid(uid, time.monotonic() + 1.0):
                lease.release()
                continue
            lease.mark(clean=False)
            return lease
        raise SandboxUnavailable(f"all {len(self._uids)} sandbox uids are busy")

    def _start(
        self, bot_path: Path, limits: Limits, command: list[str] | None = None
    ) -> SandboxedProcess:
        static = self._static_args()
        name = self.bot_file_name(bot_path)
        lease = self._lease()
        cgroup = None
        fds: list[int] = []
        try:
            processes = limits.max_processes + 2  # + bwrap and its pid-1 reaper
            if self._cgroups is not None:
                cgroup = self._cgroups.create(
                    f"uid-{lease.uid}",
                    processes,
                    (limits.memory_mb + limits.tmp_mb) << 20,
                )
            bot_fd = os.open(bot_path, os.O_RDONLY | os.O_CLOEXEC)
            fds.append(bot_fd)
            options = list(static)
            options += native.scratch_mounts(limits.tmp_mb << 20)
            options += ["--ro-bind-data", str(bot_fd), f"{SANDBOX_BOT_DIR}/{name}"]
            code_args, code_key = self.code_options(bot_fd, name, limits, options, fds)
            options += ["--remount-ro", "/", "--chdir", "/tmp"]
            if self._seccomp is not None:
                fds.append(_pipe_with(self._seccomp))
                options += ["--seccomp", str(fds[-1])]
            # Options travel through a pipe: the sandbox's /proc/1/cmdline then shows
            # no host paths.
            fds.append(_pipe_with(b"".join(o.encode() + b"\0" for o in options)))
            args = self._spawn_prefix(
                lease.uid if self.is_root else None,
                limits,
                processes,
                cgroup.procs_files if cgroup else [],
            )
            args += [self.bwrap, "--args", str(fds[-1]), "--", self._python or sys.executable]
            args += ["-I", "-S"]
            if command is not None:
                args += command
            else:
                args += [SANDBOX_RUNNER, "--lib", SANDBOX_LIB]
                if self._codec:
                    args += ["--lib", SANDBOX_CODEC]
                args += code_args
                args.append(f"{SANDBOX_BOT_DIR}/{name}")
            # No preexec_fn and no user= here: either makes Python fork() the worker,
            # which costs ~10 ms for a 55 MB worker on these VMs; without them the
            # spawn is a vfork() (~0.3 ms) and the prefix applies the same set-up.
            process = SandboxedProcess(
                args,
                lease=lease,
                cgroup=cgroup,
                limits=limits,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={},
                cwd="/",
                start_new_session=True,
                close_fds=True,
                pass_fds=fds,
            )
            # The runner's first line is then its compiled code (workers/play/bot_process.py).
            process.code_key = code_key if command is None else None
            return process
        except BaseException:
            if cgroup is not None:
                cgroup.remove(timeout=0.2)
            lease.release()
            raise
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def code_options(
        self, bot_fd: int, name: str, limits: Limits, options: list[str], fds: list[int]
    ) -> tuple[list[str], str | None]:
        """The runner's arguments for the bot's cached code (workers/sandbox/code_cache.py): bound
        read-only when the cache has it, else asked for; the key to store it under."""
        try:
            size = os.fstat(bot_fd).st_size
            if size > code_cache.MAX_SOURCE_BYTES:
                return [], None
            source = os.pread(bot_fd, size + 1, 0)
        except OSError:
            return [], None
        key = code_cache.code_key(source, name, self._python or sys.executable)
        path = code_cache.cached_path(key)
        if path is not None:
            with contextlib.suppress(OSError):
                fds.append(os.open(path, os.O_RDONLY | os.O_CLOEXEC))
                options += ["--ro-bind-data", str(fds[-1]), code_cache.SANDBOX_CODE]
                return ["--code", code_cache.SANDBOX_CODE], None
        if code_cache.cache_dir() is None:
            return [], None
        # The line counts against the bot's output limits: it takes a share of them only.
        room = min(
            2 * code_cache.MAX_CODE_BYTES,
            limits.output_bytes_per_move // 2,
            limits.output_bytes_per_match // 4,
        )
        return ["--emit-code", str(room)], key
