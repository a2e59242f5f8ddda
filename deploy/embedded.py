"""Private Redis and PostgreSQL for `make run` and `make soak`, kept under var/.

`make run` on a machine with nothing configured still runs what production runs: a
`redis-server` (append-only file on) and a PostgreSQL cluster of its own, listening on
127.0.0.1 only, on ports chosen once and remembered in `var/embedded/ports.json`, their
data under `var/embedded/`. Both outlive the command that started them, so the shell
script can start them, run the service, and stop them on Ctrl-C:

    python -m deploy.embedded start    # start what is not running; print `export ...` lines
    python -m deploy.embedded env      # the same lines, starting nothing
    python -m deploy.embedded stop     # stop both (PostgreSQL: a fast shutdown)

Only the standard library (and redis-server / Debian's PostgreSQL programs) is used, so
the script works before Django is set up. PostgreSQL refuses to run as root: under root
its programs run as the `postgres` system user (Debian's package creates it).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATABASE = "arena"


class EmbeddedError(RuntimeError):
    """A private server could not be started; the message says what to install or free."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _port_taken(port: int) -> bool:
    with socket.socket() as probe:
        # As the servers bind: a port with closed connections in TIME_WAIT is free to them.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie answers kill(0) but is not a server: read its state.
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    return True


def _wait_for(check: Any, what: str, timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise EmbeddedError(f"{what} did not start within {timeout:.0f} s:\n{tail}")
        time.sleep(0.1)


def _stop(pid: int | None, sig: int, timeout: float, then: int) -> None:
    """Send `sig`, wait up to `timeout` for the process to end, then send `then`."""
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
    deadline = time.monotonic() + timeout
    while _pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _pid_alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, then)


class Ports:
    """The two ports, chosen once per var/ folder so URLs stay the same between runs."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "ports.json"
        self.values: dict[str, int] = {}
        with contextlib.suppress(OSError, ValueError):
            self.values = {k: int(v) for k, v in json.loads(self.path.read_text()).items()}

    def get(self, name: str, running: bool) -> int:
        port = self.values.get(name)
        if port is None or (not running and _port_taken(port)):
            port = _free_port()
            self.values[name] = port
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.values, indent=1) + "\n")
        return port


class EmbeddedRedis:
    """A redis-server with its append-only file in `folder`: queued matches survive a restart."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.pidfile = folder / "redis.pid"
        self.log = folder / "redis.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def cache_url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/1"

    def pid(self) -> int | None:
        with contextlib.suppress(OSError, ValueError):
            pid = int(self.pidfile.read_text().split()[0])
            if _pid_alive(pid):
                return pid
        return None

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self, timeout: float = 20.0) -> None:
        if self.pid() is not None and self.answers():
            return
        server = shutil.which("redis-server")
        if server is None:
            raise EmbeddedError(
                "redis-server is not installed: run scripts/bootstrap.sh (as root on Debian "
                "it installs redis-server) or set CELERY_BROKER_URL to a Redis of yours"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        command = [
            server,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.folder),
            "--pidfile", str(self.pidfile),
            "--logfile", str(self.log),
            "--daemonize", "no",
            # The queues are the state worth keeping: every write logged, fsynced each second.
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
        ]  # fmt: skip
        subprocess.Popen(
            command,
            cwd=self.folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait_for(self.answers, "redis-server", timeout, self.log)

    def stop(self, timeout: float = 20.0, sig: int = signal.SIGTERM) -> None:
        _stop(self.pid(), sig, timeout, then=signal.SIGKILL)


def postgres_bin(name: str) -> str:
    """Debian's PostgreSQL programs (not on PATH): the newest installed version's."""
    found = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda path: int(path.split("/")[4]) if path.split("/")[4].isdigit() else 0,
    )
    if not found:
        raise EmbeddedError(
            f"PostgreSQL's {name} is not installed (/usr/lib/postgresql/*/bin): run "
            "scripts/bootstrap.sh (as root on Debian it installs postgresql) or set "
            "DATABASE_URL to a database of yours"
        )
    return found[-1]


FALLBACK_ROOT = Path("/var/lib/moon-arena")


def _traversable_by_others(folder: Path) -> bool:
    """Can a user other than the owner walk down to `folder` (every existing parent o+x)?

    The folder itself is the cluster's own (postgres's, mode 0700) once it exists."""
    return all(p.stat().st_mode & 0o001 for p in folder.parents if p.exists())


