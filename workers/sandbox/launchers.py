"""Starting bot processes. A launcher turns a bot file into a running runner process.

`TrustedProcessLauncher` gives a bot its own process with rlimits, an empty
environment and its own session, but no isolation: it is for trusted local
bots only (`arena play --isolation process`). Untrusted bots go through the
bubblewrap sandbox in `workers/sandbox/bubblewrap.py`, which has the same interface.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import py_compile
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from workers.sandbox.limits import Limits
from workers.sandbox.native import FILES, read_run_spec, run_argv

RUNNER = Path(__file__).resolve().parents[2] / "bots" / "sdk" / "runner.py"
PROJECT_ROOT = RUNNER.parent.parent.parent


@functools.cache
def compiled_runner() -> Path:
    """The runner compiled once, as a .pyc that Python runs directly (or the source).

    Every bot start would otherwise compile the runner's ~400 lines (~3 ms of CPU, as much
    as a quick bot's whole match)."""
    return compiled_file(RUNNER)


@functools.cache
def compiled_file(source_path: Path) -> Path:
    """A module compiled once into a world-readable .pyc named by a hash of its source,
    written once per host (or the source itself when no folder takes it). The bots'
    interpreter has the same minor version (workers/sandbox/bubblewrap.py chooses it so), hence
    the same bytecode format."""
    source = source_path.read_bytes()
    digest = hashlib.sha256(source + sys.version.encode()).hexdigest()[:20]
    stem = source_path.stem
    for base in ("/run/arena-sandbox-lib", os.path.join(tempfile.gettempdir(), "arena-runner")):
        target = Path(base) / f"{stem}-{digest}.pyc"
        try:
            if not target.exists():
                os.makedirs(base, mode=0o755, exist_ok=True)
                handle, staging = tempfile.mkstemp(dir=base, suffix=".pyc")
                os.close(handle)
                py_compile.compile(
                    str(source_path),
                    cfile=staging,
                    dfile=source_path.name,
                    doraise=True,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                )
                os.chmod(staging, 0o644)
                os.replace(staging, target)
            return target
        except (OSError, py_compile.PyCompileError):
            continue
    return source_path


def fast_codec_file() -> Path | None:
    """The worker's orjson extension, for the bot runner's `--lib` (or None).

    The runner imports it from a folder of its own and falls back to the standard
    library's `_json` when it cannot (another interpreter version, no orjson): the
    protocol is the same JSON lines either way, only faster to read and write.
    """
    try:
        import orjson
    except ImportError:
        return None
    module = getattr(orjson, "orjson", orjson)
    found = getattr(module, "__file__", None)
    if not found or not found.endswith(".so"):
        return None
    return Path(found)


def real_python() -> str:
    """The interpreter binary itself: going through a pyenv shim costs ~80 ms a launch."""
    return os.path.realpath(sys.executable)


class Launcher(Protocol):
    name: str

    def check(self) -> None:
        """Raise with one clear message if this launcher cannot work on this host."""
        ...

    def launch(self, bot_path: Path, limits: Limits) -> subprocess.Popen[bytes]: ...


def launch_all(
    launcher: Launcher, paths: Sequence[Path], limits: Limits
) -> list[subprocess.Popen[bytes] | Exception]:
    """Start a set's bots side by side: each start waits mostly on the kernel (the
    sandbox's cgroup directories, the spawn), so two starts overlap (measured: 2
    sandboxed starts 8.4 -> 5.2 ms wall, the same CPU). Each entry is the process or
    the exception its start raised, in the order of `paths`; the caller closes them."""
    results: list[subprocess.Popen[bytes] | Exception] = [RuntimeError("not started")] * len(paths)

    def start(index: int) -> None:
        try:
            results[index] = launcher.launch(paths[index], limits)
        except Exception as exc:
            results[index] = exc

    threads = [threading.Thread(target=start, args=(i,)) for i in range(1, len(paths))]
    for thread in threads:
        thread.start()
    if paths:
        start(0)
    for thread in threads:
        thread.join()
    return results


def rlimit_setter(limits: Limits, processes: bool = False):  # type: ignore[no-untyped-def]
    """A preexec function applying the per-bot rlimits in the child."""

    def apply() -> None:
        memory = limits.memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        size = limits.file_size_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if processes:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.max_processes, limits.max_processes))

    return apply


class StartCounter:
    """Bots this process has started, handed over in batches (workers/node/heartbeat.py adds them
    to the arena's counter in Redis after each task, off the path of a start)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending = 0

    def add(self, count: int = 1) -> None:
        with self._lock:
            self._pending += count

    def take(self) -> int:
        with self._lock:
            taken, self._pending = self._pending, 0
        return taken


SANDBOX_STARTS = StartCounter()


class _ProcessWithScratch(subprocess.Popen[bytes]):
    """A trusted bot's process whose scratch folder goes once the process is waited for."""

    scratch = ""

    def _remove_scratch(self) -> None:
        if self.returncode is not None and self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = ""

    def poll(self) -> int | None:
        code = super().poll()
        self._remove_scratch()
        return code

    def wait(self, timeout: float | None = None) -> int:
        code = super().wait(timeout)
        self._remove_scratch()
        return code


class TrustedProcessLauncher:
    name = "process"

    def check(self) -> None:
        if not RUNNER.is_file():
            raise RuntimeError(f"the bot runner is missing at {RUNNER}")

    def launch(self, bot_path: Path, limits: Limits) -> subprocess.Popen[bytes]:
        if Path(bot_path).is_dir():  # an unpacked build of another language
            return self._launch_native(Path(bot_path), limits)
        workdir = tempfile.mkdtemp(prefix="arena-bot-")
        libs = ["--lib", str(PROJECT_ROOT)]
        codec = fast_codec_file()
        if codec is not None:
            libs += ["--lib", str(codec.parent)]
        process = _ProcessWithScratch(
            [
                real_python(),
                "-I",
                "-S",
                str(compiled_runner()),
                *libs,
                str(Path(bot_path).resolve()),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env={"LANG": "C.UTF-8", "HOME": workdir, "TMPDIR": workdir},
            start_new_session=True,
            preexec_fn=rlimit_setter(limits),
            close_fds=True,
        )
        process.scratch = workdir
        return process

    def _launch_native(self, folder: Path, limits: Limits) -> subprocess.Popen[bytes]:
        """A built bot of another language, with its runtime's allowances (workers/sandbox/native.py)."""
        language, entry = read_run_spec(folder)
        files = folder / FILES
        workdir = tempfile.mkdtemp(prefix="arena-bot-")
        roomier = dataclasses.replace(
            limits, memory_mb=min(8192, limits.memory_mb + language.extra_address_space_mb)
        )
        process = _ProcessWithScratch(
            run_argv(language, entry, limits, bot_dir=str(files)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=files,
            env={"LANG": "C.UTF-8", "HOME": workdir, "TMPDIR": workdir, "PATH": "/usr/bin:/bin"},
            start_new_session=True,
            preexec_fn=rlimit_setter(roomier),
            close_fds=True,
        )
        process.scratch = workdir
        process.warmup_seconds = language.warmup_seconds  # type: ignore[attr-defined]
        return process
