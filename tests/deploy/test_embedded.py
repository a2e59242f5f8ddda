"""`make run`'s private servers (deploy/embedded.py): started under a var/ folder, on the
same ports again next time, keeping what they hold across a restart, stopped on request."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import redis

from deploy.embedded import FALLBACK_ROOT, EmbeddedPostgres

ROOT = Path(__file__).resolve().parents[2]


def embedded(var: Path, action: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "deploy.embedded", action],
        cwd=ROOT, env={**os.environ, "ARENA_VAR_DIR": str(var)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(line.removeprefix("export ").split("=", 1) for line in done.stdout.splitlines())


@pytest.mark.slow
def test_private_servers_keep_their_ports_and_data_across_a_restart(tmp_path):
    # pytest's folders are private to root (0700): the cluster goes where postgres can go.
    var = tmp_path / "var"
    var.mkdir()
    try:
        urls = embedded(var, "start")
        assert urls["DATABASE_URL"].startswith("postgres://postgres@127.0.0.1:")
        assert urls["CELERY_BROKER_URL"].startswith("redis://127.0.0.1:")
        redis.Redis.from_url(urls["CELERY_BROKER_URL"]).rpush("queued", "a match")
        with psycopg.connect(urls["DATABASE_URL"], autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (x int)")
            conn.execute("INSERT INTO kept VALUES (7)")
        embedded(var, "stop")
        with pytest.raises(redis.ConnectionError):
            redis.Redis.from_url(urls["CELERY_BROKER_URL"]).ping()
        assert embedded(var, "start") == urls  # same ports, same URLs
        assert redis.Redis.from_url(urls["CELERY_BROKER_URL"]).lrange("queued", 0, -1) == [
            b"a match"
        ]
        with psycopg.connect(urls["DATABASE_URL"]) as conn:
            assert conn.execute("SELECT x FROM kept").fetchall() == [(7,)]
    finally:
        embedded(var, "stop")
        folder = EmbeddedPostgres(var / "embedded" / "postgres", 0).folder
        if FALLBACK_ROOT in folder.parents:
            shutil.rmtree(folder.parent, ignore_errors=True)
