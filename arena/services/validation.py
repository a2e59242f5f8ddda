"""Validating uploaded bot versions: the smoke match runs on a worker, not in the request.

The upload service stores a version `pending` and calls `request_validation`, which hands
its id to `settings.ARENA_ENQUEUE_VALIDATION` (default `workers.tasks.enqueue_validation`,
the validation queue) once the transaction commits. A worker then calls `validate_version`:
it plays the smoke match through `settings.ARENA_SMOKE_TEST` (in the sandbox) and marks the
version `ready` or `rejected` with the reason its owner reads. The web process never starts
a sandbox. A version in another language is built first (`settings.ARENA_BUILD`, on the
worker, in the build sandbox): a failed build rejects it with the compiler's messages.
An empty ARENA_SMOKE_TEST means no smoke match: a Python version is ready at once, one
that builds once a worker has built it.

A validation whose message was lost (broker down at commit) is re-sent by
`resend_stale_validations`, which the maintenance sweep calls. Validation ends: each smoke
match started is counted on the version, and the last of ARENA_VALIDATION_ATTEMPTS settles
it whatever happens (rejected, saying the arena could not check it), so a version never
stays pending for ever.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from arena.errors import Unavailable, is_database_outage
from arena.models import BotVersion, BuildArtifact
from arena.services import response_cache

log = logging.getLogger(__name__)

REJECTED_PREFIX = "the bot failed its smoke match: "
BUILD_FAILED_PREFIX = "the bot did not build:\n"
GAVE_UP_PREFIX = "the arena could not check the bot: "


def _enqueue_function():
    path = settings.ARENA_ENQUEUE_VALIDATION
    try:
        return import_string(path)
    except ImportError as exc:
        raise Unavailable(f"the validation queue is not available ({path}: {exc})") from None


def request_validation(version: BotVersion) -> None:
    """Ask a worker to play the version's smoke match once this transaction commits.

    Without a smoke test a Python version is ready at once; a version that builds still
    goes to a worker, for its build."""
    if not settings.ARENA_SMOKE_TEST and not version.needs_artifact():
        version.try_settle(None)
        return
    enqueue = _enqueue_function()
    version_id = version.pk

    def send() -> None:
        try:
            enqueue(version_id)
        except Exception:
            # The broker is down: the version stays pending and the sweep re-sends it.
            log.exception("could not queue the validation of bot version %s", version_id)

    transaction.on_commit(send)


def validate_version(version_id: int) -> str:
    """Play a pending version's smoke match and settle it (for the validation task).

    Returns "ready", "rejected", "missing" or "already" (settled by an earlier delivery).
    An exception from the smoke test (the sandbox cannot run) is the worker's fault, not the
    author's: it propagates, the version stays pending and the task retries, up to
    ARENA_VALIDATION_ATTEMPTS smoke matches in all (counted before each is played, so one
    whose worker was lost counts); the last one rejects the version with the error, and
    its owner may upload it again.
    """
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    if version is None:
        return "missing"
    if version.validation != BotVersion.Validation.PENDING:
        return "already"
    attempt = version.try_start_validation()
    if attempt is None:
        return "already"
    limit = settings.ARENA_VALIDATION_ATTEMPTS
    if attempt > limit:
        return _settle(version, f"{GAVE_UP_PREFIX}{limit} smoke matches did not finish")
    try:
        if version.needs_artifact() and version.artifact_id is None:
            failed = _build(version)
            if failed is not None:
                return _settle(version, f"{BUILD_FAILED_PREFIX}{failed}")
        path = settings.ARENA_SMOKE_TEST
        if not path:
            return _settle(version, None)
        extra = {"artifact": bytes(version.artifact.data)} if version.needs_artifact() else {}
        smoke = import_string(path)
        reason = smoke(version.bot.game, bytes(version.source), version.filename, **extra)
    except Exception as exc:
        if attempt < limit:
            raise
        log.exception("bot version %s: the last validation attempt failed", version_id)
        return _settle(
            version,
            f"{GAVE_UP_PREFIX}its smoke match could not run in {limit} attempts "
            f"(the last: {type(exc).__name__}: {exc}); upload it again",
        )
    return _settle(version, f"{REJECTED_PREFIX}{reason}" if reason else None)


def _build(version: BotVersion) -> str | None:
    """Give a pending version its build; None when it has one, else the build's log.

    A version whose upload is byte for byte one already built (a re-upload) reuses that
    build. Built once: a redelivered validation finds the artefact attached.
    """
    same = (
        BotVersion.objects.filter(
            sha256=version.sha256,
            language=version.language,
            filename=version.filename,
            artifact__isnull=False,
        )
        .exclude(pk=version.pk)
        .values_list("artifact_id", flat=True)
        .first()
    )
    if same is not None:
        version.attach_artifact(BuildArtifact.objects.get(pk=same))
        return None
    built = import_string(settings.ARENA_BUILD)(bytes(version.source), version.filename)
    if built.artifact is None:
        return built.log or "the build failed"
    version.attach_artifact(BuildArtifact.store(built.artifact))
    version.refresh_from_db(fields=["artifact"])
    return None


def _settle(version: BotVersion, reason: str | None) -> str:
    """Mark the version ready or rejected; what it became, or "already"."""
    try:
        with transaction.atomic():
            settled = version.try_settle(reason)
    except DatabaseError as exc:
        if is_database_outage(exc) or reason is None:
            raise
        # The database refused the reason (a bug: try_settle stores it cleaned). Retrying
        # would be refused the same way: the version is rejected with a reason that fits.
        log.exception("bot version %s: its rejection reason could not be stored", version.pk)
        error = type(exc).__name__
        settled = version.try_settle(
            f"{GAVE_UP_PREFIX}the reason it was rejected could not be stored ({error})"
        )
    if not settled:
        return "already"
    # The bot's versions, detail and lists show the validation.
    response_cache.touch(games=[version.bot.game], bots=[version.bot_id], lists=True)
    log.info("bot version %s %s", version.pk, version.validation)
    return str(version.validation)


def resend_stale_validations(now=None, older_than: float = 60.0, batch: int = 100) -> int:
    """Re-send pending versions whose validation has waited longer than `older_than` seconds.

    A duplicate message is harmless (`validate_version` settles a version once); re-sends
    are spaced by `older_than` through `validated_at`, used here as the next re-send time.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=older_than)
    stale = list(
        BotVersion.objects.filter(validation=BotVersion.Validation.PENDING, created_at__lt=cutoff)
        .exclude(validated_at__gt=now)
        .values_list("pk", flat=True)[:batch]
    )
    enqueue = _enqueue_function()
    for version_id in stale:
        BotVersion.objects.filter(pk=version_id).update(
            validated_at=now + timedelta(seconds=older_than)
        )
        enqueue(version_id)
    return len(stale)
