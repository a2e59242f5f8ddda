"""`python manage.py refit_skills [--game GAME]`: refit whole-history skills now, here.

Runs the refit in this process (not through a worker), warm-started from each game's last
fit, for one game or for every registered game; prints what it did.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

import engine
from arena.services import skills


class Command(BaseCommand):
    help = "Refit the whole-history skill of one game (or of every game) now."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="one registered game (default: every game)")

    def handle(self, *args, **opts):
        names = [opts["game"]] if opts["game"] else engine.game_names()
        for name in names:
            try:
                engine.get_game(name)
            except engine.UnknownGame as exc:
                raise CommandError(str(exc)) from None
            fit = skills.refit(name, force=True)
            if fit is None:
                self.stdout.write(f"{name}: no rated matches (or a refit is running)")
            else:
                self.stdout.write(
                    f"{name}: {fit.bots} bots, {fit.matches} matches, {fit.seconds:.2f}s"
                    f"{' (warm)' if fit.warm else ''}"
                )
