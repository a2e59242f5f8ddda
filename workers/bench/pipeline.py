"""`python manage.py arena_bench --matches N`: the pipeline's throughput beside the referee's.

It plays the same N matches (same game, seeds, seatings and reference bots, the
same launcher starting the same bot processes) twice, on the same number of
processes:

* referee: a pool of C processes calling `workers.play.referee.play_match` directly;
* pipeline: C real Celery worker processes (`celery -A workers worker -c C`)
  fed through the configured broker, claiming each match in the configured
  database, playing it and committing its result and Elo ratings.

With --set-size S (issue 20) both sides play the matches in sets of S consecutive
matches (the same bots, seats rotating), as a worker plays a MatchSet or a pairing's
games: one Celery task (`run_set`) per set on the pipeline side, `play_set` on the
referee's, one bot process per bot for the whole set.

Start-up (pool and worker boot, the sandbox check) is outside both timings; the
pipeline clock runs from the first enqueue to the last match's recording
(its `finished_at`, stamped just before the final write and commit). The
goal is a pipeline at >= 90% of the referee's matches per second. Bench bots and
matches are deleted afterwards unless --keep is given.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, transaction
from django.db.models import Max
from django.utils import timezone

import engine
from arena.bench.cpu import (
    celery_worker_cpu,
    database_cpu_by_backend,
    database_cpu_since,
    own_cpu,
    process_cpu,
)
from arena.models import Bot, Match, MatchSeat
from workers.bench.referee_pool import (
    pool_finish,
    pool_init,
    pool_play,
    pool_play_set,
    pool_warm,
)
from workers.sandbox.cgroups import BotCgroup, CgroupManager

REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
BENCH_OWNER = "arena-bench"
READY_SECONDS = 120.0
# How often the bench asks whether the pipeline is done. Each question is a query of
# ~1 ms of this process and of PostgreSQL, on the cores the pipeline uses (~1 % of a core
# at 0.1 s); the clock does not depend on it (it stops at the last match's recording).
POLL_SECONDS = 0.5


def default_bots(game: str) -> list[str]:
    heuristic = REFERENCE / f"{game}_heuristic.py"
    return [heuristic.name if heuristic.exists() else "first_bot.py", "random_bot.py"]


def seating(index: int, names: list[str], players: int) -> list[str]:
    """Match `index`'s seats: the bots in turn, rotated so each sits in each seat."""
    return [names[(index + seat) % len(names)] for seat in range(players)]


def lanes_cpu_seconds() -> float:
    """CPU time used so far by every live zygote lane's group on this host (`lane-<uid>`,
    workers/sandbox/zygote_lanes.py): the zygotes and the bots they ran. The bench adds it to its
    processes' own, since a lane's bot is no child of theirs. The empty groups a dead
    worker's lanes left behind are not counted: the next lane on that uid makes its group
    anew, from zero."""
    manager = CgroupManager()
    base = manager.bases.get("cpuacct") or manager.bases.get("unified")
    if base is None or not os.path.isdir(base):
        return 0.0
    total = 0.0
    for name in os.listdir(base):
        if name.startswith("lane-"):
            controller = "cpuacct" if manager.version == 1 else "unified"
            group = BotCgroup(manager.version, {controller: f"{base}/{name}"})
            if group.pids():
                total += group.cpu_seconds() or 0.0
    return total


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


# ----- the command ------------------------------------------------------------------------------


