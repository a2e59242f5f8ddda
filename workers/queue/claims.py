"""Claiming matches: the read and the conditional update on every match's path.

A worker reads a set's matches, their seats and bot versions and claims them in one
round trip (PostgreSQL's pipeline mode), the claim committing without waiting for the
disk; see `read_and_claim_set`. A claim given back (`release`) or kept alive while a
long set plays (`extend_claims`) is one statement.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from arena.models import BotVersion, Match, MatchSeat
from arena.services import rows

# The reads and the claim on every match's path are written out: see arena/services/rows.py.
_MATCH_COLUMNS = rows.columns(
    Match,
    [
        "id",
        "tournament_id",
        "challenge_id",
        "game",
        "players",
        "options",
        "limits",
        "seed",
        "status",
        "attempts",
        "claim_token",
        "claimed_by",
        "claimed_at",
    ],
)
_SEAT_COLUMNS = rows.columns(MatchSeat, ["id", "match_id", "seat", "bot_id", "bot_version_id"])
_VERSION_COLUMNS = rows.columns(BotVersion, ["id", "source", "filename"])
# The seats' own condition on the ids, not only the join's: the planner cannot carry a
# list of ids across a join as it does one id, and without statistics (a new or busy
# table before ANALYZE) it hashed every seat of the table for each set (1.6 ms, growing
# with the table) instead of reading the set's 32 from the (match, seat) index.
_READ_SQL = (
    f"SELECT {rows.select_list(_MATCH_COLUMNS, 'm')}, {rows.select_list(_SEAT_COLUMNS, 's')}"
    " FROM arena_match m"
    " LEFT JOIN arena_matchseat s ON s.match_id = m.id AND s.match_id {ids}"
    " WHERE m.id {ids} ORDER BY m.id, s.seat"
)
# Each version once: a set of 16 has two versions in 32 seats, and joined to the seats
# every source (~9 KB for a heuristic) was read, sent and decoded 16 times (~0.7 ms).
# On PostgreSQL the seats' versions are an array computed first, then looked up by key:
# as `IN (subquery)` the planner could walk every seat of each version instead.
_READ_VERSIONS_SQL = {
    True: f"SELECT {rows.select_list(_VERSION_COLUMNS, 'v')} FROM arena_botversion v"
    " WHERE v.id = ANY(ARRAY(SELECT s.bot_version_id FROM arena_matchseat s"
    " WHERE s.match_id {ids}))",
    False: f"SELECT {rows.select_list(_VERSION_COLUMNS, 'v')} FROM arena_botversion v"
    " WHERE v.id IN (SELECT s.bot_version_id FROM arena_matchseat s WHERE s.match_id {ids})",
}
# The claim: one conditional UPDATE that returns each claimed match's new attempt count.
# A match is claimable when queued, or running under a lease that has lapsed (its worker
# died or froze): a redelivered or retried task then takes it over at once.
_CLAIM_SQL = (
    "UPDATE arena_match SET status = %s, claim_token = %s, claimed_at = %s, deadline_at = %s,"
    " claimed_by = %s, attempts = attempts + 1{commit_mode} WHERE id {ids}"
    " AND (status = %s OR (status = %s AND deadline_at < %s{restarted})) RETURNING id, attempts"
)
# PostgreSQL: no lease is taken over in the first lease (at most 30 s) after the server
# started. Every lease lapses while it is down; a worker that played through the outage
# renews within a third of a lease of its return (workers/queue/lease.py) and records its result,
# where a duplicate message arriving first would have taken the match over and played it
# again.
_NOT_JUST_RESTARTED = " AND pg_postmaster_start_time() < %s"
RESTART_GRACE_SECONDS = 30.0
# On PostgreSQL the claim's transaction does not wait for the disk: set_config(..., true)
# is SET LOCAL, for that transaction alone, read when it commits.
_UNFLUSHED = " FROM (SELECT set_config('synchronous_commit', 'off', true)) AS claim_commit"

Claim = tuple[Match | None, list[MatchSeat], bool]


def worker_name() -> str:
    """Who holds a claim: host and pool process id, as the organiser sees it on attempts."""
    return f"{socket.gethostname()}:{os.getpid()}"


def read_and_claim(match_id: int) -> Claim:
    """`read_and_claim_set` for one match."""
    return read_and_claim_set([match_id])[0]


def read_and_claim_set(match_ids: list[int]) -> list[Claim]:
    """Read matches, their seats and their bot versions, and claim them for this worker.

    Returns (match, seats, claimed) per id, in order; (None, [], False) for a match that
    is gone. Claimed is False when the match was not queued: another delivery has it, or
    it is done. All of a set's matches share one claim token.

    On PostgreSQL the read and the claim travel together (pipeline mode) in one round
    trip, and the claim commits without waiting for the disk. Losing the claim
    in a database crash is harmless: the result's commit, which does wait, also makes
    every earlier commit durable (the log is sequential); without a result the match
    lease lapses and the reaper re-queues it. The read runs first, so it sees the
    matches as they were before the claim (and who held them), and the claim's condition
    makes a second delivery find them taken. The claim is a lease (ARENA_LEASE_SECONDS)
    renewed while the set plays (workers/queue/lease.py, and `extend_claims` between rounds); a
    match running under a lapsed lease is taken over, the lapsed claim kept as an attempt.
    """
    from arena.models import MatchAttempt
    from arena.services import attempts

    now = timezone.now()
    token = uuid.uuid4()
    deadline = now + timedelta(seconds=float(settings.ARENA_LEASE_SECONDS))
    # PostgreSQL: both statements in one round trip, the claim's commit not waiting for disk.
    together = connection.vendor == "postgresql"
    commit_mode = _UNFLUSHED if together else ""
    ids = [int(match_id) for match_id in match_ids]
    if together:
        id_sql, id_values = "= ANY(%s::bigint[])", [ids]
    else:
        id_sql, id_values = f"IN ({', '.join(['%s'] * len(ids))})", ids
    claim_values = [
        *_db_values(
            {
                "status": Match.Status.RUNNING,
                "claim_token": token,
                "claimed_at": now,
                "deadline_at": deadline,
                "claimed_by": worker_name(),
            }
        ),
        *id_values,
        Match.Status.QUEUED,
        Match.Status.RUNNING,
        _db_values({"deadline_at": now})[0],
    ]
    if together:
        grace = min(float(settings.ARENA_LEASE_SECONDS), RESTART_GRACE_SECONDS)
        claim_values.append(now - timedelta(seconds=grace))
    with (
        rows.pipelined(),
        rows.prepared_cursor() as reading,
        rows.prepared_cursor() as versions,
        rows.prepared_cursor() as claiming,
    ):
        reading.execute(_READ_SQL.format(ids=id_sql), id_values * 2)
        versions.execute(_READ_VERSIONS_SQL[together].format(ids=id_sql), id_values)
        if not together:
            # SQLite: a read left unfinished keeps its snapshot, and a write on top of it
            # fails at once ("database is locked") when another worker committed since.
            found, found_versions = reading.fetchall(), versions.fetchall()
        restarted = _NOT_JUST_RESTARTED if together else ""
        claim_sql = _CLAIM_SQL.format(commit_mode=commit_mode, ids=id_sql, restarted=restarted)
        claiming.execute(claim_sql, claim_values)
        if together:
            found, found_versions = reading.fetchall(), versions.fetchall()
        returned = dict(claiming.fetchall())
    read = _matches_from_rows(found, found_versions)
    claims: list[Claim] = []
    for match_id in ids:
        match, seats = read.get(match_id, (None, []))
        if match is None or match_id not in returned:
            claims.append((match, seats, False))
            continue
        if match.status == Match.Status.RUNNING:
            attempts.log_attempt(
                match,
                MatchAttempt.Outcome.LAPSED,
                f"the lease of {match.claimed_by or 'its worker'} lapsed; taken over by "
                f"{worker_name()}",
                ended_at=now,
            )
        match.status, match.claim_token = Match.Status.RUNNING, token
        match.claimed_at, match.deadline_at = now, deadline
        match.claimed_by = worker_name()
        match.attempts = returned[match_id]
        claims.append((match, seats, True))
    return claims


def extend_claims(matches: list[Match]) -> None:
    """Push the claim deadline of matches still being played (a long set is alive)."""
    if not matches:
        return
    now = timezone.now()
    for match in matches:
        Match.objects.filter(pk=match.pk, claim_token=match.claim_token).update(
            deadline_at=now + timedelta(seconds=match.deadline_seconds())
        )


def _matches_from_rows(
    found: list[tuple[Any, ...]], found_versions: list[tuple[Any, ...]]
) -> dict[int, tuple[Match, list[MatchSeat]]]:
    versions = {row[0]: rows.instance(BotVersion, _VERSION_COLUMNS, row) for row in found_versions}
    by_match: dict[int, list[tuple[Any, ...]]] = {}
    for row in found:
        by_match.setdefault(row[0], []).append(row)
    read = {}
    for match_id, match_rows in by_match.items():
        match, seats = _match_from_rows(match_rows, versions)
        assert match is not None
        read[match_id] = (match, seats)
    return read


def _match_from_rows(
    found: list[tuple[Any, ...]], versions: dict[int, BotVersion]
) -> tuple[Match | None, list[MatchSeat]]:
    if not found:
        return None, []
    match_end = len(_MATCH_COLUMNS)
    match = rows.instance(Match, _MATCH_COLUMNS, found[0][:match_end])
    seats = []
    for row in found:
        if row[match_end] is None:
            continue
        seat = rows.instance(MatchSeat, _SEAT_COLUMNS, row[match_end:])
        # Seats of one version share its instance: nothing downstream writes to it.
        seat.bot_version = versions[seat.bot_version_id]
        seats.append(seat)
    return match, seats


def _db_values(values: dict[str, Any]) -> list[Any]:
    # As the ORM would send them (SQLite keeps UUIDs and times as text).
    return [
        Match._meta.get_field(name).get_db_prep_value(value, connection)
        for name, value in values.items()
    ]


def release(match_id: int, token: uuid.UUID | None) -> None:
    """Give a claim back so the retry (or the reaper) can take the match again."""
    Match.objects.filter(pk=match_id, status=Match.Status.RUNNING, claim_token=token).update(
        status=Match.Status.QUEUED, claim_token=None, claimed_at=None, deadline_at=None
    )
