"""The ladder's settings per game, and each bot's place on it.

Every active bot with a version is on its game's ladder; `LadderEntry` only records
what is not derived from the bot: which version entered when (a new version or a resume
starts a fresh crash window) and a crash-loop pause with its reason and evidence.
The selection maths is in arena/ladder/, the workflows in arena/services/ladder.py.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

import engine
from arena.ladder.tables import check_table_sizes

MAX_TARGET_DEPTH = 10_000
MAX_NEWCOMER_GAMES = 1_000
SETTINGS = ("status", "table_sizes", "target_depth", "newcomer_games")


class Ladder(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        PAUSED = "paused"

    game = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    # Players per table; empty: the game's default (arena/ladder/tables.py).
    table_sizes = models.JSONField(default=list, blank=True)
    # Queued + running ladder matches to keep; null: derived from the workers' capacity.
    target_depth = models.PositiveIntegerField(null=True, blank=True)
    newcomer_games = models.PositiveIntegerField(default=10)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game"]

    def __str__(self) -> str:
        return f"{self.game} ladder ({self.status})"

    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    def checked(self, field: str, value: Any) -> Any:
        """`value` as `field` may hold it, or ValueError saying why (API and admin alike)."""
        if field == "status":
            if value not in self.Status.values:
                raise ValueError(f"status must be one of {', '.join(self.Status.values)}")
            return value
        if field == "table_sizes":
            spec = engine.get_game(self.game)
            return check_table_sizes(value, spec.min_players, spec.max_players)
        if field == "target_depth":
            if value is not None and (type(value) is not int or not 1 <= value <= MAX_TARGET_DEPTH):
                raise ValueError(
                    f"target_depth must be 1-{MAX_TARGET_DEPTH}, or null to follow the "
                    "workers' capacity"
                )
            return value
        if field == "newcomer_games":
            if type(value) is not int or not 0 <= value <= MAX_NEWCOMER_GAMES:
                raise ValueError(f"newcomer_games must be 0-{MAX_NEWCOMER_GAMES}")
            return value
        raise ValueError(f"{field} is not a ladder setting")

    def clean(self) -> None:
        try:
            engine.get_game(self.game)
        except engine.UnknownGame as exc:
            raise ValidationError({"game": str(exc)}) from None
        errors = {}
        for field in SETTINGS:
            value = getattr(self, field)
            if field == "table_sizes" and value in ([], None):
                self.table_sizes = []  # empty: the game's default sizes
                continue
            try:
                setattr(self, field, self.checked(field, value))
            except ValueError as exc:
                errors[field] = str(exc)
        if errors:
            raise ValidationError(errors)


class LadderEntry(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing"
        PAUSED = "paused"
        WAITING = "waiting"

    bot = models.OneToOneField("arena.Bot", on_delete=models.CASCADE, related_name="ladder_entry")
    # The version this entry is about; a newer latest version replaces it (and its pause).
    version = models.ForeignKey("arena.BotVersion", on_delete=models.CASCADE, related_name="+")
    # Crash loops are counted over ladder matches created after this moment.
    entered_at = models.DateTimeField()
    paused_at = models.DateTimeField(null=True, blank=True)
    pause_reason = models.TextField(blank=True, default="")
    pause_match_ids = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name_plural = "ladder entries"

    def __str__(self) -> str:
        return f"{self.bot_id} v{self.version_id} on the ladder"

    def is_paused(self) -> bool:
        return self.paused_at is not None
