"""Celery tasks: thin, idempotent, and given ids only.

`run_set(match_ids)` plays a set of matches between the same bot versions (a
MatchSet, a pairing's games; `enqueue_set` and `enqueue_matches` send them) and
`run_match(match_id)` one match, as a set of one. Each match is claimed by a
conditional update (a second delivery finds it taken and does nothing); each bot
version of the set is written once into a private temp dir and started once, in one
process for the whole set, through the launcher chosen in settings (the bubblewrap
sandbox, or a plain process); the referee plays the set's matches interleaved, and
each outcome goes, in the set's order, to `arena.services.results.record_result`,
which commits that match's result and ratings once.

A bot that misbehaves is a match result (a forfeit), never a retry. Only
infrastructure faults (database, broker, sandbox unavailable, processes that
cannot be started) give the claim back and retry; a match that cannot be played
at all (unknown game, bad options or limits, an engine error) is marked failed.
The reaper (workers/reaper.py, with its own task) requeues matches whose worker
vanished. Reading and claiming matches is in workers/queue/claims.py, playing them in
workers/play/set_play.py.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections

from arena.models import Match, MatchAttempt, MatchSeat, MatchSet
from arena.services import attempts, skills
from arena.services.results import (
    Recorded,
    after_failure,
    record_failure,
    record_result,
    record_results,
)
from workers.celery import app
from workers.play.referee import MatchOutcome
from workers.play.set_play import (  # noqa: F401  (the launcher and set play, used from here)
    InfrastructureFault,
    Unplayable,
    _launchers,
    check_playable,
    describe_failure,
    play_claimed,
    play_claimed_set,
    play_claimed_set_ending,
    worker_launcher,
)
from workers.queue import routing
from workers.queue.claims import (
    extend_claims,
    read_and_claim,  # noqa: F401  (the one-match claim, kept here)
    read_and_claim_set,
)
from workers.queue.lease import Lease
from workers.queue.outages import OUTAGES, retries_in_budget, retry_delay, when_database_is_back
from workers.sandbox.limits import Limits

log = logging.getLogger(__name__)

MAX_RETRIES = 5
REAP_BATCH = 500


def execute_match(match_id: int) -> str:
    """Claim, play and record one match (a set of one). Returns what happened."""
    return execute_set([match_id])[0]


def execute_set(match_ids: list[int]) -> list[str]:
    """Claim, play and record a set of matches; what happened to each, in order.

    Each match is claimed, recorded and rated on its own: "recorded", "duplicate" (done
    by another delivery meanwhile), "skipped" (not queued), "missing" or "failed".
    Matches of different games or limits (not a set's usual case) are played as
    separate sets. Raises InfrastructureFault or a database outage (`OUTAGES`, for a retry)
    after giving back the claims of every match it has not recorded; any other database
    error fails the match it happened to, with the error.
    """
    unique = list(dict.fromkeys(int(match_id) for match_id in match_ids))
    claims = read_and_claim_set(unique)
    verdict = {
        match_id: ("missing" if match is None else "skipped")
        for match_id, (match, _, _) in zip(unique, claims, strict=True)
    }
    groups: dict[tuple[str, str], list[tuple[Match, list[MatchSeat]]]] = {}
    limits_of: dict[tuple[str, str], Limits] = {}
    for match, seats, claimed in claims:
        if match is None or not claimed:
            continue
        # Which host has which match: when a host is lost, its log's last claims are the
        # matches the reaper will send again.
        log.info("match %s claimed (attempt %d)", match.pk, match.attempts)
        try:
            limits = check_playable(match, seats)
        except Unplayable as exc:
            verdict[match.pk] = _fail(match, str(exc))
            continue
        key = (match.game, json.dumps(limits.to_dict(), sort_keys=True))
        groups.setdefault(key, []).append((match, seats))
        limits_of[key] = limits
    pending = [match for group in groups.values() for match, _ in group]
    if not pending:
        return [verdict[int(match_id)] for match_id in match_ids]
    # All of a set's claims share one token; the lease thread renews them while they play.
    with Lease([m.pk for m in pending], pending[0].claim_token) as lease:
        _play_groups(groups, limits_of, pending, verdict, lease)
    return [verdict[int(match_id)] for match_id in match_ids]


def _play_groups(
    groups: dict[tuple[str, str], list[tuple[Match, list[MatchSeat]]]],
    limits_of: dict[tuple[str, str], Limits],
    pending: list[Match],
    verdict: dict[int, str],
    lease: Lease,
) -> None:
    for key, group in groups.items():
        played = [match for match, _ in group]
        started = time.monotonic()
        try:
            outcomes, ending = play_claimed_set_ending(
                group,
                limits_of[key],
                _heartbeat(played),
                _live_records(played) if settings.ARENA_LIVE_RECORD_SECONDS > 0 else None,
                settings.ARENA_LIVE_RECORD_SECONDS,
            )
        except Unplayable as exc:
            for match in played:
                verdict[match.pk] = _fail(match, str(exc))
                pending.remove(match)
            continue
        except (InfrastructureFault, *OUTAGES):
            _give_back(pending)
            raise
        except OSError as exc:
            # The temp dir, a bot file or a pipe could not be made: the host, not the match.
            _give_back(pending)
            raise InfrastructureFault(f"could not prepare the match: {exc}") from exc
        except Exception as exc:
            # A bug of ours: retrying would fail the same way, so the matches fail, with why.
            for match in played:
                verdict[match.pk] = _fail(
                    match, describe_failure(exc, "the worker could not play the match")
                )
                pending.remove(match)
            log.exception("set of matches %s failed", [m.pk for m in played])
            continue
        try:
            _settle(played, outcomes, pending, verdict, lease, time.monotonic() - started)
        finally:
            ending.wait()


def _settle(
    played: list[Match],
    outcomes: list[MatchOutcome],
    pending: list[Match],
    verdict: dict[int, str],
    lease: Lease,
    seconds: float,
) -> None:
    """Record a played set (while its bots end), or queue it again if the worker cannot
    vouch for how it was played."""
    unfit = lease.interrupted() or lease.lost()
    if unfit:
        # The worker was paused or lost its claim: whatever the clocks charged the bots
        # meanwhile is not theirs. Played again, free.
        for match in played:
            verdict[match.pk] = _replay(match, match.claim_token, unfit)
            pending.remove(match)
        return
    # In the set's order: ratings move exactly as if the matches were played one by one.
    for match, outcome, done in _record_set(played, outcomes, pending, lease):
        verdict[match.pk] = done or _record(match, outcome, pending, seconds)
        lease.done_with(match.pk)


def _record_set(
    played: list[Match], outcomes: list[MatchOutcome], pending: list[Match], lease: Lease
) -> list[tuple[Match, MatchOutcome, str | None]]:
    """Record a set's results in one transaction; None for each match to record alone.

    Through a database outage the played results are kept and the write retried (with
    the lease still renewed) for up to the retry budget: see workers/queue/outages.py.
    """
    items = [(m.pk, m.claim_token, o) for m, o in zip(played, outcomes, strict=True)]
    try:
        done = when_database_is_back(
            lambda: record_results(items, claims=played), lease, played[0].pk
        )
    except OUTAGES:
        _give_back(pending)
        raise
    except Exception:
        # A data error too (a value the database refuses): one by one, the match it
        # belongs to fails with it and the others are recorded.
        log.exception("set %s: recording the matches one by one", [m.pk for m in played])
        return [(m, o, None) for m, o in zip(played, outcomes, strict=True)]
    # The set's attempts went with its results (`attempt_logged`) unless the set was
    # recorded another way: then in one statement. One refit check per game: per match
    # they were two more round trips (an INSERT committed alone, a count) and, once a
    # game is due, a task sent per match.
    ended = []
    for match, recorded in zip(played, done, strict=True):
        end = attempts.ending(recorded)
        if end is not None and not recorded.attempt_logged:
            ended.append((match, *end))
    try:
        attempts.log_attempts(ended)
    except DatabaseError:
        log.exception("set %s: attempts not logged", [m.pk for m in played])
    rated: dict[str, int] = {}
    for match, recorded in zip(played, done, strict=True):
        if recorded.recorded and match.challenge_id is None:
            rated[match.game] = rated.get(match.game, 0) + 1
    for game, count in rated.items():
        _try_request_refit(game, count)
    for match, outcome, recorded in zip(played, outcomes, done, strict=True):
        pending.remove(match)
        log.info(
            "match %s %s (%d decisions, ranks %s%s)",
            match.pk,
            "recorded" if recorded.recorded else "already done",
            outcome.decisions,
            outcome.ranks,
            f", forfeits {outcome.forfeits}" if outcome.forfeits else "",
        )
    return [(m, o, _said(r)) for m, o, r in zip(played, outcomes, done, strict=True)]


def _said(done: Recorded) -> str:
    if done.stale_claim:
        return "discarded"
    return "recorded" if done.recorded else "duplicate"


def _log_recorded(match: Match, done: Recorded) -> None:
    end = attempts.ending(done)
    if end is not None and not done.attempt_logged:
        attempts.log_attempt(match, *end)


def _record(match: Match, outcome: MatchOutcome, pending: list[Match], seconds: float) -> str:
    try:
        done = record_result(match.pk, match.claim_token, outcome, claim=match)
    except OUTAGES:
        _give_back(pending)
        raise
    except Exception as exc:
        # Not an outage (a bug, or a value the database refuses): waiting would not help.
        pending.remove(match)
        log.exception("match %s: result not recorded", match.pk)
        return _fail(match, describe_failure(exc, "the result could not be recorded"))
    pending.remove(match)
    _log_recorded(match, done)
    if done.recorded and match.challenge_id is None:
        _try_request_refit(match.game)
    log.info(
        "match %s %s (set of %.2fs; %d decisions, ranks %s%s)",
        match.pk,
        "recorded" if done.recorded else "already done",
        seconds,
        outcome.decisions,
        outcome.ranks,
        f", forfeits {outcome.forfeits}" if outcome.forfeits else "",
    )
    return _said(done)


def _try_request_refit(game: str, recorded: int = 1) -> None:
    # The result is committed: a refit that cannot be asked for now is asked for by the
    # next result (or on demand), never a reason to fail or retry the match.
    try:
        skills.request_refit_if_due(game, recorded)
    except Exception:
        log.exception("could not check whether %s needs a refit", game)


def _fail(match: Match, error: str) -> str:
    record_failure(match.pk, match.claim_token, error)
    attempts.log_attempt(match, MatchAttempt.Outcome.FAILED, error)
    log.warning("match %s failed: %s", match.pk, error.splitlines()[0] if error else "")
    return "failed"


def _give_back(matches: list[Match], reason: str = "an infrastructure fault") -> None:
    for match in matches:
        _release_or_give_up(match, match.claim_token, reason)


def _heartbeat(matches: list[Match]) -> Callable[[], None]:
    def extend() -> None:
        with contextlib.suppress(DatabaseError):
            extend_claims(matches)

    return extend


def _live_records(matches: list[Match]) -> Callable[[dict[int, dict[str, Any]]], None]:
    """Store a running match's partial record, so its replay can be watched live; only
    while this worker's claim holds (a match given back or taken over is not written)."""
    tokens = {match.pk: match.claim_token for match in matches}

    def store(records: dict[int, dict[str, Any]]) -> None:
        for match_id, record in records.items():
            with contextlib.suppress(DatabaseError):
                Match.objects.filter(
                    pk=match_id, status=Match.Status.RUNNING, claim_token=tokens[match_id]
                ).update(record=record)

    return store


def _release_or_give_up(match: Match, token: uuid.UUID | None, reason: str) -> None:
    with contextlib.suppress(DatabaseError):
        if match.attempts >= settings.ARENA_MAX_ATTEMPTS:
            error = f"gave up after {match.attempts} attempts; the last: {reason}"
            if match.try_fail(error, claim_token=token):
                attempts.log_attempt(match, MatchAttempt.Outcome.INFRASTRUCTURE, reason)
                after_failure(match)
        else:
            attempts.release_for_replay(match, token, MatchAttempt.Outcome.INFRASTRUCTURE, reason)


def _replay(match: Match, token: uuid.UUID | None, reason: str) -> str:
    """Discard a result the worker cannot vouch for, and queue the match again, free."""
    log.warning("match %s: result discarded, played again: %s", match.pk, reason)
    outcome = MatchAttempt.Outcome.INTERRUPTED
    if attempts.release_for_replay(match, token, outcome, reason):
        enqueue_match(match.pk, match.purpose)
        return "interrupted"
    return "discarded"


# ----- tasks ---------------------------------------------------------------------------------


def _retry(task: Any, what: str, exc: Exception) -> Exception:
    # A dropped database connection must not poison the next attempt.
    close_old_connections()
    if task.request.retries >= retries_in_budget():
        # The leases lapse (or the claims were given back): the reaper re-queues them.
        log.error("%s: retry budget spent, left to the reaper: %s", what, exc)
        return exc
    log.warning("%s: infrastructure fault, retrying: %s", what, exc)
    return task.retry(exc=exc, countdown=retry_delay(task.request.retries))


@app.task(bind=True, name="workers.tasks.run_match", max_retries=None)
def run_match(self: Any, match_id: int) -> str:
    try:
        return execute_match(match_id)
    except (InfrastructureFault, *OUTAGES) as exc:
        raise _retry(self, f"match {match_id}", exc) from exc


@app.task(bind=True, name="workers.tasks.run_set", max_retries=None)
def run_set(self: Any, match_ids: list[int]) -> list[str]:
    """A set of matches between the same bot versions, one process per bot for the set.

    A retry claims again only what is still queued: recorded matches are skipped."""
    try:
        return execute_set(list(match_ids))
    except (InfrastructureFault, *OUTAGES) as exc:
        raise _retry(self, f"set {match_ids}", exc) from exc


def enqueue_match(match_id: int, purpose: str = Match.Purpose.TOURNAMENT) -> None:
    """Put one match on its purpose's queue (called after the transaction that created it).

    The queue comes from workers/queue/routing.py, the one place that maps purposes to queues.
    """
    run_match.apply_async((match_id,), queue=routing.queue_for_purpose(purpose))


def enqueue_matches(match_ids: list[int], purpose: str = Match.Purpose.TOURNAMENT) -> None:
    """Put matches between the same bot versions on their purpose's queue as sets.

    One task per `settings.ARENA_SET_MAX_MATCHES` matches (in the given order): each
    plays its matches with one process per bot version. Call it after the transaction
    that created them; a lone match goes as `run_match`.
    """
    ids = [int(match_id) for match_id in match_ids]
    size = max(1, int(settings.ARENA_SET_MAX_MATCHES))
    queue = routing.queue_for_purpose(purpose)
    for start in range(0, len(ids), size):
        chunk = ids[start : start + size]
        if len(chunk) == 1:
            run_match.apply_async((chunk[0],), queue=queue)
        else:
            run_set.apply_async((chunk,), queue=queue)


def enqueue_set(set_id: int, purpose: str | None = None) -> None:
    """Put a MatchSet's unfinished matches on the queue as one set (after its commit).

    The ladder and challenges call this; `purpose` defaults to the set's own."""
    match_set = MatchSet.objects.filter(pk=set_id).only("purpose").first()
    if match_set is None:
        return
    ids = list(
        match_set.matches.unfinished().order_by("set_index", "id").values_list("id", flat=True)
    )
    enqueue_matches(ids, purpose or match_set.purpose)


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


@app.task(bind=True, name="workers.tasks.validate_version", max_retries=MAX_RETRIES)
def validate_version(self: Any, version_id: int) -> str:
    """Play an uploaded version's smoke match in the sandbox; mark it ready or rejected."""
    from arena.services.validation import validate_version as validate

    try:
        return validate(version_id)
    except Exception as exc:
        # The sandbox or the database, not the author's bot: the version stays pending.
        close_old_connections()
        log.warning("bot version %s: validation could not run, retrying: %s", version_id, exc)
        raise self.retry(exc=exc, countdown=min(60, 2**self.request.retries)) from exc


def enqueue_validation(version_id: int) -> None:
    """Send a version's smoke match to the validation queue (after the upload commits)."""
    validate_version.apply_async((version_id,), queue=routing.queue_name(routing.VALIDATION))


@app.task(name="workers.tasks.start_due_tournaments")
def start_due_tournaments() -> list[int]:
    from arena.services.tournaments import start_due_tournaments as start_due

    return start_due()


# ----- the ladder ------------------------------------------------------------------------------

CAPACITY_CACHE_SECONDS = 60.0
_capacity: dict[str, float] = {}


def worker_capacity() -> int:
    """Worker slots (pool processes) consuming matches: the setting, or asked of the workers.

    The answer of `celery inspect stats` is kept a minute: asking waits for replies, and
    workers come and go far less often than the scheduler ticks.
    """
    if settings.ARENA_LADDER_CAPACITY:
        return int(settings.ARENA_LADDER_CAPACITY)
    now = time.monotonic()
    if _capacity and now - _capacity["at"] < CAPACITY_CACHE_SECONDS:
        return int(_capacity["slots"])
    slots = 0
    try:
        replies = app.control.inspect(timeout=1.0).stats() or {}
    except Exception as exc:
        log.warning("ladder: could not ask the workers for their capacity: %s", exc)
        replies = {}
    for stats in replies.values():
        pool = stats.get("pool", {}) if isinstance(stats, dict) else {}
        concurrency = pool.get("max-concurrency")
        if isinstance(concurrency, int) and concurrency > 0:
            slots += concurrency
    # This task runs on a worker, so there is at least one slot even if none answered.
    slots = max(1, slots)
    if _capacity.get("slots") != slots:
        log.info("ladder: %d worker slots (%d workers answered)", slots, len(replies))
    _capacity.update(at=now, slots=slots)
    return slots


@app.task(name="workers.tasks.schedule_ladders")
def schedule_ladders() -> dict[str, int]:
    """Top every running ladder up to its target depth (beat, every few seconds)."""
    from arena.services.ladder import schedule_ladders as schedule

    added = schedule(worker_capacity())
    if any(added.values()):
        log.info("ladder: %s", added)
    return added
