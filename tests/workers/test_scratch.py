"""Stale per-match folders (a killed process's bot files in /dev/shm) are swept away."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from workers.sandbox import scratch


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_folders_of_dead_processes_are_removed_and_live_ones_kept(tmp_path: Path):
    dead = tmp_path / f"arena-match-p{dead_pid()}-17-abc"
    live = tmp_path / f"arena-match-p{os.getpid()}-18-def"
    other = tmp_path / "somebody-elses-folder"
    for folder in (dead, live, other):
        folder.mkdir()
        (folder / "bot.py").write_text("x")
    removed = scratch.sweep(places=[str(tmp_path)])
    assert removed == [str(dead)]
    assert not dead.exists() and live.exists() and other.exists()


def test_a_folder_older_than_any_match_is_removed_even_if_its_pid_is_alive(tmp_path: Path):
    old = tmp_path / f"arena-smoke-p{os.getpid()}-xyz"
    old.mkdir()
    assert scratch.sweep(places=[str(tmp_path)]) == []
    later = time.time() + scratch.MAX_AGE_SECONDS + 1
    assert scratch.sweep(now=later, places=[str(tmp_path)]) == [str(old)]


def test_a_match_folder_names_its_process():
    assert scratch.folder_prefix("match") == f"arena-match-p{os.getpid()}-"


def test_a_killed_workers_match_folder_is_swept_when_a_worker_starts(tmp_path: Path):
    """A real process makes its folder as a match does, is killed with SIGKILL, and a sweep
    (what a starting worker runs) removes what it left in shared memory."""
    code = (
        "import tempfile, time, sys\n"
        "from workers.sandbox.scratch import folder_prefix, scratch_dir\n"
        "d = tempfile.mkdtemp(prefix=folder_prefix('match') + '5-', dir=scratch_dir())\n"
        "open(d + '/bot.py', 'w').write('x')\n"
        "print(d, flush=True)\n"
        "time.sleep(60)\n"
    )
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen(
        [sys.executable, "-c", code], cwd=root, stdout=subprocess.PIPE, text=True
    )
    folder = Path(child.stdout.readline().strip())
    try:
        assert folder.is_dir() and str(folder) not in scratch.sweep()  # its process runs
        child.kill()
        child.wait()
        assert str(folder) in scratch.sweep()
        assert not folder.exists()
    finally:
        child.kill()
        child.wait()
