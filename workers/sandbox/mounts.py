"""What a sandbox sees: the runner, the pure engine, the SDK's forward model and a fast
JSON codec, readable by the sandbox's uid, and the interpreter's own folders with
third-party packages hidden.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from workers.sandbox.launchers import PROJECT_ROOT, RUNNER
from workers.sandbox.process import SandboxUnavailable, _world_readable

ENGINE_DIR = PROJECT_ROOT / "engine"
# What of the project a sandbox can import, relative to the project root: the pure engine,
# and for search bots the SDK's forward model (worlds from an observation, the search over
# them, standings fitted to games) and the reference bots (the heuristics guide the
# searches). The SDK's package file imports only the runner, which is standard library.
LIBRARY = (
    "engine",
    "bots/__init__.py",
    "bots/reference",
    "bots/sdk/__init__.py",
    "bots/sdk/runner.py",
    "bots/sdk/worlds",
    "bots/sdk/search.py",
    "bots/sdk/standing.py",
)

_STAGED: dict[str, tuple[Path, Path]] = {}


def _library_files() -> list[Path]:
    files = []
    for name in LIBRARY:
        path = PROJECT_ROOT / name
        if path.is_dir():
            files += sorted(
                p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            )
        else:
            files.append(path)
    return files


def _stage_library() -> tuple[Path, Path]:
    """The runner, and a folder holding every `LIBRARY` path, where an unprivileged uid can
    read them.

    A checkout inside a private folder (a 0700 temp dir, /root) cannot be bound into a
    sandbox running as another uid, so such a checkout's library is copied, keyed by a
    hash of its contents, into a world-readable folder owned by the worker.
    """
    if _world_readable(str(RUNNER)) and all(
        _world_readable(str(PROJECT_ROOT / name)) for name in LIBRARY
    ):
        return RUNNER, PROJECT_ROOT
    files = _library_files()
    digest = hashlib.sha256()
    for path in (RUNNER, *files):
        digest.update(str(path.relative_to(PROJECT_ROOT)).encode() + b"\0" + path.read_bytes())
    key = digest.hexdigest()[:20]
    if key in _STAGED:
        return _STAGED[key]
    for base in (
        "/run/arena-sandbox-lib",
        os.path.join(tempfile.gettempdir(), "arena-sandbox-lib"),
    ):
        root = Path(base) / key
        try:
            if not (root / "ready").exists():
                os.makedirs(base, mode=0o755, exist_ok=True)
                os.chmod(base, 0o755)
                staging = Path(tempfile.mkdtemp(dir=base))
                shutil.copyfile(RUNNER, staging / "runner.py")
                for path in files:
                    target = staging / "lib" / path.relative_to(PROJECT_ROOT)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, target)
                for folder, _, names in os.walk(staging):
                    os.chmod(folder, 0o755)
                    for name in names:
                        os.chmod(os.path.join(folder, name), 0o644)
                (staging / "ready").touch()
                try:
                    os.rename(staging, root)
                except OSError:  # another worker staged the same contents first
                    shutil.rmtree(staging, ignore_errors=True)
        except OSError:
            continue
        staged = (root / "runner.py", root / "lib")
        if all(_world_readable(str(path)) for path in staged):
            _STAGED[key] = staged
            return staged
    raise SandboxUnavailable(
        f"{PROJECT_ROOT} is not readable by an unprivileged uid and no world-readable "
        "folder could hold a copy of the runner and the library"
    )


def _interpreter_prefix(python: str) -> str:
    """The installation folder holding the interpreter (and its libpython)."""
    if python == os.path.realpath(sys.executable):
        return os.path.realpath(sys.base_prefix)
    return os.path.dirname(os.path.dirname(python))


def _package_dirs(python: str, prefix: str) -> list[str]:
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [
        f"{prefix}/lib/{version}/site-packages",
        f"{prefix}/lib/{version}/dist-packages",
        f"{prefix}/local/lib/{version}/dist-packages",
        f"/usr/local/lib/{version}/dist-packages",
        f"/usr/local/lib/{version}/site-packages",
        "/usr/lib/python3/dist-packages",
    ]
    if python == os.path.realpath(sys.executable):
        candidates.append(sysconfig.get_paths()["purelib"])
    seen = []
    for path in candidates:
        real = os.path.realpath(path)
        under_sandbox = real.startswith("/usr/") or real.startswith(prefix + "/")
        if os.path.isdir(real) and under_sandbox and real not in seen:
            seen.append(real)
    return seen
