"""Matches and their seats.

A match is one game between seats; a Celery task plays it. The task claims the match by a
conditional update (`try_claim`) so only one worker ever plays it, and the result is recorded
once by arena/services/results.py.

A claim is a lease: `deadline_at` is when it lapses, a few seconds ahead
(ARENA_LEASE_SECONDS), and the worker playing the match renews it while it plays
(workers/queue/lease.py). A match whose lease lapsed (its worker died, froze or lost the database
for longer than the lease) is re-queued by the reaper, or taken over by a redelivered task;
a result presented with a lapsed claim is discarded. Every attempt that ended is kept as a
`MatchAttempt` (worker, start, end, outcome) for the organiser.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, Value, When
from django.utils import timezone

from arena.stored_text import clean_text


class MatchQuerySet(models.QuerySet):
    def stuck(self, now: datetime | None = None) -> MatchQuerySet:
        """Running matches whose claim deadline has passed (their worker is presumably gone)."""
        return self.filter(status=Match.Status.RUNNING, deadline_at__lt=now or timezone.now())

    def unfinished(self) -> MatchQuerySet:
        return self.filter(
            status__in=[Match.Status.QUEUED, Match.Status.RUNNING, Match.Status.HELD]
        )

    def involving_bot(self, bot_id: int) -> MatchQuerySet:
        return self.filter(seats__bot_id=bot_id).distinct()


class Match(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"
        # Its tournament is paused: no worker claims it until the organiser resumes.
        HELD = "held"

    class Purpose(models.TextChoices):
        """Why the match exists; it decides the queue (workers/queue/routing.py)."""

        TOURNAMENT = "tournament"
        LADDER = "ladder"
        CHALLENGE = "challenge"
        VALIDATION = "validation"

    # No single-column indexes where a composite one leads with the column (see Meta):
    # each status change of a match writes a new entry in every index (the status is
    # indexed, so the update is never HOT), and six such copies cost ~0.1 ms a match.
    tournament = models.ForeignKey(
        "arena.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matches",
        db_index=False,  # match_in_tournament_status, match_in_tournament_id
    )
    purpose = models.CharField(
        max_length=16,
        choices=Purpose.choices,
        default=Purpose.TOURNAMENT,  # match_purpose_status
    )
    # Duplicate seating: the matches of one set share the seed and rotate the seats.
    match_set = models.ForeignKey(
        "arena.MatchSet",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matches",
        db_index=False,  # match_unique_set_index
    )
    set_index = models.PositiveSmallIntegerField(null=True, blank=True)
    # Swiss and knockout matches belong to a round and to one table of it (a knockout tie).
    round = models.ForeignKey(
        "arena.TournamentRound",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matches",
        db_index=False,  # match_round, of the matches that have one
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    # A challenge's paired games (arena/models/challenges.py): never rated.
    challenge = models.ForeignKey(
        "arena.Challenge",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matches",
        db_index=False,  # match_challenge, of the matches that have one
    )
    challenge_pair = models.PositiveIntegerField(null=True, blank=True)
    game = models.CharField(max_length=64)  # match_game_id
    rules_version = models.CharField(max_length=64)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    limits = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    claim_token = models.UUIDField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The engine's replay record (seed + actions + result) and the final result with ranks.
    record = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    decisions = models.PositiveIntegerField(default=0)
    duration_seconds = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    # The worker holding the current claim (host:pid), and the infrastructure history.
    # Defaults in the database too: bulk loaders write rows with COPY (ratings_bench).
    claimed_by = models.CharField(max_length=255, blank=True, default="", db_default="")
    requeues = models.PositiveIntegerField(default=0, db_default=0)
    last_infra_error = models.TextField(blank=True, default="", db_default="")
    rated = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"
        # The indexes on a column most matches leave empty (a ladder's or a challenge's
        # match has no tournament, round or challenge) hold only the matches that have
        # one: a match's two status changes are not HOT, and each wrote an entry for its
        # NULLs in each of these four (issue 20). `col = x` implies `col IS NOT NULL`, so
        # every lookup by one still uses them; nothing looks matches up by a NULL here.
        indexes = [
            models.Index(fields=["status", "deadline_at"], name="match_status_deadline"),
            models.Index(
                fields=["tournament", "status"],
                name="match_in_tournament_status",
                condition=models.Q(tournament__isnull=False),
            ),
            models.Index(fields=["purpose", "status"], name="match_purpose_status"),
            # The match lists, newest first, by tournament and by game: without them a list
            # walked the primary key backwards past every other match (977k rows at 1M).
            models.Index(
                fields=["tournament", "id"],
                name="match_in_tournament_id",
                condition=models.Q(tournament__isnull=False),
            ),
            models.Index(
                fields=["round"], name="match_round", condition=models.Q(round__isnull=False)
            ),
            models.Index(
                fields=["challenge"],
                name="match_challenge",
                condition=models.Q(challenge__isnull=False),
            ),
            # A game's results since its last skill fit (arena/services/skills.py).
            models.Index(fields=["game", "id"], name="match_game_id"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["match_set", "set_index"], name="match_unique_set_index"
            )
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.status})"

    def is_done(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.FAILED)

    def deadline_seconds(self) -> float:
        """How long a claim lasts unrenewed: the lease (ARENA_LEASE_SECONDS).

        The worker renews it while it plays, so a long match keeps its claim; a match's own
        time limit no longer stretches it (a dead worker's match waits a lease, not a limit).
        """
        return float(settings.ARENA_LEASE_SECONDS)

    def try_claim(self, deadline_seconds: float | None = None) -> bool:
        """Take the match for this worker if it is still queued; False if someone else has it.

        One conditional UPDATE, so two workers delivered the same task never both play it.
        On success this instance carries the new claim_token, which the result must present.
        """
        now = timezone.now()
        token = uuid.uuid4()
        seconds = deadline_seconds if deadline_seconds is not None else self.deadline_seconds()
        deadline = now + timedelta(seconds=seconds)
        claimed = Match.objects.filter(pk=self.pk, status=self.Status.QUEUED).update(
            status=self.Status.RUNNING,
            claim_token=token,
            claimed_at=now,
            deadline_at=deadline,
            attempts=F("attempts") + 1,
        )
        if not claimed:
            return False
        self.refresh_from_db(
            fields=["status", "claim_token", "claimed_at", "deadline_at", "attempts"]
        )
        return True

    def try_requeue(self, now: datetime | None = None, reason: str = "") -> bool:
        """Put a running match whose lease has lapsed back in the queue (for the reaper).

        A match of a paused tournament goes back as held instead (status tells which):
        the pause must not be undone by a lost worker. The lapsed claim is kept as an
        attempt; the match counts one more re-queue.
        """
        now = now or timezone.now()
        claim = (self.claim_token, self.claimed_by, self.claimed_at)
        reason = clean_text(reason or f"the lease of {self.claimed_by or 'its worker'} lapsed")
        paused = Match.objects.filter(pk=OuterRef("pk"), tournament__status="paused")
        requeued = Match.objects.filter(
            pk=self.pk,
            status=self.Status.RUNNING,
            deadline_at__lt=now,
            claim_token=self.claim_token,
        ).update(
            status=Case(
                When(Exists(paused), then=Value(self.Status.HELD)),
                default=Value(self.Status.QUEUED),
            ),
            claim_token=None,
            claimed_at=None,
            deadline_at=None,
            claimed_by="",
            requeues=F("requeues") + 1,
            last_infra_error=reason,
        )
        if requeued:
            MatchAttempt.objects.create(
                match=self,
                claim_token=claim[0],
                worker=claim[1],
                started_at=claim[2],
                ended_at=now,
                outcome=MatchAttempt.Outcome.LAPSED,
                detail=reason,
            )
            self.refresh_from_db(
                fields=["status", "claim_token", "claimed_at", "deadline_at", "requeues"]
            )
        return bool(requeued)

    def try_requeue_failed(self) -> bool:
        """Put a failed match back in the queue (an organiser's decision); False otherwise."""
        requeued = Match.objects.filter(pk=self.pk, status=self.Status.FAILED).update(
            status=self.Status.QUEUED,
            claim_token=None,
            claimed_at=None,
            deadline_at=None,
            claimed_by="",
            finished_at=None,
            attempts=0,
            requeues=F("requeues") + 1,
            last_infra_error=self.error,
            error="",
        )
        if requeued:
            self.refresh_from_db()
        return bool(requeued)

    def try_fail(self, error: str, claim_token: uuid.UUID | None = None) -> bool:
        """Mark the match failed (infrastructure fault, too many attempts); False if it is done.

        With a claim_token, only the worker holding that claim may fail it.
        """
        condition = Q(pk=self.pk, status__in=[self.Status.QUEUED, self.Status.RUNNING])
        if claim_token is not None:
            condition &= Q(claim_token=claim_token)
        failed = Match.objects.filter(condition).update(
            status=self.Status.FAILED, error=clean_text(error), finished_at=timezone.now()
        )
        if failed:
            self.refresh_from_db(fields=["status", "error", "finished_at"])
        return bool(failed)


class MatchAttempt(models.Model):
    """One claim of a match that has ended: who played it, when, and how it ended."""

    class Outcome(models.TextChoices):
        RECORDED = "recorded"  # the result was stored
        LAPSED = "lapsed"  # the lease ran out: the worker died, froze or lost the database
        INTERRUPTED = "interrupted"  # the worker was paused mid-match: played again, free
        DISCARDED = "discarded"  # a result from a claim that had lapsed: not recorded
        INFRASTRUCTURE = "infrastructure"  # the worker could not play it (sandbox, database)
        FAILED = "failed"  # the match itself cannot be played

    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        related_name="attempt_log",
        db_index=False,  # attempt_match_ended
    )
    claim_token = models.UUIDField(null=True, blank=True)
    worker = models.CharField(max_length=255, blank=True, default="")
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField()
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    detail = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["match", "ended_at", "id"]
        indexes = [models.Index(fields=["match", "ended_at"], name="attempt_match_ended")]

    def __str__(self) -> str:
        return f"match {self.match_id} attempt by {self.worker or '?'}: {self.outcome}"


class MatchSeat(models.Model):
    # Indexed by the constraint and the composite index in Meta, which lead with them.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey(
        "arena.Bot", on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    bot_version = models.ForeignKey(
        "arena.BotVersion", on_delete=models.PROTECT, related_name="seats"
    )
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.JSONField(null=True, blank=True)
    forfeit_reason = models.TextField(blank=True, default="")
    # What the bot wrote to stderr: visible to the bot's owner only.
    stderr = models.TextField(blank=True, default="")
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat")
        ]
        # A bot's matches, newest first (the match list's ?bot=): seats by bot, match ids in order.
        indexes = [models.Index(fields=["bot", "match"], name="matchseat_bot_match")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: bot {self.bot_id}"

    def has_forfeited(self) -> bool:
        return bool(self.forfeit_reason)
