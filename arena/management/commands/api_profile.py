"""`python manage.py api_profile`: queries, peak memory and time of each request of the
load benchmark's read mix (arena/bench/mix.py), served in-process on the configured database.

The load itself is locust's (scripts/locustfile.py); this says what one request costs.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.bench.mix import mix


class Command(BaseCommand):
    help = "Queries, peak Python memory and time per request of the API's read mix."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=20)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **opts) -> None:
        rng = random.Random(opts["seed"])
        client = Client(HTTP_HOST="127.0.0.1")
        seen: dict[str, dict[str, list[float]]] = {}
        for _ in range(opts["rounds"]):
            for name, path in mix(rng):
                tracemalloc.start()
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    response = client.get(path)
                    elapsed = time.perf_counter() - start
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                if response.status_code != 200:
                    self.stderr.write(f"{response.status_code} {path}")
                row = seen.setdefault(name, {"queries": [], "mb": [], "ms": []})
                row["queries"].append(len(queries))
                row["mb"].append(peak / 1e6)
                row["ms"].append(elapsed * 1000)
        self.stdout.write(f"{'request':32} {'queries':>7} {'peak MB':>8} {'median ms':>9}")
        for name, row in seen.items():
            self.stdout.write(
                f"{name:32} {max(row['queries']):>7} {max(row['mb']):>8.1f} "
                f"{statistics.median(row['ms']):>9.1f}"
            )
