"""`python manage.py ratings_bench`: a whole-history refit at scale, cold and warm.

It writes a synthetic game into the configured PostgreSQL database: `--bots` bots (5,000)
of known strength and `--matches` finished, rated multiplayer matches (1,000,000 of 3 to 5
seats, finishing orders drawn from the Plackett–Luce model), then times

* cold: the first refit of the game (no previous fit), read + fit + store;
* warm: after `--new` more matches (1% by default), the next refit, warm-started from
  the cold one, as the refit task runs after every N results;

and prints the breakdown of the warm refit (read, orderings, fit, store), the peak memory
(the process's maximum resident set, and the peak numpy and Python allocation during one
more refit, traced by tracemalloc),
and how far the fit is from the truth. The process is pinned to one CPU and BLAS to one
thread: the goal is a warm refit under 10 s on one core. On a shared machine the wall
clock also counts the time other processes held that core, so the CPU seconds of this
process and of its PostgreSQL backend (the read's query, from /proc) are printed beside it.
Rows are deleted afterwards unless --keep is given.
"""

from __future__ import annotations

import os

# Before numpy is imported (by the services below): one BLAS thread, on the one CPU.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import io  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management.base import BaseCommand, CommandError  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from arena.models import Bot, BotVersion, SkillFit  # noqa: E402
from arena.ratings.whole_history import ELO_PER_UNIT  # noqa: E402
from arena.services import skills  # noqa: E402

GAME = "bench-ratings"
OWNER = "ratings-bench"


