"""Celery tasks: thin, idempotent, and given ids only.

`run_match(match_id)` claims the match by a conditional update (a second delivery
finds it taken and does nothing), writes each seat's bot version into a private
temp dir, starts one process per seat through the launcher chosen in settings
(the bubblewrap sandbox, or a plain process), lets the referee play the engine to
the end and hands the outcome to `arena.services.results.record_result`, which
commits the result and the ratings once.

A bot that misbehaves is a match result (a forfeit), never a retry. Only
infrastructure faults (database, broker, sandbox unavailable, processes that
cannot be started) give the claim back and retry; a match that cannot be played
at all (unknown game, bad options or limits, an engine error) is marked failed.
`reap_stuck_matches` requeues matches whose worker vanished.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import tempfile
import time
import traceback
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.utils import timezone

import engine
from arena.models import BotVersion, Match, MatchSeat
from arena.services import rows, skills
from arena.services.challenges import advance_stalled_challenges
from arena.services.results import after_failure, record_failure, record_result
from workers import routing
from workers.celery import app
from workers.launchers import Launcher, get_launcher
from workers.limits import Limits, LimitsError
from workers.players import ProcessPlayer
from workers.referee import MatchOutcome, play_match

log = logging.getLogger(__name__)

MAX_RETRIES = 5
REAP_BATCH = 500


class InfrastructureFault(Exception):
    """Something around the match broke (not a bot, not the match): try again later."""


class Unplayable(Exception):
    """The match itself cannot be played (bad set-up, limits, engine error): it fails."""


# ----- the launcher, one per worker process -----------------------------------------------------

_launchers: dict[str, Launcher] = {}


def worker_launcher() -> Launcher:
    """This process's launcher for the configured isolation, checked once.

    The sandbox keeps per-process state (uid leases, child reaping), so each worker
    process builds its own after the fork rather than inheriting one.
    """
    kind = settings.ARENA_BOT_ISOLATION
    launcher = _launchers.get(kind)
    if launcher is None:
        try:
            launcher = get_launcher(kind)
            launcher.check()
        except Exception as exc:
            raise InfrastructureFault(f"the {kind} launcher cannot run bots: {exc}") from exc
        _launchers[kind] = launcher
    return launcher


# ----- playing one claimed match -------------------------------------------------------------


def _bot_file(folder: Path, seat: MatchSeat) -> Path:
    version = seat.bot_version
    name = "bot.zip" if version.is_zip() else "bot.py"
    seat_dir = folder / f"seat{seat.seat}"
    seat_dir.mkdir(mode=0o700)
    path = seat_dir / name
    path.write_bytes(bytes(version.source))
    return path


@functools.cache
def _scratch() -> str | None:
    """Where each match writes its bots' files: memory (/dev/shm) where it is writable.

    The launcher hands each file to its sandbox read-only, so the folder only lives as
    long as the match. Making and removing it cost ~0.45 ms per match on this machine's
    disk and ~0.1 ms in memory. None: the system's temp dir.
    """
    shared_memory = "/dev/shm"
    if os.path.isdir(shared_memory) and os.access(shared_memory, os.W_OK | os.X_OK):
        return shared_memory
    return None


def _close_quietly(players: list[ProcessPlayer]) -> None:
    for player in players:
        with contextlib.suppress(Exception):
            player.close()


def play_claimed(match: Match, seats: list[MatchSeat] | None = None) -> MatchOutcome:
    """Play a match this worker has claimed; raise Unplayable or InfrastructureFault."""
    if seats is None:
        seats = list(match.seats.select_related("bot_version").order_by("seat"))
    if len(seats) != match.players:
        raise Unplayable(f"the match has {len(seats)} seat rows for {match.players} players")
    try:
        limits = Limits.from_dict(match.limits)
        # Checked before any bot starts, so a bad set-up never leaves processes behind.
        game = engine.get_game(match.game)
        game.check_players(match.players)
        game.check_options(match.options)
    except (LimitsError, engine.UnknownGame, engine.InvalidSetup) as exc:
        raise Unplayable(str(exc)) from exc
    launcher = worker_launcher()
    players: list[ProcessPlayer] = []
    with tempfile.TemporaryDirectory(prefix=f"arena-match-{match.pk}-", dir=_scratch()) as folder:
        try:
            for seat in seats:
                path = _bot_file(Path(folder), seat)
                try:
                    process = launcher.launch(path, limits)
                except Exception as exc:
                    raise InfrastructureFault(f"could not start seat {seat.seat}: {exc}") from exc
                players.append(ProcessPlayer(process, limits))
            try:
                return play_match(
                    match.game, match.seed, players, match.options, limits.match_seconds
                )
            except Exception as exc:
                raise Unplayable(_describe(exc, "the referee stopped")) from exc
        finally:
            # play_match closes its players; this covers a failure before or inside it.
            _close_quietly(players)


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
    ],
)
_SEAT_COLUMNS = rows.columns(MatchSeat, ["id", "match_id", "seat", "bot_id", "bot_version_id"])
_VERSION_COLUMNS = rows.columns(BotVersion, ["id", "source", "filename"])
_READ_SQL = (
    f"SELECT {rows.select_list(_MATCH_COLUMNS, 'm')}, {rows.select_list(_SEAT_COLUMNS, 's')},"
    f" {rows.select_list(_VERSION_COLUMNS, 'v')}"
    " FROM arena_match m"
    " LEFT JOIN arena_matchseat s ON s.match_id = m.id"
    " LEFT JOIN arena_botversion v ON v.id = s.bot_version_id"
    " WHERE m.id = %s ORDER BY s.seat"
)
# The claim: one conditional UPDATE that returns the new attempt count (None: not queued).
_CLAIM_SQL = (
    "UPDATE arena_match SET status = %s, claim_token = %s, claimed_at = %s, deadline_at = %s,"
    " attempts = attempts + 1{commit_mode} WHERE id = %s AND status = %s RETURNING attempts"
)
# On PostgreSQL the claim's transaction does not wait for the disk: set_config(..., true)
# is SET LOCAL, for that transaction alone, read when it commits.
_UNFLUSHED = " FROM (SELECT set_config('synchronous_commit', 'off', true)) AS claim_commit"
_EXTEND_SQL = "UPDATE arena_match SET deadline_at = %s WHERE id = %s AND claim_token = %s"


def read_and_claim(match_id: int) -> tuple[Match | None, list[MatchSeat], bool]:
    """Read the match, its seats and their bot versions, and claim it for this worker.

    Returns (match, seats, claimed); (None, [], False) if the match is gone. Claimed is
    False when the match was not queued: another delivery has it, or it is done.

    On PostgreSQL the read and the claim travel together (pipeline mode) in one round
    trip, and the claim commits without waiting for the disk. Losing the claim
    in a database crash is harmless: the result's commit, which does wait, also makes
    every earlier commit durable (the log is sequential); without a result the match
    is back in `queued` and the reaper re-sends it. The read runs first, so it sees the
    match as it was before the claim, and the claim's condition (still queued) makes a
    second delivery find it taken. The deadline starts at the configured one; a match
    whose own limit needs longer gets it by one more statement (rare).
    """
    now = timezone.now()
    token = uuid.uuid4()
    configured = float(settings.ARENA_MATCH_DEADLINE_SECONDS)
    deadline = now + timedelta(seconds=configured)
    # PostgreSQL: both statements in one round trip, the claim's commit not waiting for disk.
    together = connection.vendor == "postgresql"
    commit_mode = _UNFLUSHED if together else ""
    claim_values = [
        *_db_values(
            {
                "status": Match.Status.RUNNING,
                "claim_token": token,
                "claimed_at": now,
                "deadline_at": deadline,
                "id": match_id,
            }
        ),
        Match.Status.QUEUED,
    ]
    with rows.pipelined(), rows.prepared_cursor() as reading, rows.prepared_cursor() as claiming:
        reading.execute(_READ_SQL, [match_id])
        if not together:
            # SQLite: a read left unfinished keeps its snapshot, and a write on top of it
            # fails at once ("database is locked") when another worker committed since.
            found = reading.fetchall()
        claiming.execute(_CLAIM_SQL.format(commit_mode=commit_mode), claim_values)
        if together:
            found = reading.fetchall()
        returned = claiming.fetchall()
    match, seats = _match_from_rows(found)
    if match is None or not returned:
        return match, seats, False
    match.status, match.claim_token = Match.Status.RUNNING, token
    match.claimed_at, match.deadline_at = now, deadline
    match.attempts = returned[0][0]
    if match.deadline_seconds() > configured:
        match.deadline_at = now + timedelta(seconds=match.deadline_seconds())
        with rows.prepared_cursor() as cursor:
            cursor.execute(
                _EXTEND_SQL,
                _db_values(
                    {"deadline_at": match.deadline_at, "id": match.pk, "claim_token": token}
                ),
            )
    return match, seats, True


def _match_from_rows(found: list[tuple[Any, ...]]) -> tuple[Match | None, list[MatchSeat]]:
    if not found:
        return None, []
    match_end = len(_MATCH_COLUMNS)
    seat_end = match_end + len(_SEAT_COLUMNS)
    match = rows.instance(Match, _MATCH_COLUMNS, found[0][:match_end])
    seats = []
    for row in found:
        if row[match_end] is None:
            continue
        seat = rows.instance(MatchSeat, _SEAT_COLUMNS, row[match_end:seat_end])
        seat.bot_version = rows.instance(BotVersion, _VERSION_COLUMNS, row[seat_end:])
        seats.append(seat)
    return match, seats


def _db_values(values: dict[str, Any]) -> list[Any]:
    # As the ORM would send them (SQLite keeps UUIDs and times as text).
    return [
        Match._meta.get_field(name).get_db_prep_value(value, connection)
        for name, value in values.items()
    ]


def _release(match_id: int, token: uuid.UUID | None) -> None:
    """Give a claim back so the retry (or the reaper) can take the match again."""
    Match.objects.filter(pk=match_id, status=Match.Status.RUNNING, claim_token=token).update(
        status=Match.Status.QUEUED, claim_token=None, claimed_at=None, deadline_at=None
    )


def execute_match(match_id: int) -> str:
    """Claim, play and record one match. Returns what happened, for logs and tests."""
    match, seats, claimed = read_and_claim(match_id)
    if match is None:
        return "missing"
    if not claimed:
        return "skipped"
    # Which host has which match: when a host is lost, its log's last claims are the
    # matches the reaper will send again.
    log.info("match %s claimed (attempt %d)", match_id, match.attempts)
    token = match.claim_token
    started = time.monotonic()
    try:
        outcome = play_claimed(match, seats)
    except Unplayable as exc:
        record_failure(match_id, token, str(exc))
        log.warning("match %s failed: %s", match_id, exc)
        return "failed"
    except (InfrastructureFault, DatabaseError):
        _release_or_give_up(match, token)
        raise
    except OSError as exc:
        # The temp dir, a bot file or a pipe could not be made: the host, not the match.
        _release_or_give_up(match, token)
        raise InfrastructureFault(f"could not prepare the match: {exc}") from exc
    except Exception as exc:
        # A bug of ours: retrying would fail the same way, so the match fails, with why.
        record_failure(match_id, token, _describe(exc, "the worker could not play the match"))
        log.exception("match %s failed", match_id)
        return "failed"
    try:
        done = record_result(match_id, token, outcome)
    except DatabaseError:
        _release_or_give_up(match, token)
        raise
    except Exception as exc:
        record_failure(match_id, token, _describe(exc, "the result could not be recorded"))
        log.exception("match %s: result not recorded", match_id)
        return "failed"
    if done.recorded and match.challenge_id is None:
        _try_request_refit(match.game)
    log.info(
        "match %s %s in %.2fs (%d decisions, ranks %s%s)",
        match_id,
        "recorded" if done.recorded else "already done",
        time.monotonic() - started,
        outcome.decisions,
        outcome.ranks,
        f", forfeits {outcome.forfeits}" if outcome.forfeits else "",
    )
    return "recorded" if done.recorded else "duplicate"


def _try_request_refit(game: str) -> None:
    # The result is committed: a refit that cannot be asked for now is asked for by the
    # next result (or on demand), never a reason to fail or retry the match.
    try:
        skills.request_refit_if_due(game)
    except Exception:
        log.exception("could not check whether %s needs a refit", game)


def _describe(exc: BaseException, what: str) -> str:
    return f"{what}: {type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(exc)[-3:])


def _release_or_give_up(match: Match, token: uuid.UUID | None) -> None:
    with contextlib.suppress(DatabaseError):
        if match.attempts >= settings.ARENA_MAX_ATTEMPTS:
            if match.try_fail(f"gave up after {match.attempts} attempts", claim_token=token):
                after_failure(match)
        else:
            _release(match.pk, token)


# ----- tasks ---------------------------------------------------------------------------------


@app.task(bind=True, name="workers.tasks.run_match", max_retries=MAX_RETRIES)
def run_match(self: Any, match_id: int) -> str:
    try:
        return execute_match(match_id)
    except (InfrastructureFault, DatabaseError) as exc:
        # A dropped database connection must not poison the next attempt.
        close_old_connections()
        log.warning("match %s: infrastructure fault, retrying: %s", match_id, exc)
        raise self.retry(exc=exc, countdown=min(60, 2**self.request.retries)) from exc


def enqueue_match(match_id: int, purpose: str = Match.Purpose.TOURNAMENT) -> None:
    """Put one match on its purpose's queue (called after the transaction that created it).

    The queue comes from workers/routing.py, the one place that maps purposes to queues.
    """
    run_match.apply_async((match_id,), queue=routing.queue_for_purpose(purpose))


@app.task(name="workers.tasks.reap_stuck_matches")
def reap_stuck_matches() -> dict[str, int]:
    """Requeue running matches past their deadline; fail those out of attempts.

    It also re-sends queued matches whose message may have been lost (the broker was
    down when they were enqueued): a queued match older than the claim deadline is
    sent again at most once per deadline period, using `deadline_at` as the time of
    the next re-send; a duplicate message costs one failed claim.
    """
    now = timezone.now()
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    period = timedelta(seconds=settings.ARENA_MATCH_DEADLINE_SECONDS)
    # Listed before requeueing, so a match requeued below is not also re-sent.
    orphans = list(
        Match.objects.filter(status=Match.Status.QUEUED, created_at__lt=now - period)
        .exclude(deadline_at__gte=now)
        .order_by("id")[:REAP_BATCH]
    )
    for match in Match.objects.stuck(now).order_by("id")[:REAP_BATCH]:
        if match.attempts >= settings.ARENA_MAX_ATTEMPTS:
            if match.try_fail(f"gave up after {match.attempts} attempts (worker lost)"):
                after_failure(match)
                counts["failed"] += 1
        elif match.try_requeue(now):
            if match.status == Match.Status.QUEUED:  # else held: its tournament is paused
                enqueue_match(match.pk, match.purpose)
            counts["requeued"] += 1
    for match in orphans:
        if match.attempts >= settings.ARENA_MAX_ATTEMPTS:
            if match.try_fail(f"gave up after {match.attempts} attempts"):
                after_failure(match)
                counts["failed"] += 1
            continue
        marked = Match.objects.filter(pk=match.pk, status=Match.Status.QUEUED).update(
            deadline_at=now + period
        )
        if marked:
            enqueue_match(match.pk, match.purpose)
            counts["resent"] += 1
    counts["challenges"] = len(advance_stalled_challenges())
    if any(counts.values()):
        log.info("reaper: %s", counts)
    return counts


@app.task(name="workers.tasks.refit_skills")
def refit_skills(game: str, force: bool = False) -> dict[str, Any]:
    """Refit a game's whole-history skill (warm-started); a no-op when one is running."""
    fit = skills.refit(game, force=force)
    if fit is None:
        return {"game": game, "refit": False}
    return {"game": game, "refit": True, "fit": fit.pk, "seconds": fit.seconds}


def enqueue_refit(game: str, force: bool = False) -> None:
    """Put a refit on the queue; on demand it is forced (it runs even with few new results)."""
    refit_skills.delay(game, force)


@app.task(name="workers.tasks.start_due_tournaments")
def start_due_tournaments() -> list[int]:
    from arena.services.tournaments import start_due_tournaments as start_due

    return start_due()
