"""A cluster of worker hosts on one machine: Linux network namespaces on a private bridge.

`Cluster` starts its own PostgreSQL (initdb in a temp dir, run as the postgres user)
and its own Redis, both listening on 127.0.0.1 and on the address of a bridge it
creates (10.213.T.1/24, T from the process id). Each worker host is a network
namespace with one veth into that bridge (10.213.T.(10+i)), its own hostname (a UTS
namespace: `unshare --uts`), and `celery -A workers worker` with the ordinary
settings pointed at PostgreSQL and Redis through the link. Nothing else is routed:
a namespace has its link's /24 and no default route. The shared PostgreSQL and
Redis of this machine are never touched.

`close()` removes everything (processes, namespaces, veths, bridge, servers, files),
and the constructor first removes leftovers of an earlier run with the same names.
Used by the cluster tests and by scripts/cluster_bench.py; needs root.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deploy.embedded import postgres_bin

ROOT = Path(__file__).resolve().parents[3]
CELERY = Path(sys.executable).with_name("celery")
READY_SECONDS = 60.0


def _run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return done


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _free_subnet(start: int) -> int:
    """The first 10.213.N.0/24 from N = start that no interface here uses (parallel runs)."""
    used = _run("ip", "-o", "-4", "addr", "show", check=False).stdout
    for offset in range(250):
        number = (start + offset) % 250
        if f" 10.213.{number}." not in used:
            return number
    raise RuntimeError("no free 10.213.N.0/24 subnet")


class Host:
    """One worker host: a namespace, its veth, and the celery worker running in it."""

    def __init__(self, cluster: Cluster, index: int, name: str) -> None:
        self.cluster = cluster
        self.index = index
        self.name = name  # the hostname inside, and the worker's node name's host part
        self.netns = f"{cluster.tag}h{index}"
        self.veth = f"{cluster.tag}v{index}"  # host side, on the bridge
        self.address = f"{cluster.subnet}.{10 + index}"
        self.log = cluster.dir / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def link_up(self) -> None:
        peer = f"{self.cluster.tag}p{self.index}"
        _run("ip", "netns", "add", self.netns)
        _run("ip", "link", "add", self.veth, "type", "veth", "peer", "name", peer)
        _run("ip", "link", "set", peer, "netns", self.netns)
        _run("ip", "link", "set", self.veth, "master", self.cluster.bridge, "up")
        inside = ("ip", "netns", "exec", self.netns)
        _run(*inside, "ip", "link", "set", "lo", "up")
        _run(*inside, "ip", "addr", "add", f"{self.address}/24", "dev", peer)
        _run(*inside, "ip", "link", "set", peer, "up")

    def start(self, concurrency: int = 1, extra_env: dict[str, str] | None = None) -> None:
        """Start `celery -A workers worker` inside the namespace, under its own hostname."""
        env = self.cluster.worker_env()
        env.update(extra_env or {})
        celery = [
            str(CELERY),
            "-A",
            "workers",
            "worker",
            "-c",
            str(concurrency),
            "-n",
            "worker@%h",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
        ]
        # ip netns exec, unshare and sh each exec the next: the pid is celery's main process.
        script = f"hostname {self.name} && exec " + " ".join(celery)
        command = ["ip", "netns", "exec", self.netns, "unshare", "--uts", "sh", "-c", script]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while "worker host capacity" not in self.text() or " ready." not in self.text():
            if self.process is None or self.process.poll() is not None:
                raise AssertionError(f"worker on {self.name} stopped:\n{self.text()[-4000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"worker on {self.name} not ready:\n{self.text()[-4000:]}")
            time.sleep(0.1)

    def drain(self) -> None:
        """Celery's warm shutdown: finish the running tasks, take no new ones, exit."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def cut(self) -> None:
        """Lose the host: its link goes down, then every process in it is killed."""
        _run("ip", "link", "set", self.veth, "down")
        self.kill()

    def kill(self) -> None:
        pids = _run("ip", "netns", "pids", self.netns, check=False).stdout.split()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)

    def remove(self) -> None:
        self.kill()
        # Deleting the namespace deletes the veth pair with it.
        _run("ip", "netns", "del", self.netns, check=False)
        _run("ip", "link", "del", self.veth, check=False)


