"""Faults with real processes: workers killed or paused mid-match, duplicate deliveries,
the broker and the database restarted.

Real `celery -A workers worker` nodes, each bot in the real sandbox as in production, play
slowed-down Moonrollers matches (each bot waits a little on every move, so a fault lands
mid-match), and a real `celery -A workers beat` runs the reaper (workers/reaper.py). Leases are short (ARENA_LEASE_SECONDS=2). After each fault:
every match is finished and rated exactly once, the ratings equal a recomputation in the
order the results were recorded, no seat carries a forfeit (the bots did nothing wrong),
and the match hit by the fault was claimed again within the bound (lease + 30 s) after the
fault. The measured wait is printed (`pytest -s`) and reported in docs/operators/faults.md.

Faults of workers use the suite's own database and Redis queues. A broker or database
restart happens to a server of the test's own (tests/workers/pipeline/servers.py: a
redis-server, or a PostgreSQL made with initdb, on a spare port), never the shared ones.
The beat's ladder scheduler is paused (`make_matches`) so only the test's matches play.
`make test-faults` runs the slow (`long`) ones too.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from arena.models import Bot, Ladder, Match, MatchAttempt, MatchSeat, Rating, RatingChange
from tests.workers.pipeline.conftest import (
    CELERY,
    ROOT,
    WorkerProcess,
    database_url,
    wait_for_matches,
)
from tests.workers.pipeline.servers import OwnPostgres, OwnRedis
from tests.workers.pipeline.test_concurrency import replay_ratings
from workers import tasks

pytestmark = pytest.mark.django_db(transaction=True)

LEASE = 2.0
# Generous for a loaded machine; the pause below outlasts it.
MATCH_SECONDS = 20.0
BOUND = LEASE + 30.0
FAULT_ENV = {"ARENA_LEASE_SECONDS": str(LEASE), "ARENA_REAPER_SECONDS": "0.5"}
# Random legal moves, ~5 ms each: a Moonrollers match lasts a second or more.
SLOW_BOT = (
    b"import random, time\n"
    b"def act(observation, legal_actions):\n"
    b"    time.sleep(0.005)\n"
    b"    return random.choice(legal_actions)\n"
)


@pytest.fixture
def start_beat(start_worker, queue_name: str, tmp_path: Path) -> Iterator[Callable[..., None]]:
    started: list[WorkerProcess] = []

    def start(extra_env: dict[str, str] | None = None) -> None:
        env = dict(os.environ)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "arena.settings",
                "DATABASE_URL": database_url(),
                "CELERY_BROKER_URL": django_settings.CELERY_BROKER_URL,
                "SECRET_KEY": "pipeline-test-secret",
                "ARENA_QUEUE": queue_name,
                "PYTHONPATH": str(ROOT),
                **FAULT_ENV,
                **(extra_env or {}),
            }
        )
        log = tmp_path / "beat.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [str(CELERY), "-A", "workers", "beat", "-s", str(tmp_path / "schedule"),
                 "--loglevel=INFO"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        beat = WorkerProcess(process, log)
        started.append(beat)
        deadline = time.monotonic() + 30
        while "reaper running in beat" not in beat.text():
            assert process.poll() is None and time.monotonic() < deadline, beat.text()
            time.sleep(0.05)

    yield start
    for beat in started:
        beat.stop()


def make_matches(pairs: int, games: int = 2) -> list[Match]:
    # Beat's ladder scheduler would otherwise enter these bots in ladder matches of its
    # own, rated alongside the test's (and, in a long scenario, outnumbering them).
    Ladder.objects.update_or_create(game="moonrollers", defaults={"status": Ladder.Status.PAUSED})
    owner = User.objects.create_user("fay")
    bots = []
    for index in range(pairs + 1):
        bot = Bot.objects.create(owner=owner, name=f"slow{index}", game="moonrollers")
        bot.add_version(SLOW_BOT, "bot.py")
        bots.append(bot)
    matches = []
    seed = 1
    for a, b in zip(bots, bots[1:], strict=False):
        for game in range(games):
            seats = [a, b] if game % 2 == 0 else [b, a]
            match = Match.objects.create(
                game="moonrollers", rules_version="moonrollers@2", players=2, seed=seed,
                limits={"match_seconds": MATCH_SECONDS},
            )  # fmt: skip
            seed += 1
            for seat, bot in enumerate(seats):
                MatchSeat.objects.create(
                    match=match, seat=seat, bot=bot, bot_version=bot.latest_version()
                )
            matches.append(match)
    return matches


def running_match(timeout: float = 60.0) -> Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = Match.objects.filter(status=Match.Status.RUNNING).order_by("claimed_at").first()
        if found is not None:
            return found
        time.sleep(0.05)
    raise AssertionError("no match started")


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(line) for line in out.split()]


def assert_rated_once_and_uncharged(ids: list[int], workers: list[WorkerProcess]) -> None:
    done = wait_for_matches(ids, workers, timeout=180)
    assert all(m.status == Match.Status.FINISHED and m.rated for m in done)
    for match in done:
        assert RatingChange.objects.filter(match=match).count() == 2, f"match {match.pk}"
        forfeits = [s.forfeit_reason for s in match.seats.all() if s.forfeit_reason]
        assert forfeits == [], f"match {match.pk} charged a bot: {forfeits}"
    stored = {r.bot_id: r.rating for r in Rating.objects.filter(game="moonrollers")}
    for bot_id, value in replay_ratings(done).items():
        assert stored[bot_id] == pytest.approx(value, abs=1e-6)


def reclaimed_after(match_id: int, fault_at: datetime) -> float:
    """Seconds from the fault to the next claim of the match hit by it."""
    match = Match.objects.get(pk=match_id)
    recorded = MatchAttempt.objects.filter(match_id=match_id, outcome="recorded").get()
    assert recorded.started_at is not None and match.status == Match.Status.FINISHED
    return (recorded.started_at - fault_at).total_seconds()


def test_a_pool_process_killed_mid_match_is_played_again_within_seconds(start_worker, start_beat):
    matches = make_matches(2)
    ids = [m.pk for m in matches]
    worker = start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV)
    start_beat()
    for match_id in ids:
        tasks.enqueue_match(match_id)
    hit = running_match()
    time.sleep(0.5)
    (pool,) = children(worker.process.pid)
    os.kill(pool, signal.SIGKILL)
    fault_at = timezone.now()

    assert_rated_once_and_uncharged(ids, [worker])
    wait = reclaimed_after(hit.pk, fault_at)
    print(f"\nkill -9 of a pool process: match {hit.pk} claimed again {wait:.1f}s after")
    assert wait < BOUND
    outcomes = list(MatchAttempt.objects.filter(match=hit).values_list("outcome", flat=True))
    assert outcomes[0] == "lapsed" and outcomes[-1] == "recorded"
    shown = Match.objects.get(pk=hit.pk)
    assert (
        shown.requeues >= 1
        or "taken over" in MatchAttempt.objects.filter(match=hit, outcome="lapsed").first().detail
    )


def test_a_worker_node_killed_mid_match_is_replayed_by_another_node(start_worker, start_beat):
    matches = make_matches(2)
    ids = [m.pk for m in matches]
    doomed = start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV)
    start_beat()
    for match_id in ids:
        tasks.enqueue_match(match_id)
    running_match()
    survivor = start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV)
    # Killed while its pool process plays a match (claims name the pool process's pid);
    # the survivor is playing one of its own by then.
    (pool,) = children(doomed.process.pid)
    deadline = time.monotonic() + 60
    while (hit := doomed_match(pool)) is None:
        assert time.monotonic() < deadline, "the doomed node never played a match"
        time.sleep(0.02)
    os.killpg(doomed.process.pid, signal.SIGKILL)
    fault_at = timezone.now()
    time.sleep(0.2)
    hit = doomed_match(pool) or hit  # the one it died playing (it may have moved on)

    assert_rated_once_and_uncharged(ids, [doomed, survivor])
    wait = reclaimed_after(hit.pk, fault_at)
    last = max(m.finished_at for m in Match.objects.filter(pk__in=ids))
    lapsed = MatchAttempt.objects.get(match=hit, outcome="lapsed").ended_at
    print(
        f"\nkill -9 of a worker node: match {hit.pk} re-queued"
        f" {(lapsed - fault_at).total_seconds():.1f}s after (its lease lapsed), claimed again"
        f" {wait:.1f}s after (once the survivor was free); the last of {len(ids)} finished"
        f" {(last - fault_at).total_seconds():.1f}s after"
    )
    assert 0 < wait < BOUND


def doomed_match(pool: int) -> Match | None:
    return Match.objects.filter(
        status=Match.Status.RUNNING, claimed_by__endswith=f":{pool}"
    ).first()


@pytest.mark.long
def test_a_worker_paused_past_the_match_limit_charges_no_bot(start_worker, start_beat):
    matches = make_matches(1, games=2)
    ids = [m.pk for m in matches]
    paused = start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV)
    start_beat()
    for match_id in ids:
        tasks.enqueue_match(match_id)
    hit = running_match()
    time.sleep(0.5)
    os.killpg(paused.process.pid, signal.SIGSTOP)
    fault_at = timezone.now()
    other = start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV)
    try:
        # Paused longer than the match's own limit and than its lease.
        time.sleep(MATCH_SECONDS + 3.0)
    finally:
        os.killpg(paused.process.pid, signal.SIGCONT)

    assert_rated_once_and_uncharged(ids, [paused, other])
    wait = reclaimed_after(hit.pk, fault_at)
    print(f"\nSIGSTOP of a worker node: match {hit.pk} claimed again {wait:.1f}s after")
    assert wait < BOUND
    # The paused worker's own attempt ended lapsed (taken over) and its result, if it
    # finished one after resuming, was discarded rather than recorded.
    outcomes = set(MatchAttempt.objects.filter(match=hit).values_list("outcome", flat=True))
    assert "lapsed" in outcomes and outcomes <= {"lapsed", "discarded", "interrupted", "recorded"}


def test_duplicate_deliveries_play_and_rate_each_match_once(start_worker, start_beat):
    matches = make_matches(2)
    ids = [m.pk for m in matches]
    workers = [
        start_worker(concurrency=1, isolation="sandbox", extra_env=FAULT_ENV) for _ in range(2)
    ]
    start_beat()
    for _ in range(3):
        for match_id in ids:
            tasks.enqueue_match(match_id)
    assert_rated_once_and_uncharged(ids, workers)
    assert all(m.attempts == 1 for m in Match.objects.filter(pk__in=ids))
    assert MatchAttempt.objects.filter(match_id__in=ids).count() == len(ids)


# --- the broker restarted (its own Redis, on a spare port) -----------------------------------


@pytest.mark.long
@pytest.mark.parametrize("persistent", [False, True], ids=["no-persistence", "append-only"])
def test_a_broker_restart_loses_no_match(start_worker, start_beat, tmp_path, persistent):
    broker = OwnRedis(tmp_path / "redis", persistent)
    broker.start()
    try:
        env = {**FAULT_ENV, "CELERY_BROKER_URL": broker.url, "ARENA_ORPHAN_SCAN_SECONDS": "1"}
        matches = make_matches(2)
        ids = [m.pk for m in matches]
        workers = [
            start_worker(concurrency=1, isolation="sandbox", extra_env=env) for _ in range(2)
        ]
        # Nothing is sent from here: the reaper finds the queued matches without a message
        # (as after a send while the broker was down) and sends them.
        start_beat(env)
        running_match()
        broker.kill()
        time.sleep(5.0)
        broker.start()
        restarted = timezone.now()
        assert_rated_once_and_uncharged(ids, workers)
        waits = [
            (
                MatchAttempt.objects.get(match_id=i, outcome="recorded").started_at - restarted
            ).total_seconds()
            for i in ids
        ]
        late = [w for w in waits if w > 0]
        print(
            f"\nRedis restart ({'append-only' if persistent else 'no persistence'}): "
            f"{len(late)} matches claimed after it, the last {max(late, default=0):.1f}s after"
        )
        assert max(late, default=0) < BOUND + 10  # + the matches played before them
    finally:
        broker.kill()


# --- the database restarted (its own PostgreSQL, on a spare port) ----------------------------


@pytest.fixture
def own_database(transactional_db) -> Iterator[OwnPostgres]:
    """This test's own PostgreSQL, holding a copy of the test database, in place of it.

    The default connection (this process's, and so the workers' `database_url()`) points
    at it until the end of the test; the suite's database is left as it was, for the
    teardown's flush.
    """
    server = OwnPostgres()
    try:
        server.start()
        with in_place_of_the_test_database(server):
            yield server
    finally:
        server.close()


@contextlib.contextmanager
def in_place_of_the_test_database(server: OwnPostgres) -> Iterator[None]:
    """Point the default connection at a started `server`, with the test database's tables."""
    server.copy_schema(database_url())
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(
        HOST="127.0.0.1", PORT=str(server.port), NAME=server.database, USER="postgres",
        PASSWORD="",
    )  # fmt: skip
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)


