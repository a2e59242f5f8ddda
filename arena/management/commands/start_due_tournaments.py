"""`python manage.py start_due_tournaments`: start scheduled tournaments whose time has come.

The Celery beat schedule calls arena.services.tournaments.start_due_tournaments directly; this
command is the same check for cron or a manual nudge.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from arena.services.tournaments import start_due_tournaments


class Command(BaseCommand):
    help = "Start every scheduled tournament whose start_at has passed."

    def handle(self, *args, **options):
        started = start_due_tournaments()
        self.stdout.write(f"started {len(started)} tournaments {started or ''}".rstrip())
