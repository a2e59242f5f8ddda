"""Results played under a claim the database lost, or through a restart, are kept.

A claim commits without waiting for the disk (workers/queue/claims.py): a database crash can
lose it while the set plays, leaving the match `queued` as before the claim. And every
lease lapses while the database is down, so a duplicate message arriving first after a
restart could take over a match the first worker played through the outage. Either way
the played result must be recorded once, not discarded and played again.

The database is this test's own PostgreSQL (restarted for real where a restart is the
point); the shared one is never touched.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from arena.models import Match, MatchAttempt
from arena.services.results import record_result
from tests.workers.pipeline.test_faults import own_database  # noqa: F401  (a fixture)
from tests.workers.test_tasks import make_bot, make_match, reference
from workers import tasks
from workers.queue.lease import Lease

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bots(own_database):  # noqa: F811
    from django.contrib.auth.models import User

    owner = User.objects.create_user("lou")
    return [make_bot(owner, name, reference("random_bot.py")) for name in ("a", "b")]


def _lose_the_claim(match_id: int) -> None:
    """The row as the crash leaves it: the claim's UPDATE never happened."""
    Match.objects.filter(pk=match_id).update(
        status=Match.Status.QUEUED, claim_token=None, claimed_at=None, deadline_at=None,
        claimed_by="", attempts=0,
    )  # fmt: skip


def test_a_result_played_under_a_claim_the_database_lost_is_recorded_once(bots, settings):
    settings.ARENA_BOT_ISOLATION = "sandbox"
    match = make_match(bots)
    first, seats, claimed = tasks.read_and_claim(match.pk)
    assert claimed and first is not None
    outcome = tasks.play_claimed(first, seats)
    _lose_the_claim(match.pk)
    # The lease's next renewal finds the match queued, not taken: it claims it again.
    lease = Lease([match.pk], first.claim_token)
    assert lease.renew() and lease.lost() == ""
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.claim_token) == (Match.Status.RUNNING, first.claim_token)
    # A re-sent message finds it held.
    assert not tasks.read_and_claim(match.pk)[2]
    done = record_result(match.pk, first.claim_token, outcome)
    assert done.recorded and not done.stale_claim
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_result_presented_while_the_lost_claim_is_queued_is_recorded(bots, settings):
    """The write can come before any renewal: the queued match holds no claim, so the
    played result is the match's."""
    settings.ARENA_BOT_ISOLATION = "sandbox"
    match = make_match(bots)
    first, seats, _ = tasks.read_and_claim(match.pk)
    outcome = tasks.play_claimed(first, seats)
    _lose_the_claim(match.pk)
    assert record_result(match.pk, first.claim_token, outcome).recorded
    assert not tasks.read_and_claim(match.pk)[2]  # the re-sent message: already finished


def test_no_lease_is_taken_over_just_after_a_restart(bots, own_database, settings):  # noqa: F811
    """Every lease lapsed while the database was down. In the first lease after it is
    back, the worker that played through the outage renews and records; a duplicate
    message then finds the match held. After that, a lapsed lease is taken over."""
    settings.ARENA_LEASE_SECONDS = 3.0
    match = make_match(bots)
    first, seats, _ = tasks.read_and_claim(match.pk)
    outcome = tasks.play_claimed(first, seats)
    connection.close()
    own_database.stop()
    own_database.start()
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert not tasks.read_and_claim(match.pk)[2]  # the duplicate, just after the restart
    done = record_result(match.pk, first.claim_token, outcome)
    assert done.recorded and not done.stale_claim
    assert not MatchAttempt.objects.filter(match=match, outcome="lapsed").exists()


def test_a_lapsed_lease_is_taken_over_once_the_server_has_been_up_a_lease(bots, settings):
    settings.ARENA_LEASE_SECONDS = 1.0
    match = make_match(bots)
    first, _, _ = tasks.read_and_claim(match.pk)
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    import time

    time.sleep(1.2)  # the own server started at the fixture: up more than a lease now
    second, _, taken = tasks.read_and_claim(match.pk)
    assert taken and second is not None and second.claim_token != first.claim_token