def progress_after(ids: list[int], back_at: datetime) -> list[float]:
    """Seconds from `back_at` to each match finished after it, in order."""
    finished = Match.objects.filter(pk__in=ids, finished_at__gt=back_at)
    return sorted((m.finished_at - back_at).total_seconds() for m in finished)


@pytest.mark.long
@pytest.mark.parametrize("down", [10.0, 120.0], ids=["10s", "120s"])
def test_a_database_restart_keeps_played_results(own_database, start_worker, start_beat, down):
    matches = make_matches(3, games=4)
    ids = [m.pk for m in matches]
    env = {**FAULT_ENV, "ARENA_ORPHAN_SCAN_SECONDS": "1"}
    workers = [start_worker(concurrency=1, isolation="sandbox", extra_env=env) for _ in range(2)]
    start_beat(env)
    # The first pair's games as one set (one process per bot for the four), the rest alone.
    tasks.enqueue_matches(ids[:4], Match.Purpose.LADDER)
    for match_id in ids[4:]:
        tasks.enqueue_match(match_id)
    deadline = time.monotonic() + 120
    while not (
        Match.objects.filter(pk__in=ids[:4], status=Match.Status.RUNNING).exists()
        and Match.objects.filter(pk__in=ids[4:], status=Match.Status.FINISHED).exists()
    ):
        assert time.monotonic() < deadline, "the set and a lone match never overlapped"
        time.sleep(0.05)
    playing = set(Match.objects.filter(status=Match.Status.RUNNING).values_list("id", flat=True))
    connection.close()
    own_database.stop()
    fault_at = timezone.now()
    # A node started while the database is down takes the queued matches' messages: each
    # claim fails and is retried with backoff.
    workers.append(start_worker(concurrency=1, isolation="sandbox", extra_env=env))
    time.sleep(max(0.0, down - (timezone.now() - fault_at).total_seconds()))
    own_database.start()
    back_at = timezone.now()

    assert_rated_once_and_uncharged(ids, workers)
    after = progress_after(ids, back_at)
    gaps = [b - a for a, b in itertools.pairwise([0.0, *after])]
    print(
        f"\nPostgreSQL down {(back_at - fault_at).total_seconds():.1f}s: {len(after)} matches"
        f" finished after it; the first {after[0] if after else 0:.1f}s after, the last"
        f" {after[-1] if after else 0:.1f}s after, longest idle gap {max(gaps, default=0):.1f}s"
    )
    assert after and after[0] < BOUND and max(gaps) < BOUND
    # What was being played when the database went away was recorded by the claim that
    # played it: the results were kept, not thrown away and played again; and as soon as a
    # lease renewal found the database back, not a backoff step (up to 15 s) later.
    kept = []
    for match in Match.objects.filter(pk__in=playing):
        outcomes = list(MatchAttempt.objects.filter(match=match).values_list("outcome", flat=True))
        assert outcomes == ["recorded"] and match.attempts == 1, (match.pk, outcomes)
        if match.finished_at > back_at:
            kept.append((match.finished_at - back_at).total_seconds())
    print(f"results played through the outage recorded {sorted(kept)}s after it")
    assert kept and max(kept) < LEASE + 8.0
