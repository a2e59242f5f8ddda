"""Building a bot once per version, in a sandbox of its own, into a build artefact.

The upload's files (already checked: arena/bot_archives.py) are written into a scratch
folder, which the build's sandbox sees writable at /build and nothing else of the host:
no network, a private /tmp, the build limits (`BuildLimits`: time, memory, processes,
file size). Its output (stdout and stderr, interleaved as they come, the last
`log_bytes` kept) is what the author reads when the build fails. What the folder holds
afterwards, regular files only (a link the build made is dropped, never followed), is
packed with the run spec as the artefact (`pack`): a tar.gz that workers unpack into
their cache (workers/sandbox/artifacts.py). A language with no build (JavaScript) is
packed as uploaded.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import selectors
import shutil
import stat
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from arena.languages import PROGRAM, Manifest
from workers.sandbox.native import FILES, RUN_SPEC, BuildLimits, start_build
from workers.sandbox.scratch import folder_prefix, is_full, places

# How often a running build's folder is measured against its output cap.
DISK_LOOK_SECONDS = 0.5


@dataclass(frozen=True)
class Build:
    """A build's outcome: the artefact (None when it failed) and what it printed."""

    artifact: bytes | None
    log: str
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.artifact is not None


def build(
    launcher,  # type: ignore[no-untyped-def]
    files: dict[str, bytes],
    manifest: Manifest,
    limits: BuildLimits | None = None,
) -> Build:
    """Build the files as the manifest says; the artefact or the reason it failed.

    Raises only when the sandbox itself cannot run (the worker's fault, retried)."""
    limits = limits or BuildLimits()
    scratch = _scratch_folder()
    try:
        source = Path(scratch) / "src"
        source.mkdir(mode=0o755)
        write_files(source, files)
        log, seconds = "", 0.0
        if manifest.build:
            started = time.monotonic()
            failure, log = _run(launcher, source, manifest.build, limits)
            seconds = time.monotonic() - started
            if failure is not None:
                return Build(None, _with_reason(log, failure), seconds)
        problem, kept = _outputs(source, manifest, limits)
        if problem is not None:
            return Build(None, _with_reason(log, problem), seconds)
        return Build(pack(source, kept, manifest), log, seconds)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _scratch_folder() -> str:
    for place in places():
        try:
            folder = tempfile.mkdtemp(prefix=folder_prefix("build"), dir=place)
            os.chmod(folder, 0o711)  # the build's uid passes through to its own src/
            return folder
        except OSError as exc:
            if place is None or not is_full(exc):
                raise
    raise AssertionError("unreachable")


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """Lay checked relative paths out under `folder` (world-readable: the sandbox's uid)."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        with open(path, "xb") as handle:
            handle.write(content)
        os.chmod(path, 0o644)


def _with_reason(log: str, reason: str) -> str:
    return f"{log.rstrip()}\n--- {reason}" if log.strip() else reason


def _run(launcher, source: Path, command: str, limits: BuildLimits) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    """Run the build; (why it failed or None, its output's tail)."""
    process = start_build(launcher, source, command, limits)
    output = bytearray()
    dropped = 0
    deadline = time.monotonic() + limits.seconds
    timed_out = too_big = False
    assert process.stdout is not None and process.stderr is not None and process.stdin
    process.stdin.close()
    with selectors.DefaultSelector() as selector:
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
            selector.register(stream, selectors.EVENT_READ)
        next_look = time.monotonic() + DISK_LOOK_SECONDS
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if time.monotonic() >= next_look:
                next_look = time.monotonic() + DISK_LOOK_SECONDS
                if _folder_bytes(source) > (limits.output_mb << 20):
                    too_big = True
                    break
            for key, _ in selector.select(min(left, DISK_LOOK_SECONDS)):
                chunk = _read(key.fileobj)  # type: ignore[arg-type]
                if chunk is None:
                    continue
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                output += chunk
                if len(output) > 2 * limits.log_bytes:
                    dropped += len(output) - limits.log_bytes
                    del output[: len(output) - limits.log_bytes]
    if timed_out or too_big:
        process.kill()
    try:
        code = process.wait(timeout=10)
    except Exception:
        process.kill()
        code = process.wait()
    for stream in (process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            stream.close()
    text = output[-limits.log_bytes :].decode("utf-8", errors="replace")
    if dropped or len(output) > limits.log_bytes:
        text = "[earlier output cut]\n" + text
    if timed_out:
        return f"the build took longer than {limits.seconds:g} s", text
    if too_big:
        return f"the build was stopped: its folder passed {limits.output_mb} MB", text
    cause = getattr(process, "death_cause", None)
    if cause:
        return f"the build was stopped: {cause}", text
    if code != 0:
        how = f"signal {-code}" if code < 0 else f"status {code}"
        return f"the build failed (exit {how})", text
    return None, text


def _folder_bytes(folder: Path) -> int:
    """What the build's folder holds now (a folder on disk is held by no memory limit)."""
    total = 0
    for root, _, names in os.walk(folder, followlinks=False):
        for name in names:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
    return total


def _read(stream) -> bytes | None:  # type: ignore[no-untyped-def]
    """A chunk of output, b"" at its end, None when nothing is there yet."""
    try:
        return os.read(stream.fileno(), 65536)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _outputs(
    source: Path, manifest: Manifest, limits: BuildLimits
) -> tuple[str | None, list[tuple[str, bool]]]:
    """The build folder's regular files (relative path, executable) and any problem."""
    kept: list[tuple[str, bool]] = []
    total = 0
    cap = limits.output_mb << 20
    for root, dirs, names in os.walk(source, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                continue  # links, FIFOs, sockets the build made stay behind
            total += info.st_size
            if total > cap:
                return f"the build left more than {limits.output_mb} MB", []
            relative = os.path.relpath(path, source)
            kept.append((relative, bool(info.st_mode & stat.S_IXUSR)))
    names = {name for name, _ in kept}
    compiled = manifest.language.run[:1] == (f"./{PROGRAM}",)
    if compiled and (PROGRAM not in names or not dict(kept)[PROGRAM]):
        return f"the build did not leave an executable '{PROGRAM}' in its folder", []
    return None, kept


def pack(source: Path, kept: list[tuple[str, bool]], manifest: Manifest) -> bytes:
    """The artefact: run.json and files/<path> for each kept file, as a tar.gz."""
    buffer = io.BytesIO()
    # No timestamps anywhere: the same build gives the same bytes, stored once.
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=6, mtime=0) as compressed,
        tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        spec = json.dumps(manifest.to_dict(), sort_keys=True).encode()
        _add(archive, RUN_SPEC, spec, executable=False)
        for relative, executable in kept:
            # O_NOFOLLOW: the build cannot have swapped a file for a link since the walk.
            fd = os.open(source / relative, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as handle:
                content = handle.read()
            _add(archive, f"{FILES}/{relative}", content, executable=executable)
    return buffer.getvalue()


def _add(archive: tarfile.TarFile, name: str, content: bytes, *, executable: bool) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mode = 0o755 if executable else 0o644
    info.mtime = 0
    archive.addfile(info, io.BytesIO(content))
