"""Bots' compiled code, cached by source: compiled in a bot's sandbox, reused by the next.

Compiling a 300-line bot costs ~2-3 ms of CPU at every sandboxed start (~0.3 ms a match
of a set of 16 quick bots). The worker never compiles a bot's source: the runner does,
inside the sandbox, and when the cache has nothing for that source it sends the compiled
code (marshal, hex) as its very first line, before any of the bot's own code has run
(bots/sdk/runner.py `serve`). The worker only stores those bytes, without decoding
them, under a key made of the source's hash, the bot's file name and the interpreter;
later starts of the same source get the file bound read-only and load it instead of
compiling (a file that does not load is ignored: the runner compiles the source).
Nothing the bot's own code writes can land in the cache: only the first line of a start
that asked for it is taken.

The folder is private to the worker's uid (0700, in memory under /dev/shm where
writable) and bounded: at most MAX_FILES entries of at most MAX_CODE_BYTES each; a full
cache drops its oldest quarter. The runner's code line is never an answer, kept or not
(workers/play/bot_process.py).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import stat
import sys
import tempfile

from workers.sandbox.scratch import scratch_dir

MAX_CODE_BYTES = 512 << 10  # the marshal, in bytes (the line carries twice as many)
MAX_FILES = 4096
MAX_SOURCE_BYTES = 2 << 20  # a bot's file (1 MiB of source, or a zip) to hash
# Where the runner finds the cached code inside the sandbox.
SANDBOX_CODE = "/arena/bot/code.marshal"


@functools.cache
def cache_dir() -> str | None:
    """The cache's folder, made on first use; None when it cannot be made private."""
    base = scratch_dir() or tempfile.gettempdir()
    path = os.path.join(base, f"arena-code-u{os.getuid()}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    # Someone else's folder (or a link) in a shared temp dir is never used.
    if info.st_uid != os.getuid() or (info.st_mode & 0o077) or not stat.S_ISDIR(info.st_mode):
        return None
    return path


def code_key(source: bytes, name: str, python: str) -> str:
    """The cache key: the bot's bytes, its file name (tracebacks show it) and the
    interpreter that runs bots (its bytecode format)."""
    digest = hashlib.sha256()
    for part in (python.encode(), b"%d.%d" % sys.version_info[:2], name.encode()):
        digest.update(part + b"\0")
    digest.update(source)
    return digest.hexdigest()[:40]


def cached_path(key: str) -> str | None:
    """The cached code's file for `key`, if there is one."""
    folder = cache_dir()
    if folder is None:
        return None
    path = os.path.join(folder, f"{key}.marshal")
    return path if os.path.isfile(path) else None


CODE_PREFIX, CODE_SUFFIX = b'{"code":"', b'"}'


def is_code_line(line: bytes | bytearray) -> bool:
    """Whether a runner's first line is its compiled code (`{"code": "<hex>"}`)."""
    return line.startswith(CODE_PREFIX) and line.endswith(CODE_SUFFIX)


def store(key: str, line: bytes | bytearray) -> bool:
    """Keep the runner's first line `{"code": "<hex>"}` for `key`; False if it is not one
    (or too big, or the cache cannot be written). A full cache first drops its oldest
    quarter. The bytes are stored, never loaded here."""
    folder = cache_dir()
    prefix, suffix = CODE_PREFIX, CODE_SUFFIX
    if folder is None or not is_code_line(line):
        return False
    text = bytes(line[len(prefix) : -len(suffix)])
    if len(text) > 2 * MAX_CODE_BYTES:
        return False
    try:
        data = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return False
    try:
        if len(os.listdir(folder)) >= MAX_FILES:
            _evict_oldest(folder, MAX_FILES // 4)
        handle, staging = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(staging, os.path.join(folder, f"{key}.marshal"))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(staging)
            raise
    except OSError:
        return False
    return True


def _evict_oldest(folder: str, count: int) -> None:
    """Remove the `count` least recently written entries (a bot not played for longest
    compiles again at its next start)."""
    entries = []
    with os.scandir(folder) as listing:
        for entry in listing:
            with contextlib.suppress(OSError):
                entries.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
    for _, path in sorted(entries)[:count]:
        with contextlib.suppress(OSError):
            os.unlink(path)
