"""`python manage.py page_times [--runs 15]`: the server time of each page, median of runs.

Times a full request through Django (middleware, views, templates; no network) with the
test client against the configured database, for the pages people look at most: the
home page, each game's leaderboard (first page and a deep one), the bot with the most
matches, the largest tournament, a knockout, and one finished match per game. Prints the
median, the slowest run and the query count of each. Run it on the benchmark database
(`manage.py seed_benchmark`) to compare with the goal of 100 ms at the median.
"""

from __future__ import annotations

import json
import statistics
import time

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.models import Count
from django.test import Client

import engine
from arena.models import Match, MatchSeat, Rating, Tournament


def pages() -> list[tuple[str, str]]:
    found = [("home", "/")]
    for game in engine.game_names():
        found.append((f"leaderboard {game}", f"/games/{game}/"))
        found.append((f"leaderboard {game} by skill", f"/games/{game}/?order=skill"))
        count = Rating.objects.filter(game=game, bot__is_active=True).count()
        if count > 25 * 10:
            found.append((f"leaderboard {game} page 10", f"/games/{game}/?page=10"))
    busiest = MatchSeat.objects.values("bot_id").annotate(n=Count("id")).order_by("-n").first()
    if busiest:
        found.append(("busiest bot", f"/bots/{busiest['bot_id']}/"))
    largest = (
        Match.objects.filter(tournament__isnull=False)
        .values("tournament_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    if largest:
        found.append(("largest tournament", f"/tournaments/{largest['tournament_id']}/"))
    knockout = Tournament.objects.filter(format=Tournament.Format.KNOCKOUT).order_by("-id").first()
    if knockout:
        found.append(("knockout", f"/tournaments/{knockout.pk}/"))
    for game in engine.game_names():
        match = (
            Match.objects.filter(game=game, status=Match.Status.FINISHED)
            .order_by("-id")
            .values_list("pk", flat=True)
            .first()
        )
        if match:
            found.append((f"match {game}", f"/matches/{match}/"))
    found += [("sign-up", "/signup/"), ("log-in", "/login/")]
    return found


class Command(BaseCommand):
    help = "Median server time of each page over the configured database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=15)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--only", default="", help="only pages whose name contains this")

    def handle(self, *args, runs: int, **options) -> None:
        client = Client(SERVER_NAME="127.0.0.1")
        rows = []
        for name, path in pages():
            if options["only"] and options["only"] not in name:
                continue
            times, cpu = [], []
            queries: list[str] = []
            # Counted by a wrapper: the request's start resets Django's own query log.
            with connection.execute_wrapper(_counter(queries)):
                response = client.get(path)
            if response.status_code != 200:
                raise CommandError(f"{path} answered {response.status_code}")
            for _ in range(runs):
                started, started_cpu = time.perf_counter(), time.process_time()
                client.get(path)
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
            rows.append(
                {
                    "page": name,
                    "path": path,
                    "median_ms": round(statistics.median(times), 1),
                    "max_ms": round(max(times), 1),
                    # This process's CPU (Django, templates); the rest is the database's.
                    "cpu_median_ms": round(statistics.median(cpu), 1),
                    "queries": len(queries),
                    "bytes": len(response.content),
                }
            )
        if options["json"]:
            self.stdout.write(json.dumps(rows, indent=1))
            return
        for row in rows:
            self.stdout.write(
                f"{row['page']:<34} {row['median_ms']:>7.1f} ms median "
                f"{row['max_ms']:>7.1f} max {row['cpu_median_ms']:>6.1f} cpu "
                f"{row['queries']:>3} queries  {row['path']}"
            )


def _counter(queries: list[str]):
    def count(run, sql, *args):
        queries.append(sql)
        return run(sql, *args)

    return count
