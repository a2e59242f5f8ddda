"""A bot's folder as the files it is made of: what `arena submit DIR` zips and what
`arena play DIR` builds (a bot in another language is a folder with arena.toml).

Hidden files and folders, caches and earlier build outputs stay out, so a folder the
author has built in locally sends the same files as a fresh one.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

SKIPPED_NAMES = frozenset({"__pycache__", "bot", "target", "node_modules"})
SKIPPED_SUFFIXES = (".class", ".o", ".pyc")
MAX_FOLDER_BYTES = 16 << 20


class FolderError(Exception):
    """A folder that cannot be sent as a bot; one line."""


def folder_files(folder: Path, max_bytes: int = MAX_FOLDER_BYTES) -> dict[str, bytes]:
    """Relative path (with /) -> bytes of every file the bot is made of."""
    files: dict[str, bytes] = {}
    total = 0
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") or part in SKIPPED_NAMES for part in relative.parts):
            continue
        if path.is_symlink() or not path.is_file() or path.suffix in SKIPPED_SUFFIXES:
            continue
        content = path.read_bytes()
        total += len(content)
        if total > max_bytes:
            raise FolderError(f"{folder} holds more than {max_bytes} bytes of files")
        files[relative.as_posix()] = content
    if not files:
        raise FolderError(f"{folder} holds no files to send")
    return files


def zip_folder(folder: Path, max_bytes: int = MAX_FOLDER_BYTES) -> bytes:
    """The folder's files as a zip, in a stable order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in folder_files(folder, max_bytes).items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, content, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
