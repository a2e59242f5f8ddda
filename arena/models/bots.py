"""Bots and their immutable versions.

A bot is an author's strategy for one game; its rating continues across versions. Each
version keeps the uploaded bytes (a .py file or a zip with bot.py) and their SHA-256.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction

import engine
from arena.errors import Conflict


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=64)
    game = models.CharField(max_length=64, db_index=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="bot_unique_name_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    def clean(self) -> None:
        try:
            engine.get_game(self.game)
        except engine.UnknownGame as exc:
            raise ValidationError({"game": str(exc)}) from None

    def is_owned_by(self, user) -> bool:
        return user is not None and user.is_authenticated and user.pk == self.owner_id

    def latest_version(self) -> BotVersion | None:
        return self.versions.order_by("-number").first()

    def add_version(self, source: bytes, filename: str) -> BotVersion:
        """Store a new immutable version numbered after the last one.

        The bot row is locked so two uploads at once get distinct numbers. Checking the
        source (size, Python, smoke match) is the caller's job: see arena/services/bots.py.
        """
        with transaction.atomic():
            Bot.objects.select_for_update().filter(pk=self.pk).first()
            last = self.versions.aggregate(n=models.Max("number"))["n"] or 0
            return BotVersion.objects.create(
                bot=self,
                number=last + 1,
                source=bytes(source),
                filename=filename,
                sha256=hashlib.sha256(source).hexdigest(),
                size=len(source),
            )

    def rename(self, name: str) -> None:
        self.name = name
        self.save(update_fields=["name"])

    def deactivate(self) -> None:
        self.is_active = False
        self.save(update_fields=["is_active"])

    def activate(self) -> None:
        self.is_active = True
        self.save(update_fields=["is_active"])


class BotVersion(models.Model):
    """One uploaded file of a bot. Never changed after it is created."""

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source = models.BinaryField()
    filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot", "number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="botversion_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise Conflict("bot versions are immutable; upload a new version instead")
        super().save(*args, **kwargs)

    def is_zip(self) -> bool:
        return self.filename.lower().endswith(".zip")
