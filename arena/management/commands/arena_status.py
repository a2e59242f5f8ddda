"""`python manage.py arena_status [--json]`: the health report, for an operator's terminal.

The same report as /api/health/ (arena/services/health.py), one line per part; exit code 1
when a critical part fails, naming it.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from arena.services import health


class Command(BaseCommand):
    help = "Report each part of the arena (database, broker, matches, workers, reaper)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="the report as JSON")

    def handle(self, *args, **options):
        healthy, report = health.check()
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=1))
        else:
            self.stdout.write(self._text(healthy, report))
        if not healthy:
            raise SystemExit(1)

    def _text(self, healthy: bool, report: dict) -> str:
        def part(name: str, body: dict, extra: str = "") -> str:
            state = "ok" if body.get("ok") else f"FAILING ({body.get('error', '?')})"
            latency = f" {body['ms']} ms" if "ms" in body else ""
            return f"{name:<9} {state}{latency}{extra}"

        database, broker, matches = report["database"], report["broker"], report["matches"]
        disk = database.get("free_disk_percent")
        queues = ", ".join(f"{k} {v}" for k, v in broker.get("queues", {}).items())
        lines = [
            f"status    {'ok' if healthy else 'UNAVAILABLE: ' + ', '.join(report['failing'])}",
            part("database", database, f", {disk}% disk free" if disk is not None else ""),
            part("broker", broker, f", queues: {queues}" if queues else ""),
            part(
                "matches",
                matches,
                f", {matches.get('waiting', '?')} waiting (oldest "
                f"{matches.get('oldest_wait_seconds', '?')} s), "
                f"{matches.get('finished_last_5_minutes', '?')} finished in 5 min",
            ),
        ]
        workers = report["workers"]
        lines.append(
            part(
                "workers",
                workers,
                f", {workers.get('count', 0)} live, {workers['required']} required",
            )
        )
        for index, node in enumerate(workers.get("nodes", [])):
            lines.append(
                f"  node {index}: {node.get('pool_processes')}/{node.get('concurrency')} pool "
                f"processes, {node.get('zombies')} zombies, {node.get('orphans')} orphans, "
                f"{node.get('starts_last_hour', '?')} starts and "
                f"{node.get('pool_starts_last_hour', '?')} pool starts in the last hour, "
                f"heartbeat {node.get('age_seconds')} s ago"
            )
        ago = report["reaper"].get("seconds_ago")
        lines.append(
            f"reaper    last sweep {ago} s ago" if ago is not None else "reaper    never seen"
        )
        return "\n".join(lines)
