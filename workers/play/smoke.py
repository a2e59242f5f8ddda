"""The upload smoke test: a new bot plays one short match against itself, sandboxed.

`smoke_test(game, source, filename)` writes the upload to a private temporary
folder, seats it in every seat of a minimum-size match of that game, plays it
through the referee exactly as a real match (each seat in its own bubblewrap
sandbox, with tight limits) and returns None when the bot played legally to
the end, or a reason its author can read. It never runs a bot unsandboxed: if
the sandbox is unavailable it raises `SandboxUnavailable`, an infrastructure
fault, not the author's.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

import engine
from workers.play.players import ProcessPlayer
from workers.play.referee import play_match
from workers.sandbox import artifacts
from workers.sandbox.bubblewrap import BubblewrapLauncher, SandboxUnavailable
from workers.sandbox.limits import Limits
from workers.sandbox.scratch import folder_prefix, is_full, places

SMOKE_LIMITS = Limits(
    move_seconds=1.0,
    time_bank_seconds=2.0,
    match_seconds=60.0,
    startup_seconds=5.0,
    memory_mb=256,
    cpu_seconds=30,
    max_processes=8,
    open_files=64,
    file_size_mb=4,
    tmp_mb=8,
    output_bytes_per_move=256 << 10,
    output_bytes_per_match=8 << 20,
    stderr_bytes=16 << 10,
)
MAX_UPLOAD_BYTES = 1 << 20
SMOKE_SEED = 20240601
STDERR_TAIL = 600

_launcher: BubblewrapLauncher | None = None


def sandbox_launcher() -> BubblewrapLauncher:
    """This process's sandbox for validations: smoke matches and builds."""
    return _default_launcher()


def _default_launcher() -> BubblewrapLauncher:
    global _launcher
    if _launcher is None:
        launcher = BubblewrapLauncher()
        launcher.check()
        _launcher = launcher
    return _launcher


def _write_bot_file(filename: str, source: bytes) -> tuple[str, Path]:
    """The upload in a folder of its own: in shared memory, on disk when that is full."""
    for place in places():
        folder = ""
        try:
            folder = tempfile.mkdtemp(prefix=folder_prefix("smoke"), dir=place)
            path = Path(folder) / _safe_filename(filename)
            with open(path, "wb") as handle:
                handle.write(source)
            return folder, path
        except OSError as exc:
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
            if place is None or not is_full(exc):
                raise
    raise AssertionError("unreachable")


def _safe_filename(filename: str) -> str:
    base = os.path.basename(filename or "")
    suffix = ".zip" if base.lower().endswith(".zip") else ".py"
    stem = re.sub(r"[^A-Za-z0-9_]", "_", base[: -len(suffix)] if base.endswith(suffix) else base)
    return (stem.strip("_")[:48] or "bot") + suffix


def smoke_test(
    game: str,
    source: bytes,
    filename: str,
    *,
    limits: Limits | None = None,
    launcher: BubblewrapLauncher | None = None,
    seed: int = SMOKE_SEED,
    artifact: bytes | None = None,
) -> str | None:
    """Play the upload against itself in the sandbox; None if it played legally.

    A version in another language plays from its build (`artifact`, made by
    workers/play/builds.py), unpacked into this host's cache."""
    if len(source) > MAX_UPLOAD_BYTES:
        return "the bot is larger than 1 MiB"
    if not source.strip():
        return "the bot file is empty"
    try:
        description = engine.get_game(game)
    except engine.UnknownGame as exc:
        return str(exc)
    launcher = launcher or _default_launcher()
    limits = limits or SMOKE_LIMITS
    launcher.check(limits)
    if artifact is not None:
        digest = hashlib.sha256(artifact).hexdigest()
        folder, path = "", artifacts.unpacked(digest, lambda: artifact)
    else:
        folder, path = _write_bot_file(filename, source)
    try:
        players = []
        try:
            for _ in range(description.min_players):
                players.append(ProcessPlayer(launcher.launch(path, limits), limits))
        except BaseException:
            for player in players:
                player.close()
            raise
        outcome = play_match(game, seed, players, match_seconds=limits.match_seconds)
    finally:
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
    if not outcome.forfeits:
        return None
    seat, reason = min(outcome.forfeits.items())
    message = f"seat {seat}: {reason}"
    tail = outcome.stderr[seat].strip()[-STDERR_TAIL:]
    if tail:
        message += f"\n--- the end of its stderr ---\n{tail}"
    return message


__all__ = ["SMOKE_LIMITS", "SandboxUnavailable", "smoke_test"]
