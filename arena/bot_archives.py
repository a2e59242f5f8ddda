"""Reading an uploaded bot archive (zip or tar) safely, before anything is unpacked.

Every entry is checked from the archive's own listing first, and its bytes are then
read within bounds, never written anywhere by name: the caller gets a dict of relative
path -> bytes and lays them out itself (the build sandbox's scratch folder). Refused,
each with its own message: an archive that does not open, more than `max_files` entries,
more than `max_bytes` unpacked (whatever the headers claim), absolute paths, `..`,
backslashes or control characters in a name, the same name twice, links that leave the
archive (a link inside it becomes a copy of what it points to), and devices, FIFOs and
sockets.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2")
MAX_FILES = 500
MAX_NAME = 255


class ArchiveError(ValueError):
    """An archive the arena refuses to unpack: the message says why."""


@dataclass(frozen=True)
class ArchiveLimits:
    max_files: int = MAX_FILES
    max_bytes: int = 2 << 20


def is_archive(filename: str) -> bool:
    return filename.lower().endswith(ARCHIVE_SUFFIXES)


def read_archive(data: bytes, filename: str, limits: ArchiveLimits) -> dict[str, bytes]:
    """The archive's regular files by relative path; ArchiveError for anything refused."""
    if filename.lower().endswith(".zip"):
        return _read_zip(data, limits)
    return _read_tar(data, limits)


def check_name(name: str) -> str:
    """A member's path, normalised (no leading ./, no trailing /), or ArchiveError."""
    if not name or len(name) > MAX_NAME * 4:
        raise ArchiveError(f"an entry has an empty or overlong name: {name[:80]!r}")
    if any(ord(c) < 32 or c == "\x7f" for c in name) or "\\" in name:
        raise ArchiveError(f"unsafe name in the archive (control character or \\): {name!r}")
    if name.startswith("/"):
        raise ArchiveError(f"unsafe path in the archive (absolute): {name!r}")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"unsafe path in the archive ('..'): {name!r}")
    if not parts:
        raise ArchiveError(f"an entry names no file: {name!r}")
    if any(len(part) > MAX_NAME for part in parts):
        raise ArchiveError(f"a name in the archive is over {MAX_NAME} characters: {name[:80]!r}")
    return "/".join(parts)


def resolve_link(name: str, target: str) -> str:
    """Where a symbolic link at `name` points, inside the archive, or ArchiveError."""
    if not target or target.startswith("/"):
        raise ArchiveError(f"link {name!r} points outside the archive ({target!r})")
    parts = list(PurePosixPath(name).parent.parts)
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise ArchiveError(f"link {name!r} points outside the archive ({target!r})")
            parts.pop()
        else:
            parts.append(part)
    if not parts:
        raise ArchiveError(f"link {name!r} points outside the archive ({target!r})")
    return "/".join(parts)


class _Collector:
    """The files read so far, their total size, and the links to copy once all are read."""

    def __init__(self, limits: ArchiveLimits) -> None:
        self.limits = limits
        self.files: dict[str, bytes] = {}
        self.links: dict[str, str] = {}
        self.total = 0
        self.seen: set[str] = set()

    def count(self, name: str) -> str:
        path = check_name(name)
        if path in self.seen:
            raise ArchiveError(f"the archive holds {path!r} twice")
        self.seen.add(path)
        if len(self.seen) > self.limits.max_files:
            raise ArchiveError(f"the archive holds more than {self.limits.max_files} entries")
        return path

    def room(self) -> int:
        return self.limits.max_bytes - self.total

    def add(self, path: str, content: bytes) -> None:
        self.total += len(content)
        if self.total > self.limits.max_bytes:
            raise ArchiveError(f"the archive unpacks to more than {self.limits.max_bytes} bytes")
        self.files[path] = content

    def finish(self) -> dict[str, bytes]:
        for name, target in self.links.items():
            resolved, hops = target, 0
            while resolved in self.links and hops <= len(self.links):
                resolved, hops = self.links[resolved], hops + 1
            if resolved not in self.files:
                raise ArchiveError(f"link {name!r} points to {target!r}, not a file in the archive")
            self.add(name, self.files[resolved])
        return self.files


def _read_zip(data: bytes, limits: ArchiveLimits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise ArchiveError("the file is not a valid zip archive") from None
    collected = _Collector(limits)
    for entry in entries:
        mode = entry.external_attr >> 16
        if entry.is_dir():
            check_name(entry.filename)
            continue
        path = collected.count(entry.filename)
        kind = stat.S_IFMT(mode)
        if kind and kind not in (stat.S_IFREG, stat.S_IFLNK):
            raise ArchiveError(f"{path!r} is a device, FIFO or socket: only files are allowed")
        content = _read_zip_entry(archive, entry, collected.room(), limits.max_bytes)
        if kind == stat.S_IFLNK:
            target = content.decode("utf-8", errors="replace")
            collected.links[path] = resolve_link(path, target)
        else:
            collected.add(path, content)
    return collected.finish()


def _read_zip_entry(
    archive: zipfile.ZipFile, entry: zipfile.ZipInfo, room: int, limit: int
) -> bytes:
    too_big = f"the archive unpacks to more than {limit} bytes"
    if entry.file_size > room:
        raise ArchiveError(too_big)
    try:
        with archive.open(entry) as handle:
            # At most one byte past the room: a zip's declared sizes can lie.
            content = handle.read(room + 1)
    except (
        zipfile.BadZipFile,
        zlib.error,
        RuntimeError,
        OSError,
        EOFError,
        NotImplementedError,
    ) as exc:
        raise ArchiveError(f"cannot read {entry.filename!r} from the zip: {exc}") from None
    if len(content) > room:
        raise ArchiveError(too_big)
    return content


def _read_tar(data: bytes, limits: ArchiveLimits) -> dict[str, bytes]:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")  # noqa: SIM115
    except (tarfile.TarError, OSError, EOFError, zlib.error, ValueError):
        raise ArchiveError("the file is not a valid tar archive") from None
    with archive:
        return _collect_tar(archive, limits)


def _collect_tar(archive: tarfile.TarFile, limits: ArchiveLimits) -> dict[str, bytes]:
    collected = _Collector(limits)
    try:
        for member in archive:
            if member.isdir():
                check_name(member.name)
                continue
            path = collected.count(member.name)
            if member.issym():
                collected.links[path] = resolve_link(path, member.linkname)
            elif member.islnk():
                collected.links[path] = check_name(member.linkname)
            elif not member.isreg():
                raise ArchiveError(f"{path!r} is a device, FIFO or socket: only files are allowed")
            else:
                if member.size > collected.room():
                    raise ArchiveError(f"the archive unpacks to more than {limits.max_bytes} bytes")
                handle = archive.extractfile(member)
                collected.add(path, handle.read(member.size) if handle else b"")
    except ArchiveError:
        raise
    except (tarfile.TarError, OSError, EOFError, zlib.error, ValueError) as exc:
        raise ArchiveError(f"the tar archive is damaged: {exc}") from None
    return collected.finish()
