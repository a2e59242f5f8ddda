"""Programs other than the Python runner in the bubblewrap sandbox: a bot's build, and a
bot written in another language.

The walls are the Python bots' (workers/sandbox/bubblewrap.py): new namespaces, no
network, a read-only view of /usr, a private /tmp, an empty environment, a uid and a
cgroup of its own, the rlimits and the seccomp filter. What changes is the folder and
the command:

* a bot runs from its unpacked build (workers/sandbox/artifacts.py), bound read-only at
  /arena/bot and its working folder, with its language's run command
  (arena/languages.py). A runtime's allowances raise its address-space rlimit and
  process count, never its memory: the cgroup still holds it to the bot's memory limit.
* a build runs in its scratch folder, bound writable at /build (the only place it can
  write but /tmp), with the build limits (`BuildLimits`).

Tools are found on the host (`/usr/bin/java` is a link through /etc/alternatives, which
a bot's sandbox does not see) and must resolve under /usr, which the sandbox binds. A
build's command names its tools by their links (`javac`, and rustc's linker `cc`), so a
build also sees /etc/alternatives, read-only: links into /usr and nothing else of /etc.
Debian's OpenJDK keeps its jvm.cfg and security settings in /etc/java-<version>-openjdk,
linked from under /usr: a Java bot and every build see those folders too, read-only.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from arena.languages import LANGUAGES, PROGRAM, Language
from workers.sandbox.limits import Limits
from workers.sandbox.process import (
    SandboxedProcess,
    SandboxUnavailable,
    _pipe_with,
)

SANDBOX_BOT_DIR = "/arena/bot"
SANDBOX_BUILD_DIR = "/build"
# The file beside a bot's unpacked build that says how it runs.
RUN_SPEC = "run.json"
FILES = "files"
TOOL_PATH = "/usr/bin:/bin"
# Debian's links from a tool's name to the installed one (javac, cc, c++).
ALTERNATIVES = "/etc/alternatives"
JDK_SETTINGS = "/etc/java-*-openjdk"


class ProgramError(RuntimeError):
    """A native bot's folder the worker cannot start (no run spec, a missing runtime)."""


@dataclass(frozen=True)
class BuildLimits:
    """What a build may use: wall and CPU time, memory, processes, and what it leaves."""

    seconds: float = 120.0
    cpu_seconds: int = 240
    memory_mb: int = 2048
    processes: int = 256
    tmp_mb: int = 512
    file_size_mb: int = 128
    output_mb: int = 64
    log_bytes: int = 64 << 10


def host_tool(name: str) -> str:
    """A runtime or compiler's real path on the host, which must be under /usr."""
    found = shutil.which(name, path=TOOL_PATH)
    if found is None:
        raise SandboxUnavailable(
            f"{name} is not installed on this worker (scripts/bootstrap.sh installs it)"
        )
    real = os.path.realpath(found)
    if not real.startswith("/usr/"):
        raise SandboxUnavailable(
            f"{name} resolves to {real}, outside /usr: the sandbox cannot see it"
        )
    return real


