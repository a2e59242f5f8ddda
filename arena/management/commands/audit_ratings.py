"""`python manage.py audit_ratings [--game G] [--json]`: is every match rated exactly once?

Replays each game's rated matches in commit order and compares with the stored ratings
(arena/services/rating_audit.py). Exit code 1 when any game's audit finds a problem.
"""

from __future__ import annotations

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

import engine
from arena.services.rating_audit import audit


class Command(BaseCommand):
    help = "Check the stored ratings against a replay of the match list."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="one game (default: every game)")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args, game=None, **options):
        games = engine.game_names()
        if game is not None and game not in games:
            raise CommandError(f"unknown game {game!r}; known: {', '.join(games)}")
        reports = [audit(name) for name in ([game] if game else games)]
        if options["json"]:
            self.stdout.write(_dumps(reports))
        else:
            for report in reports:
                verdict = "ok" if report.ok else f"{len(report.problems)} problem(s)"
                self.stdout.write(
                    f"{report.game}: {report.matches} rated matches, "
                    f"{report.ratings} ratings: {verdict}"
                )
                for problem in report.problems:
                    self.stdout.write(f"  {problem}")
        if not all(report.ok for report in reports):
            raise SystemExit(1)


def _dumps(reports) -> str:
    return jsonlib.dumps(
        [
            {"game": r.game, "matches": r.matches, "ratings": r.ratings, "ok": r.ok,
             "problems": r.problems}
            for r in reports
        ]
    )  # fmt: skip
