"""The ladder's settings per game, and each bot's place on it.

Every active bot with a version is on its game's ladder; `LadderEntry` only records
what is not derived from the bot: which version entered when (a new version or a resume
starts a fresh crash window) and a crash-loop pause with its reason and evidence.
The selection maths is in arena/ladder/, the workflows in arena/services/ladder.py.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
