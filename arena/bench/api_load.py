"""`python manage.py load_bench`: the API's anonymous read mix against gunicorn, at a set rate.

One command, unattended, from a shell with DATABASE_URL and SECRET_KEY exported (a database
built by `seed_benchmark`): it starts gunicorn with deploy/gunicorn.conf.py on a spare port
(DEBUG off, rate limits off: every request comes from 127.0.0.1, CACHE_URL's Redis for the
response cache, each answer's SQL count in X-Queries), makes the cached answers of this
database stale (a cold start), sends the mix (arena/bench/mix.py) for --warmup seconds
unrecorded, then --seconds recorded at --rate requests a second from an open-loop generator
(arena/bench/load.py), stops gunicorn, and prints per endpoint p50/p95/p99/max, req/s,
queries per request and the share of cache hits; then CPU per request of gunicorn (master
and workers), of the PostgreSQL backends serving it, of Redis (the whole server: it may be
shared) and of the generator itself; the workers' peak memory; the load average.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.conf import settings
from django.core.cache.backends.redis import RedisCache
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from arena.bench import cpu, load
from arena.bench.mix import mix
from arena.services import response_cache

ROOT = Path(settings.BASE_DIR)
APP_NAME = "arena-load-bench"


def _peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class ApiLoadBench(BaseCommand):
    help = "The anonymous read mix against gunicorn at a set rate: latency, CPU, queries."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rate", type=float, default=200.0, help="requests a second")
        parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
        parser.add_argument("--warmup", type=float, default=15.0, help="unrecorded first")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--workers", type=int, default=None, help="WEB_CONCURRENCY")
        parser.add_argument(
            "--cache-url",
            default=os.environ.get("CACHE_URL") or "redis://127.0.0.1:6379/0",
            help="Redis for the response cache and counters (CACHE_URL); 'none' for no cache",
        )
        parser.add_argument("--tournament", type=int, default=1, help="the biggest one")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **opts) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("load_bench needs DATABASE_URL on PostgreSQL (seed_benchmark)")
        with connection.cursor() as cursor:
            cursor.execute("SELECT coalesce(max(id), 0) FROM arena_bot")
            bots = cursor.fetchone()[0]
            cursor.execute("SELECT coalesce(max(id), 0) FROM arena_match")
            matches = cursor.fetchone()[0]
        if not bots or not matches:
            raise CommandError("the database has no bots or matches: run seed_benchmark first")
        cache_url = "" if opts["cache_url"] == "none" else opts["cache_url"]
        if cache_url:
            # A cold start: whatever an earlier run cached for this database is never read.
            RedisCache(cache_url, {}).set(
                f"{response_cache.namespace()}:gen:{response_cache.ALL}", str(time.time_ns())
            )
        server = self._start_gunicorn(opts, cache_url)
        try:
            self._run(server, opts, bots, matches)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()

    def _start_gunicorn(self, opts, cache_url: str) -> subprocess.Popen:
        url = os.environ.get("DATABASE_URL", "")
        sep = "&" if "?" in url else "?"
        env = {
            **os.environ,
            "DATABASE_URL": f"{url}{sep}application_name={APP_NAME}",
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "BIND": f"127.0.0.1:{opts['port']}",
            "CACHE_URL": cache_url,
            "API_THROTTLE_ANON": "off",
            "API_THROTTLE_USER": "off",
            "API_QUERY_COUNT_HEADER": "true",
            "WEB_ACCESS_LOG": "",
            "WEB_MAX_REQUESTS": "0",  # no worker restarts inside a measured run
        }
        if opts["workers"]:
            env["WEB_CONCURRENCY"] = str(opts["workers"])
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "deploy" / "gunicorn.conf.py"),
            "arena.wsgi:application",
        ]
        server = subprocess.Popen(command, cwd=ROOT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError(f"gunicorn exited with {server.returncode}")
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{opts['port']}/api/games/", timeout=5
                ):
                    return server
            except OSError:
                time.sleep(0.5)
        server.kill()
        raise CommandError("gunicorn did not answer within 60 s")

    def _postgres_backends(self) -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", [APP_NAME]
            )
            return [row[0] for row in cursor.fetchall()]

    def _run(self, server: subprocess.Popen, opts, bots: int, matches: int) -> None:
        rng = random.Random(opts["seed"])
        requests = load.chooser(
            rng, lambda r: mix(r, bots=bots, matches=matches, tournament=opts["tournament"])
        )
        rate, port = opts["rate"], opts["port"]
        self.stdout.write(
            f"gunicorn pid {server.pid}, {len(cpu.children(server.pid))} workers; "
            f"{bots} bots, {matches} matches; warm-up {opts['warmup']:.0f} s at {rate:.0f}/s"
        )
        load.drive("127.0.0.1", port, requests, rate, opts["warmup"], record=False)
        workers = cpu.children(server.pid)
        web = [server.pid, *workers]
        backends = self._postgres_backends()
        redis = _pids_named("redis-server")
        before = {pid: cpu.process_cpu(pid) for pid in web + backends + redis}
        load_start = _loadavg()
        run = load.drive("127.0.0.1", port, requests, rate, opts["seconds"])
        load_end = _loadavg()
        backends_after = self._postgres_backends()
        after = {pid: cpu.process_cpu(pid) for pid in web + backends_after + redis}

        def spent(pids) -> float:
            return sum(after.get(pid, 0.0) - before.get(pid, 0.0) for pid in set(pids))

        self._report(run, opts)
        n = max(1, len(run.samples))
        ms = 1000 / n
        self.stdout.write(
            f"\nCPU per request (ms): gunicorn {spent(web) * ms:.2f}, PostgreSQL backends "
            f"{spent(backends_after) * ms:.2f} ({len(backends_after)} connections), "
            f"Redis server (whole, may be shared) {spent(redis) * ms:.2f}, "
            f"this generator {run.cpu_seconds * ms:.2f}"
        )
        self.stdout.write(
            f"CPU cores used: gunicorn {spent(web) / run.seconds:.2f}, PostgreSQL "
            f"{spent(backends_after) / run.seconds:.2f}, generator "
            f"{run.cpu_seconds / run.seconds:.2f}"
        )
        peaks = [_peak_rss_mb(pid) for pid in workers]
        self.stdout.write(
            f"gunicorn workers' peak resident memory (VmHWM): max {max(peaks, default=0):.0f} MB"
        )
        self.stdout.write(f"load average: {load_start} at the start, {load_end} at the end")

    def _report(self, run: load.Run, opts) -> None:
        by_name: dict[str, list[load.Sample]] = {}
        for sample in run.samples:
            by_name.setdefault(sample.name, []).append(sample)
        header = f"{'request':30} {'n':>6} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} "
        self.stdout.write("\n" + header + f"{'queries':>8} {'hits':>5} {'KB':>6}")
        for name, samples in [*sorted(by_name.items()), ("all", run.samples)]:
            times = [s.seconds * 1000 for s in samples]
            counted = [s.queries for s in samples if s.queries is not None]
            queries = sum(counted) / len(counted) if counted else float("nan")
            hits = 100 * sum(s.cached for s in samples) / max(1, len(samples))
            size = max((s.size for s in samples), default=0) / 1024
            self.stdout.write(
                f"{name:30} {len(samples):>6} "
                + " ".join(f"{load.percentile(times, q):>7.1f}" for q in (50, 95, 99, 100))
                + f" {queries:>8.2f} {hits:>4.0f}% {size:>6.0f}"
            )
        served = len(run.samples) / run.seconds if run.seconds else 0.0
        kinds: dict[str, int] = {}
        for key, count in run.errors.items():
            kind = key.rsplit(": ", 1)[1]
            kinds[kind] = kinds.get(kind, 0) + count
        errors = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        self.stdout.write(
            f"\noffered {opts['rate']:.0f}/s for {opts['seconds']:.0f} s; answered "
            f"{served:.1f}/s ({len(run.samples)} answers; ms from each request's scheduled "
            f"start; KB is the largest answer); failed: {errors or 'none'}"
        )
