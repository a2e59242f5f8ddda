"""The reaper's records reach its process's log: a real `celery beat` re-sends a match whose
message was lost, and says so where an operator reads (beat's stderr)."""

from __future__ import annotations

import time

import pytest

from tests.workers.pipeline.test_faults import make_matches, start_beat  # noqa: F401
from workers import reaper

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_resend_by_the_reaper_is_in_the_beats_log(start_beat, tmp_path):  # noqa: F811
    # Queued and never sent: to the reaper, a match whose message was lost.
    lost = make_matches(pairs=1, games=1)
    start_beat(extra_env={"ARENA_ORPHAN_SCAN_SECONDS": "0.5"})
    log = tmp_path / "beat.log"
    deadline = time.monotonic() + 30
    while "re-sent 1 matches whose message was lost" not in log.read_text(errors="replace"):
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.2)
    assert {m.pk for m in lost} <= (reaper.matches_in_broker() or set())
