"""`python scripts/cluster_bench.py`: arena_bench on 1, 2 and 3 worker hosts (root only).

Builds the test cluster (tests/workers/cluster/netns.py: its own PostgreSQL, durable,
and Redis on a private bridge, each worker host a network namespace with its own
hostname), adds one host at a time (one worker process each, bots in the bubblewrap
sandbox), and runs `python manage.py arena_bench --only pipeline --external-workers`
against it. Besides matches/s it prints where the time went: per match (play in the sandbox, recording, and the rest of a host's cycle: dispatch through the
broker and Celery) and the CPU seconds PostgreSQL and Redis used per
match, which is what says when they become the shared bottleneck.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.workers.cluster.netns import Cluster  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=3, help="up to this many worker hosts")
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--game", default="moonrollers")
    parser.add_argument("--isolation", choices=("sandbox", "process"), default="sandbox")
    args = parser.parse_args()
    cluster = Cluster(durable=True, env={"ARENA_BOT_ISOLATION": args.isolation})
    results = []
    try:
        cluster.manage("migrate", "--noinput", "-v", "0")
        for count in range(1, args.hosts + 1):
            host = cluster.add_host(f"moon-{count}")
            host.start(concurrency=1)
            host.wait_ready()
            time.sleep(1.0)  # the pool process's sandbox probe, outside the clock
            servers_before = cluster.server_cpu_seconds()
            load_before = os.getloadavg()
            report = json.loads(
                cluster.manage(
                    "arena_bench", "--only", "pipeline", "--external-workers", "--json",
                    "--matches", str(args.matches), "--game", args.game,
                    "--isolation", args.isolation, "--concurrency", "1",
                    timeout=1800,
                )
            )  # fmt: skip
            servers = cluster.server_cpu_seconds()
            pipeline = report["pipeline"]
            matches = pipeline["matches"]
            row = {
                "hosts": count,
                "matches": matches,
                "matches_per_second": pipeline["matches_per_second"],
                # One worker process per host: each host finishes a match every cycle.
                "cycle_ms": round(count * 1000 / pipeline["matches_per_second"], 1),
                "play_ms": round(pipeline["play_seconds_mean"] * 1000, 1),
                "record_ms": round(pipeline.get("record_seconds_mean", 0) * 1000, 1),
                "postgres_cpu_ms_per_match": round(
                    (servers["postgres"] - servers_before["postgres"]) * 1000 / matches, 2
                ),
                "redis_cpu_ms_per_match": round(
                    (servers["redis"] - servers_before["redis"]) * 1000 / matches, 2
                ),
                "failed": pipeline.get("failed", 0),
                "loadavg_before": [round(x, 2) for x in load_before],
                "loadavg_after": [round(x, 2) for x in os.getloadavg()],
            }
            row["dispatch_ms"] = round(row["cycle_ms"] - row["play_ms"] - row["record_ms"], 1)
            results.append(row)
            print(json.dumps(row), flush=True)
    finally:
        cluster.close()
    print(f"{'hosts':>5} {'matches/s':>9} {'cycle ms':>8} {'play ms':>8} {'record ms':>9}"
          f" {'dispatch ms':>11}"
          f" {'PG cpu ms/match':>15} {'Redis cpu ms/match':>18}  load avg (1 min)")  # fmt: skip
    for row in results:
        print(
            f"{row['hosts']:>5} {row['matches_per_second']:>9.2f} {row['cycle_ms']:>8.1f}"
            f" {row['play_ms']:>8.1f} {row['record_ms']:>9.1f} {row['dispatch_ms']:>11.1f}"
            f" {row['postgres_cpu_ms_per_match']:>15.2f} {row['redis_cpu_ms_per_match']:>18.2f}"
            f"  {row['loadavg_before'][0]:.2f} -> {row['loadavg_after'][0]:.2f}"
        )


if __name__ == "__main__":
    main()
