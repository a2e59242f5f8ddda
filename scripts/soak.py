"""The soak test: the whole stack as `make run` runs it, left to play under load and faults.

    python scripts/soak.py --minutes 120            # `make soak`
    python scripts/soak.py --minutes 6 --fault-every 0.7 --warmup 1   # a short run

It starts `scripts/run.sh` (private PostgreSQL and Redis, a worker with beat, the sandbox
on, the web server) in a folder of its own, lets the ladders of all four games play the
reference bots, uploads a bot version every few minutes and starts a tournament every few
minutes through the API, and runs a fault schedule, one kind after another:

  pool_kill        SIGKILL one of the worker's pool processes
  worker_kill      SIGKILL the worker's main process (run.sh starts it again)
  redis_restart    stop the broker, keep it down, start it again
  postgres_restart stop the database (fast shutdown), keep it down, start it again
  worker_stop      SIGSTOP the whole worker past its matches' lease, then SIGCONT

Every --sample seconds it writes a row of figures to samples.csv (matches finished, each
long-lived process's RSS and open files, zombies, database size, queue depth, health),
polls /api/health/ every few seconds into health.csv, and at the end writes faults.csv, a
plot (soak.png) and summary.json / summary.md with the checks of scripts/soak_report.py.
Exit code 0 when every check passes.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import soak_report  # noqa: E402  (beside this file)

from deploy.embedded import Embedded, _free_port  # noqa: E402

FAULT_KINDS = ("pool_kill", "worker_kill", "redis_restart", "postgres_restart", "worker_stop")
# The stack's sandboxes run on uids of their own, so that bots of a test or of another
# arena on the same machine are never counted as this stack's leaks.
SANDBOX_UID_BASE = int(os.environ.get("SOAK_SANDBOX_UID_BASE", "66000"))
SANDBOX_UIDS = range(SANDBOX_UID_BASE, SANDBOX_UID_BASE + 512)
LEASE_SECONDS = 10.0
OUTAGE_SECONDS = 20.0
ROLES = ("web", "worker_main", "beat", "pool", "redis", "postgres")
REFERENCE = ROOT / "bots" / "reference"


@dataclass
class Fault:
    kind: str
    started: float
    ended: float = 0.0
    detail: str = ""


class Stack:
    """`scripts/run.sh` in a folder of its own, and what it started."""

    def __init__(self, folder: Path, env_extra: dict[str, str]) -> None:
        self.folder = folder
        self.var = folder / "var"
        self.var.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.env = dict(os.environ)
        for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE"):
            self.env.pop(key, None)
        self.env.update(
            {"ARENA_VAR_DIR": str(self.var), "PORT": str(self.port), "VENV": sys.prefix}
        )
        self.env["ARENA_SANDBOX_UID_BASE"] = str(SANDBOX_UIDS.start)
        self.env["ARENA_SANDBOX_UIDS"] = str(len(SANDBOX_UIDS))
        self.env.update(env_extra)
        self.embedded = Embedded(self.var)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "stack.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 240.0) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                ["bash", str(ROOT / "scripts" / "run.sh")],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while health_status(self.url) != 200:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the stack did not come up:\n{self.log.read_text()[-4000:]}")
            time.sleep(2)

    def stop(self) -> None:
        if self.process is None:
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        # What the stack left running when stopped would be a leak too: count it, then end it.
        self.embedded.redis.stop()
        self.embedded.postgres.stop()

    # ----- finding the long-lived processes ---------------------------------------------

    def tree(self) -> list[psutil.Process]:
        if self.process is None:
            return []
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def roles(self) -> dict[str, list[psutil.Process]]:
        found: dict[str, list[psutil.Process]] = {role: [] for role in ROLES}
        for proc in self.tree():
            title = _title(proc)
            if "ForkPoolWorker" in title:
                found["pool"].append(proc)
            elif "celery beat" in title or "Beat" in title:
                found["beat"].append(proc)
            elif "MainProcess" in title or (title.endswith("worker") and "celery" in title):
                found["worker_main"].append(proc)
            elif "runserver" in title:
                found["web"].append(proc)
        for role, pid in (
            ("redis", self.embedded.redis.pid()),
            ("postgres", self.embedded.postgres.pid()),
        ):
            if pid is not None:
                with contextlib.suppress(psutil.NoSuchProcess):
                    found[role].append(psutil.Process(pid))
        return found


def _title(proc: psutil.Process) -> str:
    try:
        return " ".join(proc.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return ""


def health_status(url: str, timeout: float = 10.0) -> int:
    try:
        with urllib.request.urlopen(f"{url}/api/health/", timeout=timeout) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (OSError, ValueError):
        return 0


def _leak_candidates(stack: Stack) -> dict[tuple[int, float], str]:
    """(pid, start time) -> "zombie" or "orphan", as seen now (see `leaked`)."""
    root = stack.process.pid if stack.process is not None else -1
    found: dict[tuple[int, float], str] = {}
    for proc in psutil.process_iter(["pid", "status", "uids", "create_time"]):
        info = proc.info
        uid = info["uids"].real if info["uids"] else -1
        zombie = info["status"] == psutil.STATUS_ZOMBIE
        if uid not in SANDBOX_UIDS and not zombie:
            continue
        # Walked now rather than from a list of the tree taken first: a bot started
        # between the two would look like an orphan.
        try:
            ancestors = {parent.pid for parent in proc.parents()}
        except psutil.Error:
            continue
        in_tree = root in ancestors
        if zombie and (in_tree or uid in SANDBOX_UIDS):
            found[(info["pid"], info["create_time"])] = "zombie"
        elif not zombie and not in_tree:
            found[(info["pid"], info["create_time"])] = "orphan"
    return found


def leaked(stack: Stack, confirm_after: float = 1.0) -> tuple[int, int]:
    """(zombies, orphans): zombies in the stack's tree or run by a sandbox uid anywhere;
    live sandbox-uid processes outside the stack's tree (escaped a dead parent).

    Each must still be so `confirm_after` seconds later: a bot that has just exited is a
    zombie until its parent waits for it a moment later, and the stack starts hundreds
    of bots a minute. What lasts a second is left behind.
    """
    first = _leak_candidates(stack)
    if not first:
        return 0, 0
    time.sleep(confirm_after)
    second = _leak_candidates(stack)
    kinds = [kind for key, kind in first.items() if second.get(key) == kind]
    return kinds.count("zombie"), kinds.count("orphan")


class Database:
    """Short SQL reads of the stack's database (psycopg, no Django in this process)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url, connect_timeout=5) as conn:
            return list(conn.execute(sql, params).fetchall())


