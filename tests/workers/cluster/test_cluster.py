"""Several worker hosts, each a network namespace with its own hostname and link.

Real PostgreSQL and Redis (the cluster's own, started for this module), real
`celery -A workers worker` processes in the namespaces, real beat sending the
reaper. The tournament is set up and read by `tests.workers.cluster.driver` in a
process pointed at the cluster's database; nothing is mocked.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator

import psycopg
import pytest
from celery import Celery

from tests.workers.cluster.netns import Cluster, Host

pytestmark = pytest.mark.slow

# The claim's lease and the reaper's period, short for the test (production: 10 s and 2 s).
DEADLINE_SECONDS = 3.0
REAPER_SECONDS = 1.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    found = Cluster(
        env={
            "ARENA_BOT_ISOLATION": "process",
            "ARENA_LEASE_SECONDS": str(DEADLINE_SECONDS),
            "ARENA_REAPER_SECONDS": str(REAPER_SECONDS),
            # No refits, no ladder: only the tournament's matches run.
            "ARENA_SKILL_REFIT_EVERY": "0",
        }
    )
    try:
        found.manage("-m", "tests.workers.cluster.driver", "migrate")
        yield found
    finally:
        found.close()


@pytest.fixture
def hosts(cluster: Cluster) -> Iterator[list[Host]]:
    started: list[Host] = []
    yield started
    for host in started:
        host.remove()
    cluster.hosts = [h for h in cluster.hosts if h not in started]


def driver(cluster: Cluster, *args: str) -> dict:
    return json.loads(cluster.manage("-m", "tests.workers.cluster.driver", *args))


def read_tournament(cluster: Cluster, tournament: int) -> dict:
    """The tournament as the database has it (plain SQL: no Django process per look)."""
    with psycopg.connect(cluster.database_url(local=True), autocommit=True) as db:
        (status,) = db.execute(
            "SELECT status FROM arena_tournament WHERE id = %s", [tournament]
        ).fetchone()
        rows = db.execute(
            "SELECT id, status, attempts, rated FROM arena_match WHERE tournament_id = %s"
            " ORDER BY id",
            [tournament],
        ).fetchall()
        (games,) = db.execute(
            "SELECT COALESCE(SUM(r.games), 0) FROM arena_rating r WHERE r.bot_id IN"
            " (SELECT s.bot_id FROM arena_matchseat s JOIN arena_match m ON m.id = s.match_id"
            " WHERE m.tournament_id = %s)",
            [tournament],
        ).fetchone()
        (rated_seats,) = db.execute(
            "SELECT COUNT(*) FROM arena_matchseat s JOIN arena_match m ON m.id = s.match_id"
            " WHERE m.tournament_id = %s AND s.rating_after IS NOT NULL",
            [tournament],
        ).fetchone()
    matches = [dict(zip(("id", "status", "attempts", "rated"), row, strict=True)) for row in rows]
    return {"status": status, "matches": matches, "rating_games": games, "rated_seats": rated_seats}


def recorded_by(cluster: Cluster, host: Host, matches: set[int]) -> set[int]:
    """Which of `matches` the database says `host` recorded (its log can lag the commit)."""
    with psycopg.connect(cluster.database_url(local=True), autocommit=True) as db:
        rows = db.execute(
            "SELECT match_id FROM arena_matchattempt WHERE outcome = 'recorded'"
            " AND worker LIKE %s AND match_id = ANY(%s)",
            [f"{host.name}:%", sorted(matches)],
        ).fetchall()
    return {match_id for (match_id,) in rows}


def wait_finished(cluster: Cluster, tournament: int, timeout: float, hosts: list[Host]) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        found = read_tournament(cluster, tournament)
        if found["status"] == "finished":
            return found
        if time.monotonic() > deadline:
            logs = "\n---\n".join(h.text()[-2500:] for h in hosts)
            raise AssertionError(f"not finished in {timeout}s: {found}\n{logs}")
        time.sleep(0.2)


def claimed(host: Host) -> set[int]:
    return {int(n) for n in re.findall(r"match (\d+) claimed", host.text())}


def recorded(host: Host) -> set[int]:
    return {int(n) for n in re.findall(r"match (\d+) recorded", host.text())}


def live_workers(cluster: Cluster, expected: set[str]) -> set[str]:
    """Worker names that answer Celery's ping on the cluster's broker.

    Asked again for a few seconds until the answer is `expected`: a worker starts
    answering a moment after it says it is ready.
    """
    # Celery prefers $CELERY_BROKER_URL (this test run's own Redis) to the broker an app
    # is given, even for a ping given its own connection: hide it while asking.
    saved = os.environ.pop("CELERY_BROKER_URL", None)
    app = Celery(broker=cluster.broker_url(local=True))
    deadline = time.monotonic() + 10
    try:
        while True:
            found = {name for reply in app.control.ping(timeout=1.0) for name in reply}
            if found == expected or time.monotonic() > deadline:
                return found
    finally:
        app.close()
        if saved is not None:
            os.environ["CELERY_BROKER_URL"] = saved


def assert_rated_once(report: dict) -> None:
    matches = report["matches"]
    assert all(m["status"] == "finished" and m["rated"] for m in matches), matches
    # Two seats a match: each rated match adds exactly one game to each of its two bots.
    assert report["rating_games"] == 2 * len(matches), report
    assert report["rated_seats"] == 2 * len(matches), report


def start_hosts(cluster: Cluster, hosts: list[Host], names: list[str]) -> list[Host]:
    started = []
    for name in names:
        host = cluster.add_host(name)
        hosts.append(host)
        started.append(host)
        host.start()
    for host in started:
        host.wait_ready()
    return started


def test_tournament_over_three_hosts_survives_losing_one(cluster: Cluster, hosts: list[Host]):
    cluster.start_beat()
    start_hosts(cluster, hosts, ["moon-a", "moon-b", "moon-c"])
    for host in hosts:
        assert f"hostname={host.name} " in host.text() and "capacity=1" in host.text()
    everyone = {"worker@moon-a", "worker@moon-b", "worker@moon-c"}
    assert live_workers(cluster, everyone) == everyone

    # 1. Spread over three hosts: every match played once and rated once.
    first = driver(
        cluster, "tournament", "spread", "--bots", "3", "--games", "2", "--sleep", "0.001"
    )
    report = wait_finished(cluster, first["tournament"], 120, hosts)
    assert_rated_once(report)
    assert all(m["attempts"] == 1 for m in report["matches"]), report
    played = [recorded(h) & set(first["matches"]) for h in hosts]
    assert sum(len(p) for p in played) == len(first["matches"])
    assert sum(1 for p in played if p) >= 2, played  # more than one host took work

    # 2. Slower matches; cut moon-b's link while it is playing one.
    second = driver(cluster, "tournament", "cut", "--bots", "4", "--games", "1", "--sleep", "0.006")
    victim, survivors = hosts[1], [hosts[0], hosts[2]]
    wanted = set(second["matches"])
    deadline = time.monotonic() + 60
    while not (claimed(victim) & wanted) - recorded(victim):
        assert time.monotonic() < deadline, victim.text()[-3000:]
        time.sleep(0.05)
    victim.cut()
    cut_at = time.monotonic()
    lost = (claimed(victim) & wanted) - recorded(victim)
    assert lost, "moon-b had no match in play when its link went down"
    left_up = {"worker@moon-a", "worker@moon-c"}
    assert live_workers(cluster, left_up) == left_up

    # Within the reaper's deadline plus its period, plus the play left on two hosts.
    left = len(wanted) - len(recorded(victim) & wanted)
    budget = DEADLINE_SECONDS + REAPER_SECONDS + left * 6.0 + 15.0
    report = wait_finished(cluster, second["tournament"], budget, survivors)
    took = time.monotonic() - cut_at
    assert took < budget
    assert_rated_once(report)
    replayed = set().union(*(recorded(h) for h in survivors))
    by_id = {m["id"]: m for m in report["matches"]}
    # A match whose result moon-b committed just before its link went down, but had not
    # yet logged, was not lost: the database is the judge of who recorded it.
    lost -= recorded_by(cluster, victim, lost)
    for match_id in lost:
        # Re-played on a surviving host, on a second attempt, and recorded once.
        assert match_id in replayed, (match_id, [h.text()[-2000:] for h in survivors])
        assert by_id[match_id]["attempts"] >= 2, by_id[match_id]
    assert not (recorded(victim) & replayed & wanted)  # nothing played to the end twice
    beat_log = (cluster.dir / "beat.log").read_text()
    assert "reaper running in beat" in beat_log  # the reaper's thread (workers/reaper.py)


def test_draining_host_finishes_its_match_and_takes_no_more(cluster: Cluster, hosts: list[Host]):
    (draining,) = start_hosts(cluster, hosts, ["moon-d"])
    made = driver(cluster, "tournament", "drain", "--bots", "3", "--games", "1", "--sleep", "0.004")
    wanted = set(made["matches"])
    deadline = time.monotonic() + 60
    while not claimed(draining) & wanted:
        assert time.monotonic() < deadline, draining.text()[-3000:]
        time.sleep(0.05)
    in_play = claimed(draining) & wanted
    draining.drain()
    assert draining.process is not None
    draining.process.wait(timeout=60)
    assert draining.process.returncode == 0, draining.text()[-3000:]
    # It finished what it was playing, and claimed nothing after the signal.
    assert claimed(draining) & wanted == in_play
    assert recorded(draining) & wanted == in_play
    found = read_tournament(cluster, made["tournament"])
    rest = [m for m in found["matches"] if m["id"] not in in_play]
    assert rest and all(m["status"] == "queued" and m["attempts"] == 0 for m in rest), found

    # The messages it did not take are still on the queue: another host plays them.
    (other,) = start_hosts(cluster, hosts, ["moon-e"])
    report = wait_finished(cluster, made["tournament"], 90, [other])
    assert_rated_once(report)
    assert recorded(other) & wanted == wanted - in_play
