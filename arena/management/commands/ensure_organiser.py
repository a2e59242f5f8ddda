"""`python manage.py ensure_organiser`: an organiser account for a local arena, made once.

`make run` calls it so a new user can sign in to /admin/ at once: the account (staff and
superuser) is created with a random password the first time, kept in a file only its owner
can read, and left alone on later runs (its password may have been changed since).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the organiser account once; print how to sign in."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="organiser")
        parser.add_argument(
            "--password-file",
            required=True,
            help="where the first password is kept (mode 0600); read again on later runs",
        )

    def handle(self, *args, username: str, password_file: str, **options):
        path = Path(password_file)
        user = User.objects.filter(username=username).first()
        if user is None:
            password = secrets.token_urlsafe(12)
            User.objects.create_superuser(username=username, email="", password=password)
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as out:
                out.write(password + "\n")
            self.stdout.write(f"organiser account created: {username} / {password}")
            return
        if not (user.is_staff and user.is_active):
            raise CommandError(f"user {username!r} exists but is not an active staff account")
        kept = path.read_text().strip() if path.exists() else None
        where = f"password in {path}" if kept else "its password as you set it"
        self.stdout.write(f"organiser account: {username} ({where})")