class PipelineBench(BaseCommand):
    help = (
        "Run N matches through the real pipeline (queue, Celery workers, database, ratings) "
        "and the same N matches through the referee alone; print matches/s for both."
    )

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=40, help="matches per run (N)")
        parser.add_argument("--game", default="moonrollers")
        parser.add_argument("--players", type=int, default=None, help="seats per match")
        parser.add_argument(
            "--bots",
            default=None,
            help="comma-separated files in bots/reference (default: the game's heuristic, "
            "or first_bot.py, against random_bot.py)",
        )
        parser.add_argument(
            "--concurrency",
            type=int,
            default=os.cpu_count() or 1,
            help="processes for each run (default: the number of cores)",
        )
        parser.add_argument(
            "--isolation",
            choices=("sandbox", "process"),
            default=None,
            help="how bots run (default: ARENA_BOT_ISOLATION)",
        )
        parser.add_argument(
            "--only", choices=("pipeline", "referee"), default=None, help="run one side only"
        )
        parser.add_argument(
            "--rounds", type=int, default=1, help="alternate referee and pipeline runs this often"
        )
        parser.add_argument(
            "--set-size",
            type=int,
            default=1,
            help="play the matches in sets of this many (one task and one process per bot "
            "for each set); 1: one task per match",
        )
        parser.add_argument("--keep", action="store_true", help="keep the bench bots and matches")
        parser.add_argument(
            "--external-workers",
            action="store_true",
            help="start no worker: feed the tournament queue to the workers already running "
            "against this database and broker (worker hosts; scripts/cluster_bench.py)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        n = opts["matches"]
        if n < 1:
            raise CommandError("--matches must be at least 1")
        concurrency = opts["concurrency"]
        if concurrency < 1:
            raise CommandError("--concurrency must be at least 1")
        if opts["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        set_size = opts["set_size"]
        if set_size < 1:
            raise CommandError("--set-size must be at least 1")
        try:
            game = engine.get_game(opts["game"])
        except engine.UnknownGame as exc:
            raise CommandError(str(exc)) from None
        players = opts["players"] or max(game.min_players, 2)
        try:
            game.check_players(players)
        except engine.InvalidSetup as exc:
            raise CommandError(str(exc)) from None
        names = opts["bots"].split(",") if opts["bots"] else default_bots(game.name)
        for name in names:
            if not (REFERENCE / name).is_file():
                raise CommandError(f"no reference bot {name!r} in {REFERENCE}")
        isolation = opts["isolation"] or settings.ARENA_BOT_ISOLATION
        jobs = [(game.name, seed, seating(seed, names, players)) for seed in range(1, n + 1)]
        report: dict[str, Any] = {
            "game": game.name,
            "matches": n,
            "players": players,
            "bots": names,
            "concurrency": concurrency,
            "set_size": set_size,
            "isolation": isolation,
            "database": connections["default"].vendor,
            "broker": settings.CELERY_BROKER_URL.split("://", 1)[0],
            "cpus": os.cpu_count(),
        }
        rounds = []
        for number in range(1, opts["rounds"] + 1):
            # Alternating the two sides spreads any change in the machine's load over both.
            entry: dict[str, Any] = {}
            if opts["only"] != "pipeline":
                self._say(opts, f"round {number}: referee, {n} matches on {concurrency} processes")
                entry["referee"] = self.run_referee(jobs, concurrency, isolation, set_size)
            if opts["only"] != "referee":
                self._say(
                    opts,
                    f"round {number}: pipeline, {n} matches on {concurrency} Celery worker processes",
                )
                entry["pipeline"] = self.run_pipeline(
                    jobs,
                    concurrency,
                    isolation,
                    opts["keep"],
                    set_size,
                    external=opts["external_workers"],
                )
            rounds.append(entry)
        report["rounds"] = rounds
        for side in ("referee", "pipeline"):
            runs = [entry[side] for entry in rounds if side in entry]
            if runs:
                report[side] = _total(runs)
        if "referee" in report and "pipeline" in report:
            report["ratio"] = round(
                report["pipeline"]["matches_per_second"] / report["referee"]["matches_per_second"],
                3,
            )
            referee, pipeline = report["referee"], report["pipeline"]
            if "cpu_per_match_ms" in pipeline:
                # The same ratio on cores of their own: matches per CPU-second (the
                # machine's other load does not enter it; Redis's share is left out).
                spent = pipeline["cpu_per_match_ms"] + pipeline["database_cpu_per_match_ms"]
                report["cpu_ratio"] = round(referee["cpu_per_match_ms"] / spent, 3)
        if opts["json"]:
            self.stdout.write(json.dumps(report))
        else:
            self.print_report(report)

    def _say(self, opts, text: str) -> None:
        if not opts["json"]:
            self.stderr.write(text)

    # ----- the referee alone ------------------------------------------------------------

    def run_referee(
        self, jobs, concurrency: int, isolation: str, set_size: int = 1
    ) -> dict[str, Any]:
        paths = {name: str(REFERENCE / name) for job in jobs for name in job[2]}
        work: list[Any] = [(g, seed, [paths[n] for n in seats], {}, {}) for g, seed, seats in jobs]
        play = pool_play
        if set_size > 1:
            play = pool_play_set  # type: ignore[assignment]
            work = [
                (chunk[0][0], [(seed, paths_) for _, seed, paths_, _, _ in chunk], {}, {})
                for chunk in _chunks(work, set_size)
            ]
        # Forked children must not share (and later close) this process's DB connections.
        connections.close_all()
        context = multiprocessing.get_context("fork")
        cpu_before = own_cpu()
        initargs = (isolation, context.Value("i", 0), context.Barrier(concurrency))
        with context.Pool(concurrency, initializer=pool_init, initargs=initargs) as pool:
            pool.map(pool_warm, range(concurrency))
            pids = [process.pid for process in pool._pool]  # type: ignore[attr-defined]
            # Zygote lanes' bots are no process's children: their groups are read instead.
            pool_cpu = sum(process_cpu(pid, reaped_children=True) for pid in pids)
            pool_cpu += lanes_cpu_seconds()
            started = time.perf_counter()
            played = pool.map(play, work, chunksize=1)
            seconds = time.perf_counter() - started
            # Off the clock, as the pipeline's last recording ends its clock.
            pool.map(pool_finish, range(concurrency), chunksize=1)
            pool_cpu = sum(process_cpu(pid, reaped_children=True) for pid in pids) - pool_cpu
            pool_cpu += lanes_cpu_seconds()
            pool.close()
            pool.join()
        figures = _figures(len(jobs), seconds, sum(d for d, _ in played))
        figures["play_seconds_mean"] = round(sum(p for _, p in played) / len(played), 4)
        # Pool processes and bots, start-up included (a launcher check per process).
        figures["cpu_seconds"] = round(own_cpu() - cpu_before, 2)
        # The pool's processes and their bots while they played, start-up excluded.
        figures["cpu_per_match_ms"] = round(pool_cpu / len(jobs) * 1e3, 2)
        return figures

    # ----- the real pipeline -------------------------------------------------------------

    def run_pipeline(
        self,
        jobs,
        concurrency: int,
        isolation: str,
        keep: bool,
        set_size: int = 1,
        external: bool = False,
    ) -> dict[str, Any]:
        from workers.celery import app
        from workers.queue.routing import TOURNAMENT, queue_name
        from workers.tasks import run_match

        queue = queue_name(TOURNAMENT) if external else f"arena-bench-{uuid.uuid4().hex[:8]}"
        bots = self.bench_bots(jobs[0][0], {name for job in jobs for name in job[2]})
        ids = self.create_matches(jobs, bots)
        cpu_before = own_cpu()
        worker, log = (None, None) if external else self.start_worker(queue, concurrency, isolation)
        worker_cpu = celery_worker_cpu(worker.pid) if worker is not None else (0.0, 0.0)
        lanes_cpu = lanes_cpu_seconds()
        database_cpu = database_cpu_by_backend()
        try:
            with app.producer_or_acquire() as producer:
                started = timezone.now()
                if set_size > 1:
                    from workers.tasks import run_set

                    for chunk in _chunks(ids, set_size):
                        run_set.apply_async((chunk,), queue=queue, producer=producer)
                else:
                    for match_id in ids:
                        run_match.apply_async((match_id,), queue=queue, producer=producer)
            done = self.wait_done(ids, worker, log)
            # Up to the last match's recording (stamped just before its final write and
            # commit), not to when the poll below noticed it: that would add up to
            # POLL_SECONDS to a run of a few seconds.
            last = Match.objects.filter(pk__in=ids).aggregate(last=Max("finished_at"))["last"]
            seconds = ((last or timezone.now()) - started).total_seconds()
            if worker is not None:
                main, pool = celery_worker_cpu(worker.pid)
                pool += lanes_cpu_seconds() - lanes_cpu  # the pool's bots in zygote lanes
                worker_cpu = (main - worker_cpu[0], pool - worker_cpu[1])
            database_cpu = database_cpu_since(database_cpu)
        finally:
            if worker is not None:
                self.stop_worker(worker)
                self.drop_queue(app, queue)
                log.unlink(missing_ok=True)
        cpu = own_cpu() - cpu_before
        rows = Match.objects.filter(pk__in=ids)
        finished = rows.filter(status=Match.Status.FINISHED, rated=True).count()
        decisions = sum(rows.values_list("decisions", flat=True))
        played = [d or 0.0 for d in rows.values_list("duration_seconds", flat=True)]
        figures = _figures(len(ids), seconds, decisions)
        figures["play_seconds_mean"] = round(sum(played) / len(played), 4)
        # The worker, its pool and the bots, start-up included; not PostgreSQL or Redis.
        figures["cpu_seconds"] = round(cpu, 2)
        if worker is not None:
            # While it worked, boot excluded: the Celery process, its pool and their bots;
            # and the PostgreSQL backends serving it (0 when the server is elsewhere).
            figures["cpu_per_match_ms"] = round(sum(worker_cpu) / len(ids) * 1e3, 2)
            figures["celery_main_cpu_per_match_ms"] = round(worker_cpu[0] / len(ids) * 1e3, 2)
            figures["database_cpu_per_match_ms"] = round(database_cpu / len(ids) * 1e3, 2)
        figures["finished_and_rated"] = finished
        figures.update(_time_split(rows))
        figures["failed"] = done - finished
        if not keep:
            self.clean_up(ids, bots)
        return figures

    def bench_bots(self, game: str, names: set[str]) -> dict[str, Bot]:
        owner, _ = User.objects.get_or_create(username=BENCH_OWNER)
        bots = {}
        for name in sorted(names):
            source = (REFERENCE / name).read_bytes()
            bot, _ = Bot.objects.get_or_create(
                owner=owner, game=game, name=f"bench-{Path(name).stem}"
            )
            latest = bot.latest_version()
            if latest is None or bytes(latest.source) != source:
                bot.add_version(source, name)
            bots[name] = bot
        return bots

    def create_matches(self, jobs, bots: dict[str, Bot]) -> list[int]:
        with transaction.atomic():
            game = engine.get_game(jobs[0][0])
            matches = Match.objects.bulk_create(
                Match(
                    game=game.name,
                    rules_version=game.rules_version,
                    players=len(seats),
                    seed=seed,
                )
                for _, seed, seats in jobs
            )
            versions = {name: bot.latest_version() for name, bot in bots.items()}
            MatchSeat.objects.bulk_create(
                MatchSeat(match=match, seat=seat, bot=bots[name], bot_version=versions[name])
                for match, (_, _, seats) in zip(matches, jobs, strict=True)
                for seat, name in enumerate(seats)
            )
        return [m.pk for m in matches]

    def start_worker(self, queue: str, concurrency: int, isolation: str):
        env = dict(os.environ)
        env.update({"ARENA_QUEUE": queue, "ARENA_BOT_ISOLATION": isolation})
        env.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
        env.setdefault("SECRET_KEY", settings.SECRET_KEY)
        handle, name = tempfile.mkstemp(prefix="arena-bench-worker-", suffix=".log")
        os.close(handle)
        log = Path(name)
        command = [
            str(Path(sys.executable).with_name("celery")),
            "-A",
            "workers",
            "worker",
            "-Q",
            queue,
            "-c",
            str(concurrency),
            "-n",
            f"{queue}@%h",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
        ]
        with log.open("wb") as out:
            worker = subprocess.Popen(
                command,
                cwd=Path(settings.BASE_DIR),
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + READY_SECONDS
        while b" ready." not in log.read_bytes():
            if worker.poll() is not None or time.monotonic() > deadline:
                self.stop_worker(worker)
                tail = log.read_text(errors="replace")[-3000:]
                log.unlink()
                raise CommandError(f"the Celery worker did not start:\n{tail}")
            time.sleep(0.05)
        # The pool processes check their launcher (the sandbox probe) as they start.
        time.sleep(0.5)
        return worker, log

    def wait_done(self, ids: list[int], worker, log) -> int:
        unfinished = Match.objects.filter(pk__in=ids).unfinished()
        while True:
            if not unfinished.exists():
                return len(ids)
            if worker is not None and worker.poll() is not None:
                tail = log.read_text(errors="replace")[-3000:]
                raise CommandError(f"the Celery worker stopped:\n{tail}")
            time.sleep(POLL_SECONDS)

    def stop_worker(self, worker) -> None:
        if worker.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(timeout=10)

    def drop_queue(self, app, queue: str) -> None:
        with contextlib.suppress(Exception), app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)

    def clean_up(self, ids: list[int], bots: dict[str, Bot]) -> None:
        with transaction.atomic():
            Match.objects.filter(pk__in=ids).delete()
            for bot in bots.values():
                if not bot.seats.exists():
                    bot.delete()

    # ----- output ------------------------------------------------------------------------

    def print_report(self, report: dict[str, Any]) -> None:
        out = self.stdout
        out.write(
            f"{report['matches']} {report['game']} matches, {report['players']} seats "
            f"({', '.join(report['bots'])}), sets of {report['set_size']}, "
            f"{report['concurrency']} processes, "
            f"bots in {report['isolation']}, {report['database']} + {report['broker']}"
        )
        for side in ("referee", "pipeline"):
            if side in report:
                f = report[side]
                rounds = ", ".join(f"{r:.2f}" for r in f["rounds_matches_per_second"])
                out.write(
                    f"  {side:<8} {f['matches_per_second']:8.2f} matches/s  "
                    f"({f['seconds']:.2f} s; rounds {rounds}; "
                    f"{f['decisions_per_second']:.0f} decisions/s; "
                    f"{f['play_seconds_mean'] * 1000:.0f} ms of play per match; "
                    f"{f['cpu_seconds']:.1f} CPU s)"
                )
        if "pipeline" in report and report["pipeline"].get("failed"):
            out.write(f"  warning: {report['pipeline']['failed']} pipeline matches failed")
        if "ratio" in report:
            verdict = "meets" if report["ratio"] >= 0.9 else "misses"
            out.write(f"  pipeline / referee = {report['ratio']:.1%} ({verdict} the 90% goal)")
        if "cpu_ratio" in report:
            out.write(
                f"  by CPU per match (referee {report['referee']['cpu_per_match_ms']} ms; "
                f"pipeline {report['pipeline']['cpu_per_match_ms']} ms + PostgreSQL "
                f"{report['pipeline']['database_cpu_per_match_ms']} ms): "
                f"{report['cpu_ratio']:.1%}"
            )


def _total(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """All rounds of one side together: matches over the summed seconds."""
    matches = sum(run["matches"] for run in runs)
    total = _figures(
        matches, sum(run["seconds"] for run in runs), sum(run["decisions"] for run in runs)
    )
    total["play_seconds_mean"] = round(
        sum(run["play_seconds_mean"] * run["matches"] for run in runs) / matches, 4
    )
    for key in ("wait_seconds_mean", "record_seconds_mean"):
        if all(key in run for run in runs):
            total[key] = round(sum(run[key] * run["matches"] for run in runs) / matches, 4)
    total["cpu_seconds"] = round(sum(run["cpu_seconds"] for run in runs), 2)
    for key in ("cpu_per_match_ms", "celery_main_cpu_per_match_ms", "database_cpu_per_match_ms"):
        if all(key in run for run in runs):
            total[key] = round(sum(run[key] * run["matches"] for run in runs) / matches, 2)
    total["rounds_matches_per_second"] = [run["matches_per_second"] for run in runs]
    return total


def _figures(matches: int, seconds: float, decisions: int) -> dict[str, Any]:
    return {
        "matches": matches,
        "seconds": round(seconds, 3),
        "matches_per_second": round(matches / seconds, 3) if seconds else None,
        "decisions": decisions,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
    }


def _time_split(rows) -> dict[str, Any]:
    """Where a match's time went, from its own timestamps (means over the run, seconds).

    wait: created to claimed (on the queue: broker, and waiting for a free worker);
    play: the referee and the bots (the sandbox's start-up and every decision);
    record: claimed to finished less play (reading the match, writing the bots' files,
    committing the result and the ratings: mostly database round trips).
    """
    found = list(rows.values_list("created_at", "claimed_at", "finished_at", "duration_seconds"))
    found = [row for row in found if None not in row]
    if not found:
        return {}
    count = len(found)
    wait = sum((claimed - created).total_seconds() for created, claimed, _, _ in found)
    busy = sum((finished - claimed).total_seconds() for _, claimed, finished, _ in found)
    play = sum(duration for *_, duration in found)
    return {
        "wait_seconds_mean": round(wait / count, 4),
        "play_seconds_mean": round(play / count, 4),
        "record_seconds_mean": round((busy - play) / count, 4),
    }