class RatingsBench(BaseCommand):
    help = "Time a whole-history refit of 5,000 bots and 1,000,000 multiplayer matches."

    def add_arguments(self, parser):
        parser.add_argument("--bots", type=int, default=5000)
        parser.add_argument("--matches", type=int, default=1_000_000)
        parser.add_argument("--new", type=int, default=None, help="matches before the warm refit")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin to")
        parser.add_argument("--keep", action="store_true", help="keep the synthetic rows")
        parser.add_argument(
            "--reuse", action="store_true", help="time the rows an earlier --keep run left"
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        if connection.vendor != "postgresql":
            raise CommandError("ratings_bench writes its rows with COPY: it needs PostgreSQL")
        if opts["bots"] < 5 or opts["matches"] < 1:
            raise CommandError("--bots must be at least 5 and --matches at least 1")
        allowed = os.sched_getaffinity(0)
        cpu = opts["cpu"] if opts["cpu"] is not None else min(allowed)
        os.sched_setaffinity(0, {cpu})
        new = opts["new"] if opts["new"] is not None else max(1, opts["matches"] // 100)
        rng = np.random.default_rng(opts["seed"])
        reuse = opts["reuse"] and Bot.objects.filter(game=GAME).count() == opts["bots"]
        if reuse:
            SkillFit.objects.filter(game=GAME).delete()
        else:
            self._clean()
        try:
            report = self._run(rng, opts["bots"], opts["matches"], new, reuse)
        finally:
            if not opts["keep"]:
                self._clean()
            os.sched_setaffinity(0, allowed)  # the process may go on (call_command)
        report.update({"cpu": cpu, "load_average": os.getloadavg()})
        if opts["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            for key, value in report.items():
                self.stdout.write(f"{key:>34}: {value}")

    def _run(
        self, rng: np.random.Generator, bots: int, matches: int, new: int, reuse: bool
    ) -> dict[str, Any]:
        started = time.perf_counter()
        if reuse:
            bot_ids = np.array(Bot.objects.filter(game=GAME).order_by("id").values_list("pk"))
            bot_ids, theta = bot_ids.ravel(), rng.normal(0.0, 1.0, bots)
        else:
            bot_ids, theta = self._bots(rng, bots)
            self._matches(rng, bot_ids, theta, matches)
        written = time.perf_counter() - started
        self.stderr.write(f"{bots} bots and their matches ready in {written:.1f}s")

        started, cpu, db = time.perf_counter(), time.process_time(), self._database_cpu()
        cold = skills.refit(GAME, force=True, cooperative=False)
        cold_seconds = time.perf_counter() - started
        cold_cpu = time.process_time() - cpu
        cold_db = self._database_cpu() - db
        assert cold is not None
        self._matches(rng, bot_ids, theta, new)

        started, cpu, db = time.perf_counter(), time.process_time(), self._database_cpu()
        warm = skills.refit(GAME, force=True, cooperative=False)
        warm_seconds = time.perf_counter() - started
        warm_cpu = time.process_time() - cpu
        warm_db = self._database_cpu() - db
        assert warm is not None and warm.warm

        phases = getattr(warm, "phases", {})
        peak = self._traced_peak()
        fitted = dict(warm.entries.values_list("bot_id", "skill"))
        truth = 1500 + (theta - theta.mean()) * ELO_PER_UNIT
        error = np.array([fitted[int(b)] for b in bot_ids]) - truth
        return {
            "bots": bots,
            "matches": cold.matches,
            "new_matches_before_warm": new,
            "cold_refit_seconds": round(cold_seconds, 2),
            "cold_refit_cpu_seconds": round(cold_cpu, 2),
            "cold_refit_database_cpu_seconds": round(cold_db, 2),
            "cold_iterations": cold.iterations,
            "warm_refit_seconds": round(warm_seconds, 2),
            "warm_refit_cpu_seconds": round(warm_cpu, 2),
            "warm_refit_database_cpu_seconds": round(warm_db, 2),
            "warm_iterations": warm.iterations,
            **{f"warm_{name}_seconds": round(value, 2) for name, value in phases.items()},
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "refit_peak_traced_mb": round(peak / 2**20),
            "skill_error_rms_elo": round(float(np.sqrt(np.mean(error**2))), 1),
        }

    def _database_cpu(self) -> float:
        """CPU seconds used so far by this connection's PostgreSQL backend (same machine).

        Read from /proc; NaN when the server runs elsewhere or hides its processes.
        """
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        # utime and stime, fields 14 and 15 of the line (11 and 12 after the name).
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _traced_peak(self) -> int:
        """numpy's and Python's peak allocation during one more (warm) refit, in bytes.

        A separate run: tracemalloc slows allocation, so the timed refits run without it.
        """
        tracemalloc.start()
        try:
            skills.refit(GAME, force=True, cooperative=False)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    def _bots(self, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
        owner, _ = User.objects.get_or_create(username=OWNER)
        made = Bot.objects.bulk_create(
            Bot(owner=owner, name=f"bench-{i}", game=GAME) for i in range(count)
        )
        BotVersion.objects.bulk_create(
            BotVersion(bot=b, number=1, source=b"", filename="bot.py", sha256="", size=0)
            for b in made
        )
        return np.array([b.pk for b in made]), rng.normal(0.0, 1.0, count)

    def _matches(
        self,
        rng: np.random.Generator,
        bot_ids: np.ndarray,
        theta: np.ndarray,
        count: int,
    ) -> None:
        """COPY `count` finished rated matches of 3-5 seats after the last match id."""
        versions = dict(
            BotVersion.objects.filter(bot_id__in=bot_ids.tolist()).values_list("bot_id", "pk")
        )
        version_of = np.array([versions[int(b)] for b in bot_ids])
        with connection.cursor() as cursor:
            cursor.execute("SELECT coalesce(max(id), 0) FROM arena_match")
            first = int(cursor.fetchone()[0]) + 1
        with transaction.atomic():
            for begin in range(0, count, 100_000):
                size = min(100_000, count - begin)
                self._chunk(rng, bot_ids, version_of, theta, first + begin, size)
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence('arena_match', 'id'), %s)",
                    [first + count],
                )

    def _chunk(self, rng, bot_ids, version_of, theta, first: int, count: int) -> None:
        sizes = rng.integers(3, 6, count)
        seats_total = int(sizes.sum())
        match_of_seat = np.repeat(np.arange(count), sizes)
        seat_no = np.arange(seats_total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        item = rng.integers(0, len(bot_ids), seats_total)
        # No bot twice at one table: redraw clashing seats until there are none.
        while True:
            order = np.lexsort((item, match_of_seat))
            clash = np.zeros(seats_total, dtype=bool)
            same = (match_of_seat[order][1:] == match_of_seat[order][:-1]) & (
                item[order][1:] == item[order][:-1]
            )
            clash[order[1:][same]] = True
            if not clash.any():
                break
            item[clash] = rng.integers(0, len(bot_ids), int(clash.sum()))
        noise = theta[item] + rng.gumbel(size=seats_total)
        # Rank within each table: 1 for the largest noisy strength (Plackett–Luce order).
        order = np.lexsort((-noise, match_of_seat))
        starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
        rank = np.empty(seats_total, dtype=np.int64)
        rank[order] = np.arange(seats_total) - starts + 1
        match_rows = io.StringIO()
        for i in range(count):
            match_rows.write(
                f"{first + i}\t{GAME}\tbench@1\t{sizes[i]}\t{{}}\t{{}}\t{i}\tfinished\t1\t0\t\tt\t"
                "2026-01-01 00:00:00+00\tladder\n"
            )
        seat_rows = io.StringIO()
        ids, versions = bot_ids[item], version_of[item]
        for j in range(seats_total):
            seat_rows.write(
                f"{first + match_of_seat[j]}\t{seat_no[j]}\t{ids[j]}\t{versions[j]}\t{rank[j]}\t\t\n"
            )
        with connection.cursor() as cursor:
            raw = cursor.cursor
            with raw.copy(
                "COPY arena_match (id, game, rules_version, players, options, limits, seed,"
                " status, attempts, decisions, error, rated, created_at, purpose) FROM STDIN"
            ) as copy:
                copy.write(match_rows.getvalue())
            with raw.copy(
                "COPY arena_matchseat (match_id, seat, bot_id, bot_version_id, rank,"
                " forfeit_reason, stderr) FROM STDIN"
            ) as copy:
                copy.write(seat_rows.getvalue())

    def _clean(self) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "DELETE FROM arena_matchseat WHERE match_id IN"
                " (SELECT id FROM arena_match WHERE game = %s)",
                [GAME],
            )
            cursor.execute("DELETE FROM arena_match WHERE game = %s", [GAME])
            SkillFit.objects.filter(game=GAME).delete()
            BotVersion.objects.filter(bot__game=GAME).delete()
            Bot.objects.filter(game=GAME).delete()
            User.objects.filter(username=OWNER).delete()
