"""Building an author's bot on their own machine for `arena play`, as a worker builds it.

A bot in another language (a source file such as bot.cpp, a folder or an archive with
arena.toml) is read and checked with the arena's own rules (arena/languages.py,
arena/bot_archives.py), built by the same build (workers/sandbox/builds.py) in the
sandbox, or as a plain process with `--isolation process`, and unpacked into the same
cache a worker plays from. No Django here: the `arena` command runs without a service.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from arena.bot_archives import ArchiveError, ArchiveLimits, is_archive, read_archive
from arena.languages import (
    MANIFEST,
    ManifestError,
    language_of_file,
    manifest_for_file,
    manifest_of_archive,
)
from bots.sdk.folders import FolderError, folder_files
from workers.sandbox import artifacts
from workers.sandbox.builds import build

MAX_FOLDER_BYTES = 16 << 20


class LocalBuildError(Exception):
    """A local bot that does not build: the message (compiler output included) says why."""


def needs_build(path: Path) -> bool:
    """Whether `arena play` must build this bot first (everything but a .py or a Python zip)."""
    if path.is_dir():
        return (path / MANIFEST).is_file()
    name = path.name.lower()
    if name.endswith(".py"):
        return False
    if name.endswith(".zip"):
        try:
            files = read_archive(path.read_bytes(), name, ArchiveLimits(max_bytes=MAX_FOLDER_BYTES))
        except (ArchiveError, OSError):
            return False  # the Python loader reports what is wrong with it
        return MANIFEST in files
    return is_archive(name) or language_of_file(name) is not None


def build_local(path: Path, launcher) -> Path:  # type: ignore[no-untyped-def]
    """Build the bot at `path` with `launcher`'s walls; the folder a launcher starts it from."""
    try:
        if path.is_dir():
            files = folder_files(path)
            manifest = manifest_of_archive(files, zip_file=True)
        elif is_archive(path.name):
            limits = ArchiveLimits(max_bytes=MAX_FOLDER_BYTES)
            files = read_archive(path.read_bytes(), path.name, limits)
            manifest = manifest_of_archive(files, zip_file=path.name.lower().endswith(".zip"))
        else:
            manifest = manifest_for_file(path.name)
            files = {manifest.entry: path.read_bytes()}
    except (ArchiveError, ManifestError, FolderError, OSError) as exc:
        raise LocalBuildError(f"{path}: {exc}") from None
    built = build(launcher, files, manifest)
    if built.artifact is None:
        raise LocalBuildError(f"{path} did not build:\n{built.log}")
    artifact = built.artifact
    return artifacts.unpacked(hashlib.sha256(artifact).hexdigest(), lambda: artifact)