def read_run_spec(folder: Path) -> tuple[Language, str]:
    """The language and entry of an unpacked build (`run.json` beside its files)."""
    try:
        spec = json.loads((folder / RUN_SPEC).read_text())
        return LANGUAGES[spec["language"]], str(spec["entry"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ProgramError(f"{folder} is not an unpacked bot build: {exc}") from None


def run_argv(
    language: Language, entry: str, limits: Limits, bot_dir: str = SANDBOX_BOT_DIR
) -> list[str]:
    """The bot's command: its runtime at its host path, or the built program in `bot_dir`
    (where its files are: /arena/bot in the sandbox)."""
    argv = language.run_argv(entry, heap_mb=max(16, limits.memory_mb // 2))
    if argv[0] == f"./{PROGRAM}":
        return [f"{bot_dir}/{PROGRAM}", *argv[1:]]
    return [host_tool(argv[0]), *argv[1:]]


def scratch_mounts(size_bytes: int) -> list[str]:
    """bwrap's options for a sandbox's writable places: /tmp and /dev/shm, each a tmpfs
    of `size_bytes`, and the rest of /dev read-only, as a zygote lane makes them. bwrap's
    own /dev is an unsized tmpfs: writable, it let a bot keep files past its tmp size
    (bounded by its cgroup's memory alone, and by nothing on a host without cgroups)."""
    size = str(size_bytes)
    return [
        "--size", size, "--tmpfs", "/tmp",
        "--remount-ro", "/dev",
        "--size", size, "--tmpfs", "/dev/shm",
    ]  # fmt: skip


def jdk_settings() -> tuple[str, ...]:
    """The JDKs' settings folders under /etc, which their files under /usr link to."""
    return tuple(sorted(glob.glob(JDK_SETTINGS)))


def start_bot(launcher, folder: Path, limits: Limits) -> SandboxedProcess:  # type: ignore[no-untyped-def]
    """Start an unpacked native bot in a sandbox of its own (no zygote lane: lanes fork
    a Python interpreter)."""
    language, entry = read_run_spec(folder)
    argv = run_argv(language, entry, limits)
    process = start_program(
        launcher,
        folder / FILES,
        argv,
        memory_mb=limits.memory_mb,
        address_space_mb=limits.memory_mb + language.extra_address_space_mb,
        processes=limits.max_processes + language.extra_processes,
        tmp_mb=limits.tmp_mb,
        limits=limits,
        read_only=jdk_settings() if "java" in language.tools else (),
    )
    process.warmup_seconds = language.warmup_seconds  # type: ignore[attr-defined]
    return process


def build_env(build: BuildLimits) -> dict[str, str]:
    return {
        "GOCACHE": "/tmp/go-cache",
        "GOPATH": "/tmp/go",
        "GO111MODULE": "off",
        # javac's JVM would size its heap from the host's memory (it cannot read the
        # cgroup) and not start inside the build's address space on a large host.
        "JAVA_TOOL_OPTIONS": f"-Xmx{max(64, build.memory_mb // 2)}m -XX:+UseSerialGC",
    }


def start_build(  # type: ignore[no-untyped-def]
    launcher, folder: Path, command: str, build: BuildLimits
) -> subprocess.Popen[bytes]:
    """Start a build's shell command in its scratch folder, writable at /build. A trusted
    launcher (`arena play --isolation process`, one's own bots) builds in a plain process."""
    if launcher.name == "process":
        return _start_trusted_build(folder, command, build)
    # What the kernel's kills are reported against (SandboxedProcess.death_cause).
    limits = Limits(
        memory_mb=min(build.memory_mb, 8192),
        cpu_seconds=build.cpu_seconds,
        file_size_mb=min(build.file_size_mb, 1024),
        open_files=1024,
    )
    return start_program(
        launcher,
        folder,
        ["/bin/sh", "-c", command],
        memory_mb=build.memory_mb,
        # Compilers and their linkers map far more than they touch; the cgroup holds memory.
        address_space_mb=build.memory_mb * 4,
        processes=build.processes,
        tmp_mb=build.tmp_mb,
        limits=limits,
        writable=True,
        env=build_env(build),
        read_only=(ALTERNATIVES, *jdk_settings()),
    )


def _start_trusted_build(folder: Path, command: str, build: BuildLimits) -> subprocess.Popen[bytes]:
    """The build as a plain process of the caller's, its temporary files beside `folder`."""
    scratch = folder.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    env = {"PATH": TOOL_PATH, "LANG": "C.UTF-8", "HOME": str(scratch), "TMPDIR": str(scratch)}
    for name, value in build_env(build).items():
        env[name] = (
            str(scratch / value.removeprefix("/tmp/")) if value.startswith("/tmp/") else value
        )
    return subprocess.Popen(
        ["/bin/sh", "-c", command],
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        close_fds=True,
    )


def start_program(  # type: ignore[no-untyped-def]
    launcher,
    folder: Path,
    argv: list[str],
    *,
    memory_mb: int,
    address_space_mb: int,
    processes: int,
    tmp_mb: int,
    limits: Limits,
    writable: bool = False,
    env: dict[str, str] | None = None,
    read_only: tuple[str, ...] = (),
) -> SandboxedProcess:
    """`argv` in a sandbox whose working folder is `folder` (workers/sandbox/bubblewrap.py's
    walls), as a SandboxedProcess that cleans its uid and cgroup up when it ends."""
    if not launcher._checked:
        launcher.check()
    static = launcher._static_args()
    lease = launcher.lease_uid()
    cgroup = None
    fds: list[int] = []
    inside = SANDBOX_BUILD_DIR if writable else SANDBOX_BOT_DIR
    try:
        total = processes + 2  # + bwrap and its pid-1 reaper
        if launcher.cgroups is not None:
            cgroup = launcher.cgroups.create(f"uid-{lease.uid}", total, (memory_mb + tmp_mb) << 20)
        if writable and launcher.is_root:
            _hand_over(folder, lease.uid)
        options = list(static)
        options += scratch_mounts(tmp_mb << 20)
        options += ["--bind" if writable else "--ro-bind", str(folder), inside]
        for path in read_only:
            options += ["--ro-bind-try", path, path]
        for name, value in (env or {}).items():
            options += ["--setenv", name, value]
        options += ["--remount-ro", "/", "--chdir", inside]
        if launcher.seccomp_program is not None:
            fds.append(_pipe_with(launcher.seccomp_program))
            options += ["--seccomp", str(fds[-1])]
        fds.append(_pipe_with(b"".join(o.encode() + b"\0" for o in options)))
        uid = lease.uid if launcher.is_root else None
        procs_files = cgroup.procs_files if cgroup else []
        args = launcher._spawn_prefix(uid, limits, total, procs_files, address_space_mb)
        args += [launcher.bwrap, "--args", str(fds[-1]), "--", *argv]
        return SandboxedProcess(
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
    except BaseException:
        if cgroup is not None:
            cgroup.remove(timeout=0.2)
        lease.release()
        raise
    finally:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def _hand_over(folder: Path, uid: int) -> None:
    """Give the build's uid its scratch folder (never following a link)."""
    os.chown(folder, uid, uid, follow_symlinks=False)
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            os.chown(os.path.join(root, name), uid, uid, follow_symlinks=False)
