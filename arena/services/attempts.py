"""A match's attempts and the infrastructure faults around them, for the organiser.

Each claim that ends leaves a `MatchAttempt` row: recorded, lapsed (the worker died or froze
past its lease), interrupted (paused mid-match), discarded (a result from a lapsed claim),
infrastructure (the worker could not play it), failed. A match given back for an
infrastructure reason is re-queued free: no seat is charged anything, its `requeues`
count grows and `last_infra_error` says why. `tournament_health` sums it up.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from arena.models import Match, MatchAttempt, Tournament
from arena.services import rows
from arena.stored_text import REASON_CHARS, clean_text

# An attempt's detail and a match's last fault may quote a bot: they are stored clean.
MAX_DETAIL_CHARS = REASON_CHARS


def log_attempt(
    match: Match, outcome: str, detail: str = "", *, ended_at: datetime | None = None
) -> MatchAttempt:
    """Keep the end of the claim `match` carries (its token, worker and start)."""
    attempt = _attempt(match, outcome, detail, ended_at or timezone.now())
    attempt.save(force_insert=True)
    return attempt


def _attempt(match: Match, outcome: str, detail: str, ended_at: datetime) -> MatchAttempt:
    """The attempt row for the claim `match` carries, not yet saved."""
    return MatchAttempt(
        match_id=match.pk,
        claim_token=match.claim_token,
        worker=match.claimed_by or "",
        started_at=match.claimed_at,
        ended_at=ended_at,
        outcome=outcome,
        detail=clean_text(detail, MAX_DETAIL_CHARS),
    )


# A set's attempts in one written-out statement: through the ORM's bulk_create (its
# query built, RETURNING the ids, an atomic block of its own) they cost ~2.4 ms a set of
# 16, about 1 % of the set, where this costs one round trip (issue 20).
_INSERT_ATTEMPTS_SQL = (
    "INSERT INTO arena_matchattempt"
    " (match_id, claim_token, worker, started_at, ended_at, outcome, detail)"
    " SELECT v.match_id, v.claim_token, v.worker, v.started_at, %s, v.outcome, v.detail"
    " FROM unnest(%s::bigint[], %s::uuid[], %s::text[], %s::timestamptz[], %s::text[],"
    " %s::text[]) AS v(match_id, claim_token, worker, started_at, outcome, detail)"
)


def ending(recorded: Any) -> tuple[str, str] | None:
    """The attempt a recording ends (`Recorded`, arena/services/result_rows.py): recorded, or
    discarded (a result from a lapsed claim); None when the match was done already."""
    if recorded.stale_claim:
        return MatchAttempt.Outcome.DISCARDED, "a result from a claim that had lapsed"
    if recorded.recorded:
        return MatchAttempt.Outcome.RECORDED, ""
    return None


def insert_attempts(cursor: Any, ended: Sequence[tuple[Match, str, str]]) -> None:
    """Send the INSERT of a set's attempts on `cursor` (PostgreSQL), in whatever
    transaction and pipeline it is in: the set's recording writes them with its results."""
    params = [
        timezone.now(),
        [match.pk for match, _, _ in ended],
        [match.claim_token for match, _, _ in ended],
        [match.claimed_by or "" for match, _, _ in ended],
        [match.claimed_at for match, _, _ in ended],
        [outcome for _, outcome, _ in ended],
        [clean_text(detail, MAX_DETAIL_CHARS) for _, _, detail in ended],
    ]
    cursor.execute(_INSERT_ATTEMPTS_SQL, params)


def log_attempts(ended: Sequence[tuple[Match, str, str]]) -> None:
    """`log_attempt` for each (match, outcome, detail) of a set, in one statement."""
    if not ended:
        return
    if connection.vendor != "postgresql":
        now = timezone.now()
        MatchAttempt.objects.bulk_create(
            _attempt(match, outcome, detail, now) for match, outcome, detail in ended
        )
        return
    # The statement and its commit (autocommit, or the caller's) in one round trip.
    with rows.pipelined(), rows.prepared_cursor() as cursor:
        insert_attempts(cursor, ended)


def release_for_replay(match: Match, token: uuid.UUID | None, outcome: str, reason: str) -> bool:
    """Give a claim back for an infrastructure reason: queued again, free, attempt kept.

    False when the claim was no longer this worker's (re-queued or taken over already).
    """
    with transaction.atomic():
        released = Match.objects.filter(
            pk=match.pk, status=Match.Status.RUNNING, claim_token=token
        ).update(
            status=Match.Status.QUEUED,
            claim_token=None,
            claimed_at=None,
            deadline_at=None,
            claimed_by="",
            requeues=F("requeues") + 1,
            last_infra_error=clean_text(reason, MAX_DETAIL_CHARS),
        )
        if released:
            # Otherwise whoever took the claim over has kept it as lapsed already.
            log_attempt(match, outcome, reason)
    return bool(released)


def requeue_failed(match: Match) -> bool:
    """An organiser's second chance for a failed match; the tournament runs again."""
    with transaction.atomic():
        if not match.try_requeue_failed():
            return False
        if match.tournament_id is not None:
            Tournament.objects.filter(
                pk=match.tournament_id, status=Tournament.Status.FINISHED
            ).update(status=Tournament.Status.RUNNING, finished_at=None)
    return True


def tournament_health(tournament: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """ok, or degraded with the reasons: failed matches, lapsed leases, re-played matches.

    One aggregate over the tournament's matches (its index); an example match is read
    only when there is something to explain, so a healthy tournament costs one query.
    """
    now = now or timezone.now()
    matches = Match.objects.filter(tournament=tournament)
    in_flight = Q(status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
    counts = matches.aggregate(
        failed=Count("id", filter=Q(status=Match.Status.FAILED)),
        lapsed=Count("id", filter=Q(status=Match.Status.RUNNING, deadline_at__lt=now)),
        requeued=Count("id", filter=Q(requeues__gt=0) & ~Q(status=Match.Status.FAILED)),
        waiting=Count("id", filter=Q(requeues__gt=0) & in_flight),
        stale=Count(
            "id",
            filter=Q(status=Match.Status.QUEUED, created_at__lt=now - timedelta(minutes=10)),
        ),
    )
    reasons = []
    if counts["failed"]:
        first = (
            matches.filter(status=Match.Status.FAILED).order_by("id").values_list("id", "error")
        ).first()
        assert first is not None
        reasons.append(f"{counts['failed']} failed (match {first[0]}: {first[1][:200]})")
    if counts["lapsed"]:
        reasons.append(f"{counts['lapsed']} running under a lapsed lease, waiting to be re-queued")
    if counts["waiting"]:
        recent = (
            matches.filter(in_flight, requeues__gt=0).values_list("id", "last_infra_error").first()
        )
        assert recent is not None
        reasons.append(
            f"{counts['waiting']} re-queued after an infrastructure fault and not yet played "
            f"(match {recent[0]}: {recent[1][:200]})"
        )
    if counts["stale"] and not counts["waiting"]:
        reasons.append("matches queued for over 10 minutes: are workers running?")
    return {
        "status": "degraded" if reasons else "ok",
        "reason": "; ".join(reasons),
        "requeued": counts["requeued"],
        "failed": counts["failed"],
    }