class EmbeddedPostgres:
    """A PostgreSQL cluster of its own in `folder`, TCP on 127.0.0.1 only, trust auth."""

    def __init__(self, folder: Path, port: int) -> None:
        if os.geteuid() == 0 and not _traversable_by_others(folder):
            # A checkout in a private folder (/root/…): the postgres user cannot reach var/,
            # so the cluster lives in a folder of its own, named after the one asked for.
            digest = hashlib.sha1(str(folder).encode()).hexdigest()[:12]
            folder = FALLBACK_ROOT / digest / "postgres"
            FALLBACK_ROOT.mkdir(parents=True, exist_ok=True)
            FALLBACK_ROOT.chmod(0o755)
            folder.parent.mkdir(exist_ok=True)
            folder.parent.chmod(0o755)
        self.folder = folder
        self.data = folder / "data"
        self.port = port
        self.log = folder / "postgres.log"
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            self._as = {"user": "postgres", "group": "postgres", "extra_groups": []}

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def pid(self) -> int | None:
        with contextlib.suppress(OSError, ValueError):
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            if _pid_alive(pid):
                return pid
        return None

    def answers(self) -> bool:
        ready = subprocess.run(
            [postgres_bin("pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
            check=False,
        )
        return ready.returncode == 0

    def _initialise(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")
            self.folder.chmod(0o700)
            probe = subprocess.run(["test", "-w", str(self.folder)], check=False, **self._as)
            if probe.returncode != 0:
                raise EmbeddedError(
                    f"the postgres user cannot reach {self.folder}: give its parent folders "
                    "o+x, or set ARENA_VAR_DIR to a folder it can reach"
                )
        done = subprocess.run(
            [postgres_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
             "-E", "UTF8", "--locale=C.UTF-8"],
            cwd=self.folder, capture_output=True, text=True, check=False, **self._as,
        )  # fmt: skip
        if done.returncode != 0:
            raise EmbeddedError(f"initdb failed:\n{done.stdout}{done.stderr}")

    def start(self, timeout: float = 60.0) -> None:
        if self.pid() is not None and self.answers():
            return
        if not (self.data / "PG_VERSION").exists():
            self._initialise()
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": "",
            "max_connections": "100",
        }
        command = [postgres_bin("postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            command += ["-c", f"{key}={value}"]
        with self.log.open("ab") as out:
            if self._as:
                with contextlib.suppress(OSError):
                    shutil.chown(self.log, "postgres", "postgres")
            subprocess.Popen(
                command, cwd=self.folder, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True, **self._as,
            )  # fmt: skip
        _wait_for(self.answers, "PostgreSQL", timeout, self.log)
        self._create_database()

    def _create_database(self) -> None:
        psql = [postgres_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        found = subprocess.run(
            [*psql, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if found.stdout.strip() != "1":
            subprocess.run([*psql, "-qc", f"CREATE DATABASE {DATABASE}"], check=True)

    def stop(self, timeout: float = 60.0, sig: int = signal.SIGINT) -> None:
        """SIGINT is a fast shutdown (sessions ended, everything committed written out);
        SIGQUIT after the timeout an immediate one (recovery at the next start)."""
        _stop(self.pid(), sig, timeout, then=signal.SIGQUIT)

    def size_bytes(self) -> int:
        return sum(f.stat().st_size for f in self.data.rglob("*") if f.is_file())


class Embedded:
    """Both servers of one var/ folder."""

    def __init__(self, var_dir: Path) -> None:
        self.folder = var_dir / "embedded"
        ports = Ports(self.folder)
        redis_folder = self.folder / "redis"
        pg_folder = self.folder / "postgres"
        self.redis = EmbeddedRedis(
            redis_folder, ports.get("redis", EmbeddedRedis(redis_folder, 0).pid() is not None)
        )
        self.postgres = EmbeddedPostgres(
            pg_folder,
            ports.get("postgres", EmbeddedPostgres(pg_folder, 0).pid() is not None),
        )

    def environment(self, want_redis: bool, want_postgres: bool) -> dict[str, str]:
        env: dict[str, str] = {}
        if want_redis:
            env["CELERY_BROKER_URL"] = self.redis.url
            env["CACHE_URL"] = self.redis.cache_url
        if want_postgres:
            env["DATABASE_URL"] = self.postgres.url
        return env


def var_dir() -> Path:
    return Path(os.environ.get("ARENA_VAR_DIR") or ROOT / "var").resolve()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.embedded", description=__doc__)
    parser.add_argument("action", choices=("start", "stop", "env"))
    parser.add_argument("--no-redis", action="store_true", help="leave the broker alone")
    parser.add_argument("--no-postgres", action="store_true", help="leave the database alone")
    args = parser.parse_args(argv)
    embedded = Embedded(var_dir())
    try:
        if args.action == "stop":
            if not args.no_redis:
                embedded.redis.stop()
            if not args.no_postgres:
                embedded.postgres.stop()
            return 0
        if args.action == "start":
            if not args.no_redis:
                embedded.redis.start()
            if not args.no_postgres:
                embedded.postgres.start()
    except EmbeddedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    env = embedded.environment(not args.no_redis, not args.no_postgres)
    for key, value in env.items():
        print(f"export {key}={value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
