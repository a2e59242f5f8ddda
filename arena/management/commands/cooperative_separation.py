"""`python manage.py cooperative_separation`: the cooperative rating, heuristic against random.

Plays `--games` tables of Moon Adventure (or another cooperative `--game`) in this process
with the reference heuristic, the random bot and `--partners` heuristic team-mates, rates
them with the arena's own code (the live Elo and the whole-history fit on the graded
outcome, and the fit on success alone for comparison) and prints each bot's ratings
and success rate with their 95% intervals (arena/ladder/cooperative_separation.py).
No database, no workers, no sandbox. Exit status 1 when the heuristic's skill interval
does not lie above the random bot's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from arena.ladder.cooperative_separation import measure


class Command(BaseCommand):
    help = "Rate the reference heuristic against the random bot in a cooperative game."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="moon_adventure")
        parser.add_argument("--games", type=int, default=200, help="tables to play (200)")
        parser.add_argument("--partners", type=int, default=3, help="heuristic team-mates (3)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--sizes", type=int, nargs="+", default=None, help="table sizes (the ladder's)"
        )
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = measure(
                Path(settings.ARENA_REFERENCE_BOTS_DIR),
                game_name=options["game"],
                games=options["games"],
                partners=options["partners"],
                seed=options["seed"],
                sizes=options["sizes"],
            )
        except (ValueError, LookupError, FileNotFoundError) as exc:
            raise CommandError(str(exc)) from None
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self._table(report)
        if not report["separated"]:
            raise SystemExit(1)

    def _table(self, report: dict[str, Any]) -> None:
        self.stdout.write(
            f"{report['game']}: {report['games']} tables of {report['sizes']} seats,"
            f" seed {report['seed']}"
        )
        self.stdout.write(
            f"{'bot':<11} {'games':>5} {'Elo':>7}  {'skill [95%]':<24} "
            f"{'success only [95%]':<24} {'successes [95% Wilson]':<28} progress"
        )
        for row in report["bots"]:
            skill = f"{row['skill']:.0f} [{row['skill_low']:.0f}, {row['skill_high']:.0f}]"
            only = (
                f"{row['success_only_skill']:.0f} "
                f"[{row['success_only_low']:.0f}, {row['success_only_high']:.0f}]"
            )
            rate = (
                f"{row['successes']} ({100 * (row['success_rate'] or 0):.1f}%)"
                f" [{100 * row['success_low']:.1f}, {100 * row['success_high']:.1f}]%"
            )
            self.stdout.write(
                f"{row['bot']:<11} {row['games']:>5} {row['elo']:>7.1f}  {skill:<24} "
                f"{only:<24} {rate:<28} {row['mean_progress']:.3f}"
            )
        self.stdout.write(
            f"heuristic above random: {'yes' if report['separated'] else 'no'}"
            f" (on success alone: {'yes' if report['separated_on_success_only'] else 'no'})"
        )
