"""Tournaments: a set of bots, a format, and the matches the format schedules for them.

Starting one (arena/services/tournaments.py's `start_tournament`) turns the schedule
(arena/tournaments/, pure maths) into Match rows in one transaction and enqueues each match
after commit; `try_finish()` closes the tournament when its last match is done (called by
the result recorder). A round robin creates every match at the start; Swiss and knockout
formats create their first round there and each later round as the previous one ends
(arena/services/rounds.py). The entry list, the seeds and each entrant's version are
frozen in `entrants` when the tournament starts. The functions below queue matches after
commit for the services.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

import engine
from arena.errors import Unavailable
from arena.models.matches import Match
from arena.models.sets import MatchSet

log = logging.getLogger(__name__)


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        SWISS = "swiss", "Swiss"
        KNOCKOUT = "knockout", "knockout"
        TABLE_KNOCKOUT = "table_knockout", "table knockout"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled"
        RUNNING = "running"
        PAUSED = "paused"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=64, db_index=True)
    format = models.CharField(max_length=32, choices=Format.choices, default=Format.ROUND_ROBIN)
    players_per_match = models.PositiveSmallIntegerField()
    games_per_pairing = models.PositiveSmallIntegerField(default=1)
    # Play each table's games as sets: one seed under every seat rotation (arena/models/sets.py).
    duplicate_seats = models.BooleanField(default=False)
    # Swiss: how many rounds (null: the default for the field, set at the start).
    planned_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    double_elimination = models.BooleanField(default=False)
    # Table knockout: how many of each table go through.
    advance = models.PositiveSmallIntegerField(null=True, blank=True)
    # Frozen at the start, best seed first: [[bot id, bot version id], ...].
    entrants = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    limits = models.JSONField(default=dict, blank=True)
    start_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    bots = models.ManyToManyField("arena.Bot", related_name="tournaments", blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "start_at"], name="tournament_due")]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    def clean(self) -> None:
        """Form-level checks (the admin): a known game, a possible table, valid options."""
        errors: dict[str, str] = {}
        try:
            game = engine.get_game(self.game)
        except engine.UnknownGame as exc:
            raise ValidationError({"game": str(exc)}) from None
        try:
            game.check_players(self.players_per_match)
        except engine.InvalidSetup as exc:
            errors["players_per_match"] = str(exc)
        try:
            self.options = game.check_options(self.options or {})
        except engine.InvalidSetup as exc:
            errors["options"] = str(exc)
        if not isinstance(self.limits, dict):
            errors["limits"] = "limits must be an object of name: number"
        if self.games_per_pairing is not None and self.games_per_pairing < 1:
            errors["games_per_pairing"] = "games_per_pairing must be at least 1"
        elif (
            self.duplicate_seats
            and self.players_per_match
            and self.games_per_pairing % self.players_per_match
        ):
            errors["games_per_pairing"] = (
                "with duplicate seats, games_per_pairing must be a multiple of players_per_match"
            )
        if self.format == self.Format.TABLE_KNOCKOUT and self.advance is not None:
            if not 1 <= self.advance < (self.players_per_match or 0):
                errors["advance"] = "advance must be at least 1 and less than players_per_match"
        elif self.advance is not None:
            errors["advance"] = "advance is for table knockouts only"
        if self.planned_rounds is not None and self.format != self.Format.SWISS:
            errors["planned_rounds"] = "rounds are for Swiss tournaments only"
        if self.double_elimination and self.format != self.Format.KNOCKOUT:
            errors["double_elimination"] = "double elimination is for knockouts only"
        if self.format == self.Format.KNOCKOUT and self.players_per_match != 2:
            errors["players_per_match"] = "a knockout plays two-player ties"
        if errors:
            raise ValidationError(errors)

    def is_due(self, now=None) -> bool:
        return (
            self.status == self.Status.SCHEDULED
            and self.start_at is not None
            and self.start_at <= (now or timezone.now())
        )

    def has_rounds(self) -> bool:
        return self.format != self.Format.ROUND_ROBIN

    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def new_match(
        self,
        game: engine.Game,
        players: int,
        seed: int,
        match_set: MatchSet | None = None,
        set_index: int | None = None,
        **place: object,
    ) -> Match:
        """An unsaved match of this tournament (options and limits as set; `place` adds the
        round and table of a rounds format)."""
        return Match(
            tournament=self,
            purpose=Match.Purpose.TOURNAMENT,
            match_set=match_set,
            set_index=set_index,
            game=game.name,
            rules_version=game.rules_version,
            players=players,
            options=self.options,
            limits=self.limits,
            seed=seed,
            **place,
        )

    def try_finish(self) -> bool:
        """Mark a running tournament finished if none of its matches is queued or running."""
        if Match.objects.filter(tournament_id=self.pk).unfinished().exists():
            return False
        now = timezone.now()
        finished = Tournament.objects.filter(
            pk=self.pk, status__in=[self.Status.RUNNING, self.Status.PAUSED]
        ).update(status=self.Status.FINISHED, finished_at=now)
        if finished:
            self.status, self.finished_at = self.Status.FINISHED, now
        return bool(finished)


def load_enqueue() -> Callable[..., object]:
    path = settings.ARENA_ENQUEUE_MATCH
    try:
        return import_string(path)
    except ImportError as exc:
        raise Unavailable(f"the match queue is not available ({path}: {exc})") from exc


def load_enqueue_sets() -> Callable[..., object]:
    """The function that queues matches between the same bots as one set (one task, one
    bot process per bot for the set): `enqueue_matches(match_ids, purpose)`."""
    path = settings.ARENA_ENQUEUE_MATCHES
    try:
        return import_string(path)
    except ImportError as exc:
        raise Unavailable(f"the match queue is not available ({path}: {exc})") from exc


def enqueue_after_commit(ids: list[int]) -> None:
    """Send these tournament matches to the queue once the current transaction commits."""
    if ids:
        enqueue = load_enqueue()
        transaction.on_commit(
            lambda: enqueue_all(enqueue, ids, Match.Purpose.TOURNAMENT), robust=True
        )


def enqueue_all(enqueue: Callable[..., object], ids: list[int], purpose: str) -> None:
    # Runs after commit: a broker fault must not lose the other matches, and the reaper
    # picks up queued matches that never reached the queue.
    failed = 0
    for match_id in ids:
        try:
            enqueue(match_id, purpose)
        except Exception:
            failed += 1
            log.exception("could not enqueue match %s", match_id)
    log.info("enqueued %d of %d matches", len(ids) - failed, len(ids))


def enqueue_sets(enqueue: Callable[..., object], groups: list[list[int]], purpose: str) -> None:
    """`enqueue_all` for groups of matches between the same bots, each queued as a set."""
    failed = 0
    for ids in groups:
        try:
            enqueue(ids, purpose)
        except Exception:
            failed += len(ids)
            log.exception("could not enqueue matches %s", ids)
    total = sum(len(ids) for ids in groups)
    log.info("enqueued %d of %d matches", total - failed, total)


class TournamentStanding(models.Model):
    """A bot's running sums in one tournament, added to as each result is recorded.

    The sums of arena/tournaments/standings.py's `tally` over the bot's finished matches, kept
    in the result's transaction (arena/services/standings.py), so reading the standings never
    reads the tournament's matches.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    bot = models.ForeignKey("arena.Bot", on_delete=models.CASCADE, related_name="standings")
    matches = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0.0)
    wins = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0)
    rank_total = models.PositiveIntegerField(default=0)
    successes = models.PositiveIntegerField(default=0)
    team_score_total = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="standing_unique_bot")
        ]
