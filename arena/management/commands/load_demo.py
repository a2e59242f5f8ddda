"""`python manage.py load_demo`: the reference bots and a demo tournament, safe to re-run."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

import engine
from arena.services.demo import load_demo


class Command(BaseCommand):
    help = "Load the built-in reference bots (owner 'arena') and a demo round robin. Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="game of the demo tournament (default: moonrollers)")
        parser.add_argument(
            "--no-start", action="store_true", help="create the demo tournament but do not start it"
        )

    def handle(self, *args, game=None, no_start=False, **options):
        if game is not None and game not in engine.game_names():
            raise CommandError(f"unknown game {game!r}; known: {', '.join(engine.game_names())}")
        report = load_demo(game=game, start=not no_start)
        out = self.stdout
        out.write(
            f"reference bots: {len(report.created)} created, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged"
        )
        for label in report.created + report.updated:
            out.write(f"  {label}")
        if report.tournament is not None:
            verb = "created" if report.tournament_created else "exists"
            out.write(
                f"demo tournament {verb}: #{report.tournament.pk} {report.tournament.name} "
                f"({report.tournament.status})"
            )
        for name, bots in report.ladders.items():
            out.write(f"ladder running: {name} ({bots} bots)")
        for problem in report.problems:
            self.stderr.write(f"warning: {problem}")
