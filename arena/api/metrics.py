"""GET /metrics: the health report's figures and the arena's counters, for Prometheus.

Everything is read at scrape time from the database and Redis (arena/services/health.py),
never kept in a process's memory, so any web process answers for the whole arena and the
counters survive restarts: matches by status and purpose, forfeits, validations by outcome,
sandbox starts (added to Redis by each pool process after each task).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector, CollectorRegistry

from arena.services import health


def _gauge(name: str, text: str, value: Any, labels: dict[str, str] | None = None) -> Metric:
    family = GaugeMetricFamily(name, text, labels=list(labels or {}))
    family.add_metric(list((labels or {}).values()), float(value))
    return family


def _sandbox_starts() -> int | None:
    try:
        client = health._redis_client()
        raw = client.get(health.SANDBOX_STARTS_KEY) if client is not None else None
    except Exception:  # the broker's failure shows in arena_part_up
        return None
    return int(raw or 0) if client is not None else None


class ArenaCollector(Collector):
    def collect(self) -> Iterator[Metric]:
        healthy, report = health.check()
        yield _gauge("arena_healthy", "1 when /api/health/ answers 200", healthy)
        up = GaugeMetricFamily("arena_part_up", "1 when the part answers", labels=["part"])
        for part in ("database", "broker", "workers"):
            up.add_metric([part], float(bool(report[part].get("ok"))))
        yield up
        failing = GaugeMetricFamily("arena_part_failing", "1 when health names the part failing", labels=["part"])  # fmt: skip
        for part in ("database", "database disk", "broker", "workers", "queue", "worker restarts"):
            failing.add_metric([part], float(part in report["failing"]))
        yield failing
        for part in ("database", "broker"):
            if "ms" in report[part]:
                yield _gauge(
                    f"arena_{part}_latency_seconds", f"{part} round trip", report[part]["ms"] / 1000
                )
        if "free_disk_percent" in report["database"]:
            yield _gauge("arena_database_free_disk_ratio", "free share of the database's disk", report["database"]["free_disk_percent"] / 100)  # fmt: skip
        depth = GaugeMetricFamily(
            "arena_queue_depth", "messages waiting in a queue", labels=["queue"]
        )
        for name, value in report["broker"].get("queues", {}).items():
            depth.add_metric([name], float(value))
        yield depth
        matches = report["matches"]
        if matches.get("ok"):
            yield _gauge("arena_matches_waiting", "matches queued for a worker", matches["waiting"])
            yield _gauge("arena_oldest_wait_seconds", "age of the oldest queued match", matches["oldest_wait_seconds"])  # fmt: skip
            yield _gauge("arena_matches_finished_last_5_minutes", "throughput", matches["finished_last_5_minutes"])  # fmt: skip
        workers = report["workers"]
        yield _gauge("arena_workers_live", "workers that answered a ping", workers.get("count", 0))
        per_node = {
            "pool_processes": "live pool processes",
            "zombies": "zombie processes under the node",
            "orphans": "sandbox processes that outlived their parent",
            "starts_last_hour": "starts of the node in the last hour",
            "pool_starts_last_hour": "pool process starts in the last hour",
            "reaped": "orphaned processes the node reaped since it started",
        }
        for field, text in per_node.items():
            family = GaugeMetricFamily(f"arena_worker_{field}", text, labels=["node"])
            for index, node in enumerate(workers.get("nodes", [])):
                family.add_metric([str(index)], float(node.get(field, 0) or 0))
            yield family
        reaper = report["reaper"].get("seconds_ago")
        if reaper is not None:
            yield _gauge("arena_reaper_last_sweep_seconds", "seconds since the reaper's last sweep", reaper)  # fmt: skip
        resent = report["reaper"].get("resent")
        if resent is not None:
            family = CounterMetricFamily(
                "arena_reaper_resent", "queued matches re-sent as their message was lost"
            )
            family.add_metric([], float(resent))
            yield family
        starts = _sandbox_starts()
        if starts is not None:
            family = CounterMetricFamily("arena_sandbox_starts", "bots started in a sandbox")
            family.add_metric([], float(starts))
            yield family
        if report["database"].get("ok"):
            yield from self._counters()

    def _counters(self) -> Iterator[Metric]:
        from arena.models import BotVersion, Match, MatchSeat

        family = CounterMetricFamily("arena_matches", "matches by status and purpose", labels=["status", "purpose"])  # fmt: skip
        rows = Match.objects.values("status", "purpose").annotate(n=Count("id")).order_by()
        for row in rows:
            family.add_metric([row["status"], row["purpose"]], float(row["n"]))
        yield family
        forfeits = MatchSeat.objects.exclude(forfeit_reason="").count()
        forfeit_family = CounterMetricFamily("arena_forfeits", "seats that forfeited")
        forfeit_family.add_metric([], float(forfeits))
        yield forfeit_family
        validations = CounterMetricFamily("arena_validations", "bot versions by validation outcome", labels=["outcome"])  # fmt: skip
        for row in BotVersion.objects.values("validation").annotate(n=Count("id")).order_by():
            validations.add_metric([row["validation"]], float(row["n"]))
        yield validations


def metrics_view(request: HttpRequest) -> HttpResponse:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ArenaCollector())
    response = HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
