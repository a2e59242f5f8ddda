"""Bots and their immutable versions.

A bot is an author's strategy for one game; its rating continues across versions. Each
version keeps the uploaded bytes (a .py file or a zip with bot.py) and their SHA-256.

An uploaded version starts `pending`: a worker on the validation queue plays its smoke match
(arena/services/validation.py) and marks it `ready` or `rejected` with the reason. Only a
ready version plays in tournaments and on the ladder (`Bot.latest_ready_version`).

An anchor is a reference bot: one the arena ships in bots/reference/ and loads under its
own user, ANCHOR_OWNER (arena/services/demo.py), which owns nothing else. Anchors play on
their game's ladder as fixed yardsticks: no author can upload to them (only the owner adds
versions, and nobody signs in as the arena), and each bot's page says which of them it
beats (arena/services/anchors.py).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone

import engine
from arena.errors import Conflict
from arena.stored_text import clean_text

# The user that owns the reference bots; its bots are the ladders' anchors.
ANCHOR_OWNER = "arena"


class BotQuerySet(models.QuerySet):
    def anchors(self) -> BotQuerySet:
        """The reference bots: the ladders' fixed yardsticks."""
        return self.filter(owner__username=ANCHOR_OWNER)


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=64)
    game = models.CharField(max_length=64, db_index=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = BotQuerySet.as_manager()

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

    def is_anchor(self) -> bool:
        """Whether this is a reference bot, an anchor of its game's ladder (reads the owner)."""
        return self.owner.username == ANCHOR_OWNER

    def latest_version(self) -> BotVersion | None:
        return self.versions.order_by("-number").first()

    def latest_ready_version(self) -> BotVersion | None:
        """The newest version that passed validation: the one that plays."""
        return (
            self.versions.filter(validation=BotVersion.Validation.READY).order_by("-number").first()
        )

    def add_version(
        self,
        source: bytes,
        filename: str,
        *,
        validation: str = "ready",
        language: str = "python",
    ) -> BotVersion:
        """Store a new immutable version numbered after the last one.

        The bot row is locked so two uploads at once get distinct numbers. Checking the
        source (size, Python, smoke match) is the caller's job: see arena/services/bots.py,
        which stores an author's upload `pending`; trusted callers (the reference bots, the
        benchmark) store theirs ready.
        """
        with transaction.atomic():
            Bot.objects.select_for_update().filter(pk=self.pk).first()
            last = self.versions.aggregate(n=models.Max("number"))["n"] or 0
            return BotVersion.objects.create(
                bot=self,
                number=last + 1,
                source=bytes(source),
                filename=filename,
                language=language,
                sha256=hashlib.sha256(source).hexdigest(),
                size=len(source),
                validation=validation,
                validated_at=None
                if validation == BotVersion.Validation.PENDING
                else timezone.now(),
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


class BuildArtifact(models.Model):
    """What a version's build left (a tar.gz of its folder), stored once per content.

    Workers unpack it into a local cache by id (workers/sandbox/artifacts.py); versions
    whose builds came out the same share one row.
    """

    sha256 = models.CharField(max_length=64, unique=True)
    data = models.BinaryField()
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"build {self.sha256[:12]} ({self.size} bytes)"

    @classmethod
    def store(cls, data: bytes) -> BuildArtifact:
        digest = hashlib.sha256(data).hexdigest()
        artifact, _ = cls.objects.get_or_create(
            sha256=digest, defaults={"data": bytes(data), "size": len(data)}
        )
        return artifact


class BotVersion(models.Model):
    """One uploaded file of a bot. Its source never changes after it is created."""

    class Validation(models.TextChoices):
        PENDING = "pending"
        READY = "ready"
        REJECTED = "rejected"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source = models.BinaryField()
    filename = models.CharField(max_length=255)
    # One of arena/languages.py's LANGUAGES, told by the upload's extension or manifest.
    language = models.CharField(max_length=16, default="python", db_default="python")
    # What its build left, once its validation built it (languages that build or unpack).
    artifact = models.ForeignKey(
        BuildArtifact, null=True, blank=True, on_delete=models.PROTECT, related_name="versions"
    )
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    validation = models.CharField(
        max_length=16, choices=Validation.choices, default=Validation.PENDING
    )
    # Why the smoke match refused it (shown to the bot's owner only: it may hold stderr).
    validation_error = models.TextField(blank=True, default="")
    validated_at = models.DateTimeField(null=True, blank=True)
    # Smoke matches started for it (arena/services/validation.py): a version is settled
    # within ARENA_VALIDATION_ATTEMPTS of them, whatever keeps failing.
    validation_attempts = models.PositiveSmallIntegerField(default=0, db_default=0)

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

    def needs_artifact(self) -> bool:
        """Whether it runs from a build (every language but Python, which runs its source)."""
        return self.language != "python"

    def attach_artifact(self, artifact: BuildArtifact) -> bool:
        """Record a pending version's build; False if it has one or is settled (a redelivery)."""
        attached = BotVersion.objects.filter(
            pk=self.pk, artifact__isnull=True, validation=self.Validation.PENDING
        ).update(artifact=artifact)
        if attached:
            self.artifact = artifact
        return bool(attached)

    def is_ready(self) -> bool:
        return self.validation == self.Validation.READY

    def try_start_validation(self) -> int | None:
        """Count one more smoke match for a pending version: its number, None if settled.

        Committed before the match is played, so an attempt whose worker is lost counts.
        """
        started = BotVersion.objects.filter(pk=self.pk, validation=self.Validation.PENDING).update(
            validation_attempts=models.F("validation_attempts") + 1
        )
        if not started:
            return None
        self.refresh_from_db(fields=["validation_attempts"])
        return self.validation_attempts

    def try_settle(self, reason: str | None) -> bool:
        """Mark a pending version ready (reason None) or rejected; False if already settled.

        A conditional update, so a redelivered validation task changes nothing. The source
        stays immutable: only the validation columns are written.
        """
        outcome = self.Validation.READY if reason is None else self.Validation.REJECTED
        # The reason quotes the bot (its forfeit, the end of its stderr).
        reason = None if reason is None else clean_text(reason)
        now = timezone.now()
        settled = BotVersion.objects.filter(pk=self.pk, validation=self.Validation.PENDING).update(
            validation=outcome, validation_error=reason or "", validated_at=now
        )
        if settled:
            self.validation, self.validation_error, self.validated_at = outcome, reason or "", now
        return bool(settled)
