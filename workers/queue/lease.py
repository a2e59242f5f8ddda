"""A claim's lease, renewed by a heartbeat thread while the worker plays the match.

A claim lasts ARENA_LEASE_SECONDS unless renewed. `Lease` renews it every third of that
from a daemon thread of the pool process (its own database connection), so:

- a worker killed (SIGKILL of the pool process or of the node) stops renewing: the lease
  lapses within one lease and the reaper (in beat, workers/reaper.py) re-queues the match;
- a worker paused (SIGSTOP) stops renewing too; when it resumes, `interrupted()` is true
  because the heartbeat missed its beats, so whatever the match's clocks charged to the
  bots meanwhile is the worker's fault: the result is discarded and the match is played
  again, free;
- a renewal that finds the claim taken over by another worker makes `lost()` true: the
  result will be discarded (arena/services/results.py refuses a stale claim anyway); one
  that finds the match back to `queued` (the database lost the claim in a crash) claims it
  again, and the result is kept;
- a database outage is not a lapse by itself: renewals fail and are retried, the claim
  stays this worker's until someone else takes it, and the reaper waits a lease after its
  own outage ends before it re-queues anything (workers/reaper.py), so a worker that kept
  playing renews first and records its result: the first renewal that reaches the database
  again wakes a write waiting in its backoff (`wait_for_database`), so a played result is
  recorded within a third of a lease of the database's return, not a backoff step later.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

log = logging.getLogger(__name__)


class Lease:
    """Renew the claim of `match_ids` (one token) until `stop()`; a context manager."""

    def __init__(
        self, match_ids: list[int], token: uuid.UUID | None, seconds: float | None = None
    ) -> None:
        self.match_ids = list(match_ids)
        self.token = token
        self.seconds = float(seconds if seconds is not None else settings.ARENA_LEASE_SECONDS)
        self.period = self.seconds / 3.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_beat = time.monotonic()
        self._longest_gap = 0.0
        self._lost = ""
        self.renewals = 0
        self.failed_renewals = 0
        # Set by a renewal that succeeds after one that failed: the database is back.
        self._back = threading.Event()
        self._failing = False

    # --- the state the task reads -------------------------------------------------------

    def lost(self) -> str:
        """Why the claim is no longer this worker's ("" while it is)."""
        return self._lost

    def interrupted(self) -> str:
        """Why the worker could not run for longer than a lease ("" if it always could).

        Checked from the main thread too, so a match that ends the moment the process
        resumes (before the heartbeat wakes) is still caught.
        """
        gap = max(self._longest_gap, time.monotonic() - self._last_beat)
        if gap > self.seconds:
            return f"the worker could not run for {gap:.1f} s (paused or starved) mid-match"
        return ""

    def wait_for_database(self, seconds: float) -> bool:
        """Sleep up to `seconds`; wake early (True) when a renewal finds the database back.

        Without a heartbeat (not started, or nothing left to renew) it simply sleeps.
        """
        self._back.clear()
        if self._thread is None or not self._thread.is_alive() or not self.match_ids:
            time.sleep(seconds)
            return False
        return self._back.wait(seconds)

    def done_with(self, match_id: int) -> None:
        """Stop renewing one match of the claim (it is recorded)."""
        if match_id in self.match_ids:
            self.match_ids.remove(match_id)

    # --- the heartbeat ------------------------------------------------------------------

    def __enter__(self) -> Lease:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> None:
        self._last_beat = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="arena-lease", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            # A renewal in flight may wait on a row lock; it is a daemon thread.
            self._thread.join(timeout=min(self.seconds, 2.0))

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.period):
                now = time.monotonic()
                self._longest_gap = max(self._longest_gap, now - self._last_beat)
                self._last_beat = now
                self.renew()
        finally:
            # This thread's own database connection (Django keeps one per thread).
            connection.close()

    def renew(self) -> bool:
        """Push the lease one period ahead; False if the database could not be reached."""
        from arena.models import Match

        ids = list(self.match_ids)
        if not ids or self._lost:
            return True
        try:
            renewed = Match.objects.filter(
                pk__in=ids, claim_token=self.token, status=Match.Status.RUNNING
            ).update(deadline_at=timezone.now() + timedelta(seconds=self.seconds))
        except DatabaseError as exc:
            # The claim stays ours until someone else takes it: try again next beat.
            self.failed_renewals += 1
            self._failing = True
            log.warning("lease of matches %s not renewed (database): %s", ids, exc)
            connection.close()
            return False
        self.renewals += 1
        if self._failing:
            self._failing = False
            self._back.set()
        wanted = len([i for i in ids if i in self.match_ids])
        if renewed < wanted:
            renewed += self._claim_again(ids)
        if renewed < wanted:
            self._lost = "the claim lapsed and the match was taken over"
            log.warning("matches %s: %s", ids, self._lost)
        return True

    def _claim_again(self, ids: list[int]) -> int:
        """Take back this set's matches found `queued`: a claim the database lost in a
        crash (it commits unflushed), or a match the reaper re-queued that nobody has
        claimed since. The match is still being played here, by a worker that was not
        paused (`interrupted()` says otherwise), so its result stays good."""
        from arena.models import Match

        now = timezone.now()
        try:
            taken = Match.objects.filter(pk__in=ids, status=Match.Status.QUEUED).update(
                status=Match.Status.RUNNING,
                claim_token=self.token,
                claimed_at=now,
                deadline_at=now + timedelta(seconds=self.seconds),
            )
        except DatabaseError:
            connection.close()
            return 0
        if taken:
            log.warning("matches %s: the claim was lost (database crash?); claimed again", ids)
        return int(taken)
