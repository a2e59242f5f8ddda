"""Built bots unpacked on this host, once per artefact, for sandboxes to run from.

A version's artefact (workers/sandbox/builds.py) is fetched from the database the first
time this host plays it and unpacked under a folder named by its hash: `run.json` and
`files/`, which a native bot's sandbox binds read-only (workers/sandbox/native.py). The
folder is made beside and renamed into place, so a half-unpacked build is never used,
and two processes unpacking the same one at once both end with a whole folder. It is
readable by every uid (the sandboxes' uids must read it) and writable by none but this
worker's. At most MAX_ENTRIES are kept; the least recently used go first, never one
used in the last KEEP_SECONDS (a sandbox may be starting from it).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import shutil
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arena.bot_archives import ArchiveLimits, read_archive
from workers.sandbox.builds import write_files
from workers.sandbox.native import BuildLimits
from workers.sandbox.scratch import scratch_dir

MAX_ENTRIES = 256
KEEP_SECONDS = 3600.0
HASH = re.compile(r"[0-9a-f]{64}")


class ArtifactError(RuntimeError):
    """An artefact that does not unpack (damaged in storage): the worker's fault."""


@functools.cache
def cache_dir() -> Path:
    base = scratch_dir() or tempfile.gettempdir()
    path = Path(base) / f"arena-builds-u{os.getuid()}"
    path.mkdir(mode=0o755, exist_ok=True)
    info = path.lstat()
    if info.st_uid != os.getuid() or not path.is_dir() or path.is_symlink():
        raise ArtifactError(f"{path} is not this worker's own folder")
    os.chmod(path, 0o755)
    return path


def unpacked(sha256: str, load: Callable[[], bytes]) -> Path:
    """The folder holding the artefact `sha256`, unpacked now (with `load`) if need be."""
    if not HASH.fullmatch(sha256):
        raise ArtifactError(f"not an artefact hash: {sha256!r}")
    folder = cache_dir() / sha256
    if folder.is_dir():
        with contextlib.suppress(OSError):
            os.utime(folder)
        return folder
    _evict(cache_dir())
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=cache_dir()))
    try:
        limit = (BuildLimits().output_mb << 20) + (1 << 20)
        data = load()
        try:
            files = read_archive(data, "artifact.tar.gz", ArchiveLimits(max_bytes=limit))
            write_files(staging, files)
            _restore_modes(staging, data)
        except (ValueError, tarfile.TarError) as exc:
            raise ArtifactError(f"the stored build {sha256[:12]} does not unpack: {exc}") from None
        os.chmod(staging, 0o755)
        try:
            os.rename(staging, folder)
        except OSError:
            if not folder.is_dir():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return folder


def _restore_modes(folder: Path, data: bytes) -> None:
    """Executables stay executable (the archive reader keeps bytes only)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isreg() and member.mode & 0o100:
                path = folder / member.name
                if path.is_file() and not path.is_symlink():
                    os.chmod(path, 0o755)


def _evict(base: Path) -> None:
    entries = []
    with os.scandir(base) as listing:
        for entry in listing:
            if HASH.fullmatch(entry.name):
                with contextlib.suppress(OSError):
                    entries.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
    if len(entries) < MAX_ENTRIES:
        return
    now = time.time()
    for mtime, path in sorted(entries)[: len(entries) - MAX_ENTRIES + 1]:
        if now - mtime > KEEP_SECONDS:
            shutil.rmtree(path, ignore_errors=True)
