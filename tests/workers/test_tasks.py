"""The match task's logic, run in this process: claim, play, record, fail, release, reap.

The same code runs inside real Celery workers in tests/workers/pipeline/.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import Bot, Match, MatchAttempt, MatchSeat, Rating
from arena.services.results import record_result
from workers import reaper, tasks
from workers.play import set_play
from workers.queue.claims import worker_name

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
CRASHING_BOT = b"def act(observation, legal_actions):\n    raise RuntimeError('no idea')\n"


@pytest.fixture(autouse=True)
def plain_processes(settings):
    # These tests are about the task's logic; the sandbox has its own tests.
    settings.ARENA_BOT_ISOLATION = "process"


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("tess")


def make_bot(owner: User, name: str, source: bytes) -> Bot:
    bot = Bot.objects.create(owner=owner, name=name, game="moonrollers")
    bot.add_version(source, "bot.py")
    return bot


def reference(name: str) -> bytes:
    return (REFERENCE / name).read_bytes()


def make_match(bots: list[Bot], **fields) -> Match:
    match = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@1", players=len(bots), seed=11, **fields
    )
    for seat, bot in enumerate(bots):
        MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
    return match


def test_a_queued_match_is_played_recorded_and_rated(owner):
    first = make_bot(owner, "first", reference("first_bot.py"))
    rand = make_bot(owner, "random", reference("random_bot.py"))
    match = make_match([first, rand])
    assert tasks.execute_match(match.pk) == "recorded"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rated and match.attempts == 1
    assert match.decisions > 0 and match.record["actions"]
    ranks = sorted(match.seats.values_list("rank", flat=True))
    assert ranks in ([1, 2], [1, 1])
    assert Rating.objects.filter(game="moonrollers").count() == 2
    assert tasks.execute_match(match.pk) == "skipped"


def test_a_crashing_bot_forfeits_and_the_match_still_finishes(owner):
    good = make_bot(owner, "first", reference("first_bot.py"))
    bad = make_bot(owner, "crasher", CRASHING_BOT)
    match = make_match([bad, good])
    assert tasks.execute_match(match.pk) == "recorded"
    seat = match.seats.get(seat=0)
    assert "no idea" in seat.forfeit_reason and seat.rank == 2
    assert "RuntimeError" in seat.stderr
    assert Rating.objects.get(bot=bad).rating < 1500


def test_bad_limits_fail_the_match_with_the_reason(owner):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots, limits={"move_seconds": 999})
    assert tasks.execute_match(match.pk) == "failed"
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED and "move_seconds" in match.error
    assert not Rating.objects.exists()


class BrokenLauncher:
    name = "broken"

    def check(self) -> None:
        pass

    def launch(self, bot_path, limits):
        raise OSError("fork failed: resource temporarily unavailable")


def test_an_infrastructure_fault_gives_the_claim_back(owner, monkeypatch):
    monkeypatch.setitem(tasks._launchers, "process", BrokenLauncher())
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    with pytest.raises(tasks.InfrastructureFault):
        tasks.execute_match(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED and match.claim_token is None
    assert match.attempts == 1


def test_the_last_allowed_attempt_fails_the_match(owner, monkeypatch, settings):
    settings.ARENA_MAX_ATTEMPTS = 1
    monkeypatch.setitem(tasks._launchers, "process", BrokenLauncher())
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    with pytest.raises(tasks.InfrastructureFault):
        tasks.execute_match(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED and "attempts" in match.error


@pytest.fixture
def sent(monkeypatch) -> list[int]:
    ids: list[int] = []
    monkeypatch.setattr(tasks, "enqueue_match", lambda match_id, purpose: ids.append(match_id))
    return ids


def test_the_reaper_requeues_a_match_whose_worker_vanished(owner, sent):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    stuck = make_match(bots)
    assert stuck.try_claim(deadline_seconds=60)
    fresh = make_match(bots)
    assert fresh.try_claim(deadline_seconds=600)
    Match.objects.filter(pk=stuck.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    counts = reaper.reap_stuck_matches()
    assert counts["requeued"] == 1 and sent == [stuck.pk]
    assert Match.objects.get(pk=stuck.pk).status == Match.Status.QUEUED
    assert Match.objects.get(pk=fresh.pk).status == Match.Status.RUNNING


def test_the_reaper_sends_a_match_back_to_its_purposes_queue(owner, monkeypatch):
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(
        tasks, "enqueue_match", lambda match_id, purpose: sent.append((match_id, purpose))
    )
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    stuck = make_match(bots, purpose=Match.Purpose.LADDER)
    assert stuck.try_claim(deadline_seconds=60)
    Match.objects.filter(pk=stuck.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    reaper.reap_stuck_matches()
    assert sent == [(stuck.pk, "ladder")]


def test_the_reaper_fails_a_stuck_match_out_of_attempts(owner, sent, settings):
    settings.ARENA_MAX_ATTEMPTS = 1
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    assert match.try_claim(deadline_seconds=60)
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert reaper.reap_stuck_matches()["failed"] == 1 and sent == []
    assert Match.objects.get(pk=match.pk).status == Match.Status.FAILED


def test_the_reaper_resends_a_queued_match_whose_message_is_in_no_queue(owner, sent, monkeypatch):
    from workers.queue import routing

    monkeypatch.setenv("ARENA_QUEUE", f"reaper-test-{uuid.uuid4().hex[:8]}")
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    lost, waiting = make_match(bots), make_match(bots)
    # A real message for `waiting` sits in its queue; `lost`'s message is gone.
    tasks.run_match.apply_async((waiting.pk,), queue=routing.queue_for_purpose("tournament"))
    try:
        assert waiting.pk in reaper.matches_in_broker()
        scan = reaper.OrphanScan()
        now = timezone.now()
        assert scan.run(now) == 0 and sent == []  # missed once: maybe just being sent
        assert scan.run(now) == 1 and sent == [lost.pk]  # missed twice: re-sent
        assert scan.run(now) == 0  # and not again on the next scan
    finally:
        import redis

        client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
        client.delete(*routing.queue_names())
        client.close()


def test_the_reaper_leaves_matches_waiting_in_a_set_message_alone(owner, sent, monkeypatch):
    """A run_set message carries a list of matches: each of them is in the broker, and
    none is re-sent as a lone task however long it waits (the scan read only run_match)."""
    from arena.services.health import RESENT_KEY
    from workers.queue import routing

    monkeypatch.setenv("ARENA_QUEUE", f"reaper-test-{uuid.uuid4().hex[:8]}")
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    in_set = [make_match(bots) for _ in range(3)]
    lost = make_match(bots)
    queue = routing.queue_for_purpose("tournament")
    tasks.run_set.apply_async(([m.pk for m in in_set],), queue=queue)
    import redis

    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    resent_before = int(client.get(RESENT_KEY) or 0)
    try:
        assert {m.pk for m in in_set} <= reaper.matches_in_broker()
        scan = reaper.OrphanScan()
        now = timezone.now()
        for _ in range(3):  # the lost one is re-sent at the second scan
            scan.run(now)
        assert sent == [lost.pk]  # the lost one only
        assert int(client.get(RESENT_KEY) or 0) == resent_before + 1
    finally:
        client.delete(*routing.queue_names())
        client.close()


def test_two_deliveries_of_the_same_queued_match_claim_it_once(owner):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    first, _, claimed = tasks.read_and_claim(match.pk)
    assert claimed and first is not None
    second, _, claimed_again = tasks.read_and_claim(match.pk)
    assert not claimed_again and second is not None
    assert second.status == Match.Status.RUNNING  # read before its own (failed) claim
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.attempts, stored.claim_token) == (
        Match.Status.RUNNING,
        1,
        first.claim_token,
    )
    assert first.attempts == 1 and stored.deadline_at == first.deadline_at


def test_a_claim_is_a_lease_and_a_lapsed_one_is_taken_over_by_a_redelivery(owner, settings):
    settings.ARENA_LEASE_SECONDS = 5.0
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    Match.objects.filter(pk=match.pk).update(limits={"match_seconds": 3600})
    first, _, claimed = tasks.read_and_claim(match.pk)
    assert claimed and first is not None
    stored = Match.objects.get(pk=match.pk)
    assert (stored.deadline_at - stored.claimed_at).total_seconds() == pytest.approx(5.0)
    assert stored.claimed_by == worker_name()
    # A live lease: a second delivery leaves it alone.
    assert not tasks.read_and_claim(match.pk)[2]
    # Lapsed: the next delivery takes it over, and the lapsed claim is kept as an attempt.
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    second, _, taken = tasks.read_and_claim(match.pk)
    assert taken and second is not None and second.claim_token != first.claim_token
    stored = Match.objects.get(pk=match.pk)
    assert stored.claim_token == second.claim_token and stored.attempts == 2
    (attempt,) = MatchAttempt.objects.filter(match=match)
    assert attempt.outcome == "lapsed" and attempt.claim_token == first.claim_token


def test_a_result_from_a_lapsed_claim_is_discarded(owner):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    first, seats, _ = tasks.read_and_claim(match.pk)
    outcome = tasks.play_claimed(first, seats)
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    second, _, _ = tasks.read_and_claim(match.pk)
    done = record_result(match.pk, first.claim_token, outcome)
    assert done.stale_claim and not done.recorded
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    assert record_result(match.pk, second.claim_token, outcome).recorded


def test_a_recorded_result_carries_its_attempt_in_the_same_commit(owner):
    """The attempt is written with the result, not after it: a worker lost between the
    two left a recorded match with no attempt."""
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    claim, seats, _ = tasks.read_and_claim(match.pk)
    outcome = tasks.play_claimed(claim, seats)
    done = record_result(match.pk, claim.claim_token, outcome, claim=claim)
    assert done.recorded and done.attempt_logged
    (attempt,) = MatchAttempt.objects.filter(match=match)
    assert (attempt.outcome, attempt.claim_token) == ("recorded", claim.claim_token)


def test_a_referee_crash_fails_the_match_with_the_reason(owner, monkeypatch):
    def broken_referee(*args, **kwargs):
        raise KeyError("deck")

    monkeypatch.setattr(set_play, "play_set", broken_referee)
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    assert tasks.execute_match(match.pk) == "failed"
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert "the referee stopped: KeyError" in match.error


def test_a_full_disk_is_an_infrastructure_fault(owner, monkeypatch):
    def no_space(folder, seat):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(set_play, "_bot_file", no_space)
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    with pytest.raises(tasks.InfrastructureFault, match="No space"):
        tasks.execute_match(match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.QUEUED


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("where", ["read_and_claim_set"])
def test_a_database_connection_lost_mid_task_is_a_retry_and_the_next_attempt_records(
    owner, monkeypatch, where
):
    """The server ends the worker's connection just before a pipelined step: the task sees
    Django's DatabaseError (retried by run_match), nothing is half-written, and after
    close_old_connections() the same worker records the match."""
    import psycopg
    from django.db import DatabaseError, close_old_connections, connection

    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    real = getattr(tasks, where)

    def cut_then_call(*args, **kwargs):
        connection.ensure_connection()
        pid = connection.connection.info.backend_pid
        with psycopg.connect(connection.connection.info.dsn, autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        return real(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(tasks, where, cut_then_call)
        with pytest.raises(DatabaseError):
            tasks.execute_match(match.pk)
    close_old_connections()
    stored = Match.objects.get(pk=match.pk)
    assert not stored.rated and stored.status in (Match.Status.QUEUED, Match.Status.RUNNING)
    if stored.status == Match.Status.RUNNING:
        # The claim had committed before the cut: the reaper (or the retry after its
        # deadline) gives it back; here, as the reaper would.
        Match.objects.filter(pk=match.pk).update(status=Match.Status.QUEUED, claim_token=None)
    assert tasks.execute_match(match.pk) == "recorded"
    assert [r.games for r in Rating.objects.filter(bot__in=bots)] == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_a_played_result_is_kept_through_a_lost_connection_and_recorded_once(
    owner, monkeypatch, settings
):
    """The connection is cut twice as the result is written: the task keeps the result,
    backs off, reconnects and records it, in the same attempt (no replay)."""
    settings.ARENA_RETRY_CAP_SECONDS = 0.2
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = make_match(bots)
    monkeypatch.setattr(tasks, "record_results", cutting(tasks.record_results, times=2))
    assert tasks.execute_match(match.pk) == "recorded"
    stored = Match.objects.get(pk=match.pk)
    assert stored.rated and stored.attempts == 1
    assert [a.outcome for a in MatchAttempt.objects.filter(match=match)] == ["recorded"]
    assert [r.games for r in Rating.objects.filter(bot__in=bots)] == [1, 1]


def cutting(real, times: int):
    """`real`, after the server ends this process's connection the first `times` calls."""
    import psycopg
    from django.db import connection

    calls = {"n": 0}

    def cut_then_call(*args, **kwargs):
        if calls["n"] < times:
            calls["n"] += 1
            connection.ensure_connection()
            pid = connection.connection.info.backend_pid
            with psycopg.connect(connection.connection.info.dsn, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
        return real(*args, **kwargs)

    return cut_then_call
