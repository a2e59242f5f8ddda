"""The reaper: re-queue matches whose lease lapsed, re-send matches whose message was lost.

It runs in the beat process itself, on a thread, every ARENA_REAPER_SECONDS
(`start_in_beat`, connected to Celery's `beat_init` here; the app lists this module among
its task modules, so beat imports it): never behind the match backlog on a queue, and
still running when every worker is paused or dead. `reap_stuck_matches` on the
maintenance queue runs the same sweep by hand.

- A running match whose lease lapsed (workers/queue/lease.py) goes back to `queued` with a new
  message, its lapsed claim kept as an attempt; past ARENA_MAX_ATTEMPTS it fails, with why.
- After the reaper's own database outage it waits one lease before re-queueing anything:
  the workers could not renew their leases either, and one that kept playing through the
  outage renews within a third of a lease and then records its result.
- A queued match whose message is in no queue and held by no worker (Redis restarted
  without persistence, or the broker was down when it was sent) is sent again. The broker's
  lists and its unacked hash are read (Redis only), every ARENA_ORPHAN_SCAN_SECONDS, and a
  match is re-sent when two scans in a row missed it, so one waiting in a long queue is
  never sent twice. On another broker, queued matches are re-sent every 10 minutes.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import sys
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from celery.signals import beat_init
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from arena.models import Match, MatchAttempt
from arena.services import attempts
from arena.services.results import after_failure
from workers.celery import app, die_with_embedding_worker

log = logging.getLogger(__name__)

BATCH = 500
FALLBACK_RESEND = timedelta(minutes=10)
MATCH_TASK = "workers.tasks.run_match"
SET_TASK = "workers.tasks.run_set"


def requeue_lapsed(now: datetime) -> dict[str, int]:
    from workers.tasks import enqueue_match

    counts = {"requeued": 0, "failed": 0}
    for match in Match.objects.stuck(now).order_by("id")[:BATCH]:
        if match.attempts >= settings.ARENA_MAX_ATTEMPTS:
            reason = f"gave up after {match.attempts} attempts (the last worker's lease lapsed)"
            if match.try_fail(reason, claim_token=match.claim_token):
                attempts.log_attempt(match, MatchAttempt.Outcome.LAPSED, reason, ended_at=now)
                after_failure(match)
                counts["failed"] += 1
        elif match.try_requeue(now):
            counts["requeued"] += 1
            if match.status != Match.Status.QUEUED:
                continue  # held: its tournament is paused
            with contextlib.suppress(Exception):  # the broker is down: the orphan scan resends
                enqueue_match(match.pk, match.purpose)
    return counts


# ----- lost messages ---------------------------------------------------------------------------


def _match_ids(raw: bytes | str) -> list[int]:
    """The match ids of one of Kombu's Redis messages: run_match's one, run_set's list."""
    try:
        payload = json.loads(raw)
        if isinstance(payload, list):  # the unacked hash keeps [message, exchange, key]
            payload = payload[0]
        task = payload.get("headers", {}).get("task")
        if task not in (MATCH_TASK, SET_TASK):
            return []
        body = payload["body"]
        if payload.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        first = json.loads(body)[0][0]
        return [int(first)] if task == MATCH_TASK else [int(i) for i in first]
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return []


def matches_in_broker() -> set[int] | None:
    """Match ids with a message waiting in a queue or held by a worker (None: cannot tell)."""
    from workers.queue import routing

    if not str(app.conf.broker_url).startswith(("redis://", "rediss://")):
        return None
    import redis

    client = redis.Redis.from_url(app.conf.broker_url, socket_timeout=5)
    try:
        found: set[int] = set()
        for queue in routing.queue_names():
            # Kombu keeps priorities 3, 6, 9 in lists of their own beside the queue's.
            for key in (queue, *(f"{queue}\x06\x16{p}" for p in (3, 6, 9))):
                for raw in client.lrange(key, 0, -1):
                    found.update(_match_ids(raw))
        for raw in client.hvals("unacked"):
            found.update(_match_ids(raw))
        return found
    finally:
        client.close()


class OrphanScan:
    """Re-send queued matches two broker scans in a row found without a message."""

    def __init__(self) -> None:
        self.missing: set[int] = set()
        self.last_scan = 0.0

    def run(self, now: datetime) -> int:
        from workers.tasks import enqueue_match

        present = matches_in_broker()
        queued = Match.objects.filter(status=Match.Status.QUEUED).order_by("id")
        if present is None:
            return _resend_by_age(now)
        ids = dict(queued.values_list("id", "purpose")[: BATCH * 10])
        missing = {i for i in ids if i not in present}
        resend = sorted(missing & self.missing)[:BATCH]
        self.missing = missing - set(resend)
        for match_id in resend:
            enqueue_match(match_id, ids[match_id])
        if resend:
            log.warning(
                "reaper: re-sent %d matches whose message was lost: %s", len(resend), resend[:20]
            )
            count_resent(len(resend))
        return len(resend)


