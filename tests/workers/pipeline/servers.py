"""Servers of a fault test's own: Redis and PostgreSQL on spare ports, stopped at will.

The fault tests restart the broker or the database under running workers; they do it
to servers started here (in a temp dir, on a port the OS gives), so the machine's shared
PostgreSQL and Redis are never touched.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from deploy.embedded import postgres_bin


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class OwnRedis:
    """A redis-server of this test's own, so the shared one is never touched."""

    def __init__(self, folder: Path, persistent: bool, options: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.folder = folder
        self.persistent = persistent
        self.options = list(options)  # more redis-server arguments (`--maxmemory`, ...)
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--dir", str(self.folder), "--save", ""]  # fmt: skip
        if self.persistent:
            command += ["--appendonly", "yes", "--appendfsync", "always"]
        else:
            command += ["--appendonly", "no"]
        command += self.options
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class OwnPostgres:
    """A PostgreSQL server of this test's own: initdb in a temp dir, TCP on 127.0.0.1 only.

    PostgreSQL refuses to run as root: under root its programs run as the `postgres`
    system user (the Debian package's), which owns the data directory.
    """

    database = "arena"

    def __init__(self, waldir: Path | None = None) -> None:
        """`waldir`: where the write-ahead log goes (initdb --waldir), an empty directory
        the server's user can write (a test's small disk); by default inside the data."""
        self.folder = Path(tempfile.mkdtemp(prefix="arena-own-pg-"))
        self.folder.chmod(0o755)
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            self._as = {"user": "postgres", "group": "postgres", "extra_groups": []}
            shutil.chown(self.folder, "postgres", "postgres")
        wal = ["--waldir", str(waldir)] if waldir is not None else []
        subprocess.run(
            [postgres_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
             "--no-sync", "-E", "UTF8", *wal],
            cwd=self.folder, capture_output=True, check=True, **self._as,
        )  # fmt: skip

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.database}"

    def start(self, timeout: float = 30.0) -> None:
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": "",
            "max_connections": "50",
            # The restarts here are clean (a fast shutdown writes everything out first):
            # what a crash keeps is not what these tests check, so no waiting for the disk.
            "fsync": "off",
            "full_page_writes": "off",
        }
        command = [postgres_bin("postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            command += ["-c", f"{key}={value}"]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, cwd=self.folder, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True, **self._as,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while not self.is_ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start:\n{self.text()[-3000:]}")
            time.sleep(0.05)

    def is_ready(self) -> bool:
        ready = subprocess.run(
            [postgres_bin("pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
            check=False,
        )
        return ready.returncode == 0

    def stop(self, timeout: float = 30.0) -> None:
        """Fast shutdown, as `pg_ctl stop` and a service restart do: sessions are ended,
        open transactions rolled back, everything committed written out."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def copy_schema(self, source_url: str) -> None:
        """Create this server's database with the tables of `source_url`'s, and no rows.

        Empty, as the suite's database is after a flush: rows its migrations added (the
        ladders) would set the beat's ladder scheduler playing matches of its own.
        """
        subprocess.run(
            [postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
             self.database],
            check=True, capture_output=True,
        )  # fmt: skip
        dump = subprocess.run(
            [postgres_bin("pg_dump"), "--schema-only", "--no-owner", "--no-privileges",
             "--dbname", source_url],
            check=True, capture_output=True,
        )  # fmt: skip
        subprocess.run(
            [postgres_bin("psql"), "-q", "-v", "ON_ERROR_STOP=1", "--dbname", self.url],
            input=dump.stdout,
            check=True,
            capture_output=True,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
