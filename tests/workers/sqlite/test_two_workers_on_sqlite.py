"""`make run`'s embedded database: two worker processes recording matches side by side.

SQLite takes no row locks: a transaction that read and then wrote while another process
committed used to fail at once ("database is locked") and the match went back for a retry.
This plays real matches in two processes at the same time, on a SQLite file.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("matches.py")
PROJECT = SCRIPT.parents[3]
MATCHES = 40


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300
    )


def test_two_workers_record_every_match_once_without_lock_errors(tmp_path):
    database = tmp_path / "arena.sqlite3"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    # Trusted reference bots in plain processes: short matches, so the two workers'
    # transactions overlap as often as possible (the sandbox is not what is tested here).
    env.update(DATABASE_URL=f"sqlite:///{database}", ARENA_BOT_ISOLATION="process", SECRET_KEY="t")
    migrated = run(env, "manage.py", "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    created = run(env, str(SCRIPT), "create", str(MATCHES))
    assert created.returncode == 0, created.stderr
    first, last = created.stdout.split()

    workers = [
        subprocess.Popen(
            [sys.executable, str(SCRIPT), "play", first, last, str(part)],
            cwd=PROJECT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for part in (0, 1)
    ]
    results = [worker.communicate(timeout=300) for worker in workers]
    for worker, (out, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0, err[-3000:]
        assert out.split() == ["recorded"] * (MATCHES // 2), out

    with sqlite3.connect(database) as db:
        statuses = db.execute("SELECT status, attempts, rated FROM arena_match").fetchall()
        games = db.execute("SELECT games FROM arena_rating WHERE game = 'moonrollers'").fetchall()
    assert statuses == [("finished", 1, 1)] * MATCHES
    assert sorted(g for (g,) in games) == [MATCHES, MATCHES]
