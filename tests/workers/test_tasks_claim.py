"""The claim's commit: quick (no wait for the disk), and only the claim's.

The result's commit must still wait for the disk: it is what makes the match, its
ratings and, the log being sequential, the earlier claim durable.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.models import Bot, Match, MatchSeat
from tests.arena.conftest import GOOD_BOT
from workers import tasks


def make_match(username: str) -> Match:
    owner = User.objects.create_user(username)
    bot = Bot.objects.create(owner=owner, name="a", game="moonrollers")
    version = bot.add_version(GOOD_BOT, "bot.py")
    match = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@1", players=1, seed=3
    )
    MatchSeat.objects.create(match=match, seat=0, bot=bot, bot_version=version)
    return match


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_the_claim_is_one_statement_that_commits_without_waiting_for_the_disk():
    """One round trip: the statement is its own transaction and sets its own commit mode.

    set_config(..., true) is SET LOCAL; run outside a transaction it covers the claim's
    implicit transaction only (checked by hand: 300 such claims, pg_stat_wal.wal_sync +0;
    300 plain ones, +300; see docs/reports/service.md).
    """
    match = make_match("cleo")
    statements: list[str] = []

    def note(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        assert tasks.claim(match)
    assert len(statements) == 1
    assert statements[0].startswith("UPDATE arena_match SET status = %s")
    assert "set_config('synchronous_commit', 'off', true)" in statements[0]
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    assert match.status == Match.Status.RUNNING and match.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_after_the_claim_commits_the_connection_waits_for_the_disk_again():
    match = make_match("cole")
    assert synchronous_commit() == "on"
    assert tasks.claim(match)
    assert synchronous_commit() == "on"
    assert not tasks.claim(Match.objects.get(pk=match.pk))


@pytest.mark.django_db
def test_the_match_is_read_with_its_seats_and_their_versions_in_one_query():
    owner = User.objects.create_user("rhea")
    bots = [Bot.objects.create(owner=owner, name=n, game="moonrollers") for n in ("a", "b")]
    versions = [bots[0].add_version(GOOD_BOT, "bot.py"), bots[1].add_version(b"PK", "b.zip")]
    match = Match.objects.create(
        game="moonrollers",
        rules_version="moonrollers@1",
        players=2,
        seed=5,
        options={"variant": "short"},
        limits={"move_seconds": 2},
    )
    # Created in reverse, so the order comes from the query.
    for seat in (1, 0):
        MatchSeat.objects.create(match=match, seat=seat, bot=bots[seat], bot_version=versions[seat])
    with CaptureQueriesContext(connection) as queries:
        read, seats = tasks.read_match(match.pk)
        assert read is not None
        assert (read.pk, read.game, read.players, read.seed) == (match.pk, "moonrollers", 2, 5)
        assert read.options == {"variant": "short"} and read.limits == {"move_seconds": 2}
        assert (read.status, read.attempts) == (Match.Status.QUEUED, 0)
        assert [(s.seat, s.bot_id) for s in seats] == [(0, bots[0].pk), (1, bots[1].pk)]
        assert [bytes(s.bot_version.source) for s in seats] == [GOOD_BOT, b"PK"]
        assert [s.bot_version.is_zip() for s in seats] == [False, True]
    assert len(queries.captured_queries) == 1
    assert tasks.read_match(match.pk + 1000) == (None, [])