def count_resent(count: int) -> None:
    """Add to the arena's count of re-sent matches (health's `reaper.resent`, /metrics)."""
    from arena.services.health import RESENT_KEY
    from workers.node.heartbeat import _redis

    with contextlib.suppress(Exception):  # a report only
        client = _redis()
        if client is not None:
            client.incrby(RESENT_KEY, count)


def _resend_by_age(now: datetime) -> int:
    from workers.tasks import enqueue_match

    due = list(
        Match.objects.filter(status=Match.Status.QUEUED, created_at__lt=now - FALLBACK_RESEND)
        .exclude(deadline_at__gte=now)
        .order_by("id")[:BATCH]
    )
    for match in due:
        # deadline_at of a queued match: when it may be re-sent next.
        Match.objects.filter(pk=match.pk, status=Match.Status.QUEUED).update(
            deadline_at=now + FALLBACK_RESEND
        )
        enqueue_match(match.pk, match.purpose)
    if due:
        count_resent(len(due))
    return len(due)


# ----- the sweep, and its thread in beat -------------------------------------------------------


class Reaper:
    """One sweep at a time; remembers its own database outages (see the module's notes)."""

    def __init__(self) -> None:
        self.orphans = OrphanScan()
        self.database_back_at: float | None = None
        self.database_down = False

    def sweep(self) -> dict[str, Any]:
        now = timezone.now()
        counts: dict[str, Any] = {}
        try:
            if self._leases_trustworthy():
                counts.update(requeue_lapsed(now))
            scan_every = float(settings.ARENA_ORPHAN_SCAN_SECONDS)
            if time.monotonic() - self.orphans.last_scan >= scan_every:
                self.orphans.last_scan = time.monotonic()
                try:
                    counts["resent"] = self.orphans.run(now)
                except DatabaseError:
                    raise
                except Exception as exc:  # the broker away or refusing writes: next scan
                    log.warning("reaper: the scan for lost messages could not run: %s", exc)
                from arena.services.challenges import advance_stalled_challenges
                from arena.services.validation import resend_stale_validations

                counts["validations"] = resend_stale_validations(now)
                counts["challenges"] = len(advance_stalled_challenges())
        except DatabaseError as exc:
            if not self.database_down:
                log.warning("reaper: database unavailable: %s", exc)
            self.database_down = True
            connection.close()
            return {"database": "down"}
        if self.database_down:
            self.database_down = False
            self.database_back_at = time.monotonic()
            log.info("reaper: database back; leases trusted again in a lease")
        if any(counts.values()):
            log.info("reaper: %s", counts)
        return counts

    def _leases_trustworthy(self) -> bool:
        if self.database_down:
            return False
        if self.database_back_at is None:
            return True
        return time.monotonic() - self.database_back_at >= float(settings.ARENA_LEASE_SECONDS)


def run_forever(stop: threading.Event | None = None) -> None:
    reaper = Reaper()
    stop = stop or threading.Event()
    while not stop.wait(float(settings.ARENA_REAPER_SECONDS)):
        try:
            counts = reaper.sweep()
            if counts.get("database") != "down":
                _record_sweep()
        except Exception:
            log.exception("reaper sweep failed")
            with contextlib.suppress(Exception):
                connection.close()


def _record_sweep() -> None:
    """When the reaper last swept, for /api/health/ (a silent reaper frees no stuck match)."""
    from arena.services.health import REAPER_KEY
    from workers.node.heartbeat import _redis

    with contextlib.suppress(Exception):
        client = _redis()
        if client is not None:
            client.set(REAPER_KEY, repr(time.time()), ex=3600)


@app.task(name="workers.tasks.reap_stuck_matches")
def reap_stuck_matches() -> dict[str, Any]:
    """One reaper sweep, by hand (beat runs the reaper itself: `start_in_beat`)."""
    return Reaper().sweep()


@beat_init.connect
def _start_in_beat(**kwargs: object) -> None:
    """The reaper runs inside beat: never behind the match backlog."""
    import django

    die_with_embedding_worker()
    django.setup()  # set up already when beat imported this module; a no-op then
    start_in_beat(**kwargs)


def start_in_beat(**_: object) -> threading.Thread:
    """Start the reaper's thread (in the beat process, from its `beat_init`)."""
    # Beat leaves the root logger to Celery's own set-up, which dropped this module's
    # records (re-sends, requeues, outages): they go to stderr, where beat's log goes.
    if not log.handlers:
        handler = logging.StreamHandler(sys.__stderr__)
        handler.setFormatter(logging.Formatter("[%(asctime)s: %(levelname)s/reaper] %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    thread = threading.Thread(target=run_forever, name="arena-reaper", daemon=True)
    thread.start()
    log.info("reaper running in beat every %ss", settings.ARENA_REAPER_SECONDS)
    return thread