def queue_depth(redis_url: str) -> int | None:
    import redis

    try:
        client = redis.Redis.from_url(redis_url, socket_timeout=3)
        total = 0
        for key in client.scan_iter(count=200):
            if client.type(key) == b"list":
                total += int(client.llen(key))
        client.close()
        return total
    except redis.RedisError:
        return None


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out).resolve()
        self.out.mkdir(parents=True, exist_ok=True)
        self.stack = Stack(self.out, {})
        self.started = 0.0
        self.stop_event = threading.Event()
        self.faults: list[Fault] = []
        self.health: list[tuple[float, int]] = []
        self.events: list[tuple[float, str]] = []
        self.pids: dict[str, set[int]] = {role: set() for role in ROLES}

    def now(self) -> float:
        return time.monotonic() - self.started

    # ----- the run ----------------------------------------------------------------------

    def run(self) -> int:
        print(f"== soak: {self.args.minutes} min, output in {self.out}", flush=True)
        self.stack.start()
        self.started = time.monotonic()
        database = Database(self.stack.embedded.postgres.url)
        threads = [
            threading.Thread(target=self._sample_loop, args=(database,), daemon=True),
            threading.Thread(target=self._health_loop, daemon=True),
            threading.Thread(target=self._load_loop, daemon=True),
        ]
        for thread in threads:
            thread.start()
        try:
            self._fault_loop()
        finally:
            self.stop_event.set()
            for thread in threads:
                thread.join(timeout=60)
            self._write_faults()
            self._write_audit()
            self._write_waits(database)
            self.stack.stop()
        summary = soak_report.report(self.out, self.args)
        print(summary["text"], flush=True)
        return 0 if summary["passed"] else 1

    def _sleep_until(self, moment: float) -> bool:
        """Sleep until `moment` (seconds into the run); False when the run is over."""
        end = self.args.minutes * 60
        while self.now() < moment:
            if self.now() >= end or self.stop_event.wait(min(1.0, moment - self.now())):
                return False
        return self.now() < end

    def _fault_loop(self) -> None:
        kinds = [k for k in self.args.faults.split(",") if k] if self.args.faults else []
        moment = self.args.warmup * 60
        index = 0
        # A fault must end, and health have a minute to recover, before the run does.
        last_start = self.args.minutes * 60 - OUTAGE_SECONDS * 2 - 70
        while kinds and moment <= last_start and self._sleep_until(moment):
            kind = kinds[index % len(kinds)]
            index += 1
            fault = Fault(kind, self.now())
            print(f"[{fault.started:7.0f} s] fault: {kind}", flush=True)
            try:
                fault.detail = getattr(self, f"_fault_{kind}")()
            except Exception as exc:  # a fault that could not be applied is reported
                fault.detail = f"not applied: {type(exc).__name__}: {exc}"
            fault.ended = self.now()
            self.faults.append(fault)
            moment = fault.ended + self.args.fault_every * 60
        self._sleep_until(self.args.minutes * 60)

    # ----- faults -----------------------------------------------------------------------

    def _fault_pool_kill(self) -> str:
        pool = self.stack.roles()["pool"]
        if not pool:
            raise RuntimeError("no pool process found")
        victim = pool[0]
        victim.send_signal(signal.SIGKILL)
        return f"pid {victim.pid}"

    def _fault_worker_kill(self) -> str:
        main = self.stack.roles()["worker_main"]
        if not main:
            raise RuntimeError("no worker main process found")
        main[0].send_signal(signal.SIGKILL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(1)
            back = [p for p in self.stack.roles()["worker_main"] if p.pid != main[0].pid]
            if back and health_status(self.stack.url) == 200:
                return f"pid {main[0].pid}, back as {back[0].pid}"
        return f"pid {main[0].pid}, not back in 120 s"

    def _fault_redis_restart(self) -> str:
        self.stack.embedded.redis.stop()
        time.sleep(OUTAGE_SECONDS)
        self.stack.embedded.redis.start()
        return f"down {OUTAGE_SECONDS:.0f} s"

    def _fault_postgres_restart(self) -> str:
        self.stack.embedded.postgres.stop()
        time.sleep(OUTAGE_SECONDS)
        self.stack.embedded.postgres.start()
        return f"down {OUTAGE_SECONDS:.0f} s"

    def _fault_worker_stop(self) -> str:
        main = self.stack.roles()["worker_main"]
        if not main:
            raise RuntimeError("no worker main process found")
        frozen = [main[0], *main[0].children(recursive=True)]
        for proc in frozen:
            proc.send_signal(signal.SIGSTOP)
        time.sleep(LEASE_SECONDS + OUTAGE_SECONDS)
        for proc in frozen:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.send_signal(signal.SIGCONT)
        return f"{len(frozen)} processes stopped {LEASE_SECONDS + OUTAGE_SECONDS:.0f} s"

    # ----- load -------------------------------------------------------------------------

    def _api(self, method: str, path: str, token: str | None, body: dict | None = None,
             files: dict[str, tuple[str, bytes]] | None = None) -> dict:  # fmt: skip
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = None
        if files is not None:
            boundary = f"soak{time.time_ns()}"
            parts = []
            for key, value in (body or {}).items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
                    f"{value}\r\n".encode()
                )
            for key, (name, content) in files.items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"; '
                    f'filename="{name}"\r\nContent-Type: text/x-python\r\n\r\n'.encode()
                    + content
                    + b"\r\n"
                )
            data = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(
            f"{self.stack.url}/api/{path}", data=data, headers=headers, method=method
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read() or b"{}")

    def _token(self, username: str, password: str) -> str:
        return str(
            self._api("POST", "token/", None, {"username": username, "password": password})["token"]
        )

    def _load_loop(self) -> None:
        password = (self.stack.var / "organiser-password").read_text().strip()
        organiser = self._token("organiser", password)
        author_password = "soak-author-password-1"
        with contextlib.suppress(urllib.error.HTTPError):  # there from an earlier start
            self._api("POST", "users/", None, {"username": "soaker", "password": author_password})
        author = self._token("soaker", author_password)
        games = ["moonrollers", "moonrakers", "moon_bots", "moon_adventure"]
        next_upload = 60.0
        next_tournament = 90.0
        uploads = tournaments = 0
        while not self.stop_event.wait(5):
            try:
                if self.now() >= next_upload:
                    game = games[uploads % len(games)]
                    self._upload(author, game, uploads)
                    uploads += 1
                    next_upload += self.args.upload_every * 60
                if self.now() >= next_tournament:
                    game = games[tournaments % len(games)]
                    self._tournament(organiser, game, tournaments)
                    tournaments += 1
                    next_tournament += self.args.tournament_every * 60
            except (OSError, ValueError, KeyError) as exc:
                # An outage can refuse a request: it is tried again at the next step.
                self.events.append((self.now(), f"load request failed: {exc}"))

    def _upload(self, token: str, game: str, index: int) -> None:
        source = (REFERENCE / "random_bot.py").read_bytes() + f"\n# soak upload {index}\n".encode()
        name = f"soak-{game}-{index % 3}"
        bots = self._api("GET", f"bots/?game={game}&owner=soaker", token).get("results", [])
        mine = [b for b in bots if b.get("name") == name]
        if mine:
            self._api(
                "POST", f"bots/{mine[0]['id']}/versions/", token, {}, {"file": ("bot.py", source)}
            )
        else:
            self._api(
                "POST", "bots/", token, {"name": name, "game": game}, {"file": ("bot.py", source)}
            )
        self.events.append((self.now(), f"uploaded {name}"))

    def _tournament(self, token: str, game: str, index: int) -> None:
        bots = self._api("GET", f"bots/?game={game}", token).get("results", [])
        ids = [b["id"] for b in bots if b.get("is_active", True)][:4]
        players = {"moonrollers": 2, "moonrakers": 2, "moon_bots": 2, "moon_adventure": 2}[game]
        self._api(
            "POST", "tournaments/", token,
            {"name": f"soak {index}", "game": game, "bots": ids, "players_per_match": players},
        )  # fmt: skip
        self.events.append((self.now(), f"tournament soak {index} ({game}, {len(ids)} bots)"))

    # ----- measuring --------------------------------------------------------------------

    def _health_loop(self) -> None:
        with (self.out / "health.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["t", "status"])
            while not self.stop_event.is_set():
                status = health_status(self.stack.url, timeout=8)
                moment = self.now()
                self.health.append((moment, status))
                writer.writerow([f"{moment:.1f}", status])
                handle.flush()
                self.stop_event.wait(self.args.health_every)

    def _sample_loop(self, database: Database) -> None:
        columns = ["t", "finished", "failed", "waiting", "oldest_wait_s", "db_bytes",
                   "queue_depth", "zombies", "orphans", "health", "pool_processes"]  # fmt: skip
        for role in ROLES:
            columns += [f"{role}_pid", f"{role}_rss_mb", f"{role}_fds"]
        with (self.out / "samples.csv").open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            while True:
                writer.writerow(self._sample(database))
                handle.flush()
                if self.stop_event.wait(self.args.sample):
                    return

    def _sample(self, database: Database) -> dict[str, object]:
        row: dict[str, object] = {"t": round(self.now(), 1)}
        try:
            (finished, failed, waiting, oldest, size), = database.query(
                "SELECT count(*) FILTER (WHERE status = 'finished'),"
                " count(*) FILTER (WHERE status = 'failed'),"
                " count(*) FILTER (WHERE status = 'queued'),"
                " extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'queued')),"
                " pg_database_size(current_database()) FROM arena_match"
            )  # fmt: skip
            row.update(finished=finished, failed=failed, waiting=waiting, db_bytes=size,
                       oldest_wait_s=round(float(oldest or 0), 1))  # fmt: skip
        except Exception:  # the database is down in this sample: its figures are blank
            pass
        row["queue_depth"] = queue_depth(self.stack.embedded.redis.url)
        row["zombies"], row["orphans"] = leaked(self.stack)
        row["health"] = self.health[-1][1] if self.health else ""
        roles = self.stack.roles()
        row["pool_processes"] = len(roles["pool"])
        for role, procs in roles.items():
            rss = fds = 0
            for proc in procs:
                try:
                    rss += proc.memory_info().rss
                    fds += proc.num_fds()
                except psutil.Error:
                    pass
            if procs:
                row[f"{role}_pid"] = procs[0].pid if role != "pool" else len(procs)
                row[f"{role}_rss_mb"] = round(rss / 2**20, 1)
                row[f"{role}_fds"] = fds
        return row

    def _write_faults(self) -> None:
        with (self.out / "faults.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["kind", "started", "ended", "detail"])
            for fault in self.faults:
                writer.writerow(
                    [fault.kind, f"{fault.started:.1f}", f"{fault.ended:.1f}", fault.detail]
                )
        with (self.out / "events.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["t", "event"])
            writer.writerows((f"{t:.1f}", text) for t, text in self.events)

    def _write_audit(self) -> None:
        env = dict(self.stack.env)
        env.update(self.stack.embedded.environment(True, True))
        env.setdefault("DEBUG", "true")
        done = subprocess.run(
            [sys.executable, "manage.py", "audit_ratings", "--json"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        (self.out / "audit.json").write_text(
            done.stdout or json.dumps({"error": done.stderr[-2000:]})
        )

    def _write_waits(self, database: Database) -> None:
        """When each match waited for a worker: queued to first claim, lapse to next claim."""
        rows = database.query(
            "SELECT m.id, extract(epoch FROM m.created_at), extract(epoch FROM m.claimed_at),"
            " m.status, coalesce(json_agg(json_build_array(extract(epoch FROM a.started_at),"
            " extract(epoch FROM a.ended_at), a.outcome) ORDER BY a.id)"
            " FILTER (WHERE a.id IS NOT NULL), '[]')"
            " FROM arena_match m LEFT JOIN arena_matchattempt a ON a.match_id = m.id"
            " GROUP BY m.id"
        )
        (clock,) = database.query("SELECT extract(epoch FROM now())")[0]
        offset = float(clock) - self.now()  # database epoch of this run's second 0
        with (self.out / "waits.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["match", "status", "waited_from", "waited_to"])
            for match_id, created, claimed, status, attempts in rows:
                starts = [float(a[0]) for a in attempts if a[0] is not None]
                first = min(starts) if starts else (float(claimed) if claimed else float(clock))
                writer.writerow([match_id, status, float(created) - offset, first - offset])
                for earlier, later in zip(attempts, attempts[1:], strict=False):
                    if later[0] is not None and earlier[1] is not None:
                        writer.writerow(
                            [
                                match_id,
                                "retry",
                                float(earlier[1]) - offset,
                                float(later[0]) - offset,
                            ]
                        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=120.0)
    parser.add_argument(
        "--out", default=str(ROOT / "var" / "soak" / time.strftime("%Y%m%d-%H%M%S"))
    )
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between samples")
    parser.add_argument(
        "--health-every", type=float, default=3.0, help="seconds between health polls"
    )
    parser.add_argument("--warmup", type=float, default=10.0, help="minutes before the first fault")
    parser.add_argument("--fault-every", type=float, default=6.0, help="minutes between faults")
    parser.add_argument(
        "--faults", default=",".join(FAULT_KINDS), help="kinds, in turn; '' for none"
    )
    parser.add_argument("--upload-every", type=float, default=3.0, help="minutes between uploads")
    parser.add_argument(
        "--tournament-every", type=float, default=4.0, help="minutes between tournaments"
    )
    args = parser.parse_args(argv)
    unknown = [k for k in args.faults.split(",") if k and k not in FAULT_KINDS]
    if unknown:
        parser.error(f"unknown fault kinds {unknown}; known: {', '.join(FAULT_KINDS)}")
    return Soak(args).run()


if __name__ == "__main__":
    sys.exit(main())