class Cluster:
    def __init__(self, *, durable: bool = False, env: dict[str, str] | None = None) -> None:
        number = _free_subnet(os.getpid() % 250)
        self.tag = f"ar{os.getpid() % 100000}"  # interface names: at most 15 characters
        self.subnet = f"10.213.{number}"
        self.gateway = f"{self.subnet}.1"
        self.bridge = f"{self.tag}br"
        self.durable = durable
        self.extra_env = dict(env or {})
        self.dir = Path(tempfile.mkdtemp(prefix="arena-cluster-"))
        self.dir.chmod(0o755)
        self.hosts: list[Host] = []
        self.servers: list[subprocess.Popen[bytes]] = []
        self.pg_port = free_port()
        self.redis_port = free_port()
        self.database = "arena"
        try:
            self._clear_leftovers()
            self._bridge()
            self._postgres()
            self._redis()
        except BaseException:
            self.close()
            raise

    # ----- addresses seen from the hosts and from this process ---------------------------

    def database_url(self, local: bool = False) -> str:
        host = "127.0.0.1" if local else self.gateway
        return f"postgres://postgres@{host}:{self.pg_port}/{self.database}"

    def broker_url(self, local: bool = False) -> str:
        host = "127.0.0.1" if local else self.gateway
        return f"redis://{host}:{self.redis_port}/0"

    def worker_env(self, local: bool = False) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("TEST_", "ARENA_", "PYTEST", "CELERY_", "DATABASE_"))
        }
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "arena.settings",
                "DATABASE_URL": self.database_url(local),
                "CELERY_BROKER_URL": self.broker_url(local),
                "SECRET_KEY": "cluster-test-secret",
                "PYTHONPATH": str(ROOT),
                # Each namespace stands for a machine of its own: pinning every host's
                # first pool process to CPU 0 would put them all on one core here.
                "ARENA_PIN_MATCH_CPU": "false",
            }
        )
        env.update(self.extra_env)
        return env

    # ----- set-up ----------------------------------------------------------------------------

    def _clear_leftovers(self) -> None:
        for name in _run("ip", "netns", "list", check=False).stdout.split("\n"):
            if name.split(" ")[0].startswith(f"{self.tag}h"):
                _run("ip", "netns", "del", name.split(" ")[0], check=False)
        _run("ip", "link", "del", self.bridge, check=False)

    def _bridge(self) -> None:
        _run("ip", "link", "add", self.bridge, "type", "bridge")
        _run("ip", "addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _run("ip", "link", "set", self.bridge, "up")

    def _spawn(self, command: list[str], log: str, user: str | None = None) -> None:
        if user:
            command = ["runuser", "-u", user, "--", *command]
        with (self.dir / log).open("ab") as out:
            self.servers.append(
                subprocess.Popen(
                    command,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )

    def _postgres(self) -> None:
        data = self.dir / "pgdata"
        sockets = self.dir / "pgsock"
        for folder in (data, sockets):
            folder.mkdir()
            shutil.chown(folder, "postgres", "postgres")
        _run(
            "runuser", "-u", "postgres", "--", postgres_bin("initdb"), "-D", str(data),
            "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8",
        )  # fmt: skip
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {self.subnet}.0/24 trust\n")
        settings = {
            "listen_addresses": f"127.0.0.1,{self.gateway}",
            "port": str(self.pg_port),
            "unix_socket_directories": str(sockets),
            "max_connections": "100",
            # A host lost mid-transaction leaves a connection nobody will close (its link
            # is down, no FIN arrives): keepalives find it, and a transaction left open
            # is ended, so its row locks do not stop the surviving hosts.
            "tcp_keepalives_idle": "2",
            "tcp_keepalives_interval": "1",
            "tcp_keepalives_count": "2",
            "idle_in_transaction_session_timeout": "5s",
        }
        if not self.durable:
            settings.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        command = [postgres_bin("postgres"), "-D", str(data)]
        for key, value in settings.items():
            command += ["-c", f"{key}={value}"]
        self._spawn(command, "postgres.log", user="postgres")
        deadline = time.monotonic() + 30
        while True:
            ready = _run(
                postgres_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.pg_port), check=False
            )
            if ready.returncode == 0:
                break
            if time.monotonic() > deadline or self.servers[-1].poll() is not None:
                log = (self.dir / "postgres.log").read_text(errors="replace")
                raise RuntimeError(f"PostgreSQL did not start:\n{log[-3000:]}")
            time.sleep(0.1)
        _run(
            postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port),
            "-U", "postgres", self.database,
        )  # fmt: skip

    def _redis(self) -> None:
        self._spawn(
            [
                "redis-server", "--port", str(self.redis_port),
                "--bind", f"127.0.0.1 {self.gateway}", "--protected-mode", "no",
                "--save", "", "--appendonly", "no", "--dir", str(self.dir),
                # Dead peers (a cut link) are noticed within seconds, not hours.
                "--tcp-keepalive", "2",
            ],
            "redis.log",
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.redis_port)) == 0:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("Redis did not start")
            time.sleep(0.05)

    # ----- hosts --------------------------------------------------------------------------------

    def add_host(self, name: str) -> Host:
        host = Host(self, len(self.hosts), name)
        self.hosts.append(host)
        host.link_up()
        return host

    def start_beat(self) -> None:
        """Celery beat, on this side of the links: it sends the reaper on schedule."""
        command = [
            str(CELERY), "-A", "workers", "beat", "--loglevel=INFO",
            "--schedule", str(self.dir / "beat-schedule"),
        ]  # fmt: skip
        with (self.dir / "beat.log").open("ab") as out:
            self.servers.insert(
                0,
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=self.worker_env(local=True),
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                ),
            )

    def manage(self, *args: str, timeout: float = 120.0) -> str:
        """`python manage.py ...` (or `-m module ...` with args starting '-m') on the cluster."""
        command = [sys.executable, *args] if args[0] == "-m" else [
            sys.executable, "manage.py", *args
        ]  # fmt: skip
        done = subprocess.run(
            command,
            cwd=ROOT,
            env=self.worker_env(local=True),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def server_cpu_seconds(self) -> dict[str, float]:
        """CPU seconds used so far by PostgreSQL (all its processes) and Redis."""
        tick = os.sysconf("SC_CLK_TCK")
        totals = {"postgres": 0.0, "redis": 0.0}
        for stat in glob.glob("/proc/[0-9]*/stat"):
            with contextlib.suppress(OSError):
                text = Path(stat).read_text()
                name = text[text.index("(") + 1 : text.rindex(")")]
                fields = text[text.rindex(")") + 2 :].split()
                kind = "postgres" if name == "postgres" else "redis" if "redis" in name else None
                if kind is None:
                    continue
                cmdline = Path(stat).with_name("cmdline").read_bytes()
                ours = str(self.pg_port).encode() in cmdline or str(self.dir).encode() in cmdline
                if kind == "postgres" and not ours and not self._child_of_ours(fields):
                    continue
                if kind == "redis" and str(self.redis_port).encode() not in cmdline:
                    continue
                totals[kind] += (int(fields[11]) + int(fields[12])) / tick
        return totals

    def _child_of_ours(self, fields: list[str]) -> bool:
        postmasters = {server.pid for server in self.servers}
        parent = int(fields[1])
        # The postmaster runs under runuser: its backends' parent is the postmaster,
        # whose parent is the runuser we started.
        with contextlib.suppress(OSError, ValueError):
            grand = int(Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[1])
            return parent in postmasters or grand in postmasters
        return False

    def close(self) -> None:
        for host in self.hosts:
            with contextlib.suppress(Exception):
                host.remove()
        for server in self.servers:
            with contextlib.suppress(ProcessLookupError):
                # SIGINT: PostgreSQL's fast shutdown; Redis exits on it too.
                os.killpg(server.pid, signal.SIGINT)
        for server in self.servers:
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
        _run("ip", "link", "del", self.bridge, check=False)
        shutil.rmtree(self.dir, ignore_errors=True)
