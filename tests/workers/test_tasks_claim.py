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
def test_the_claim_commits_without_waiting_for_the_disk():
    match = make_match("cleo")
    with CaptureQueriesContext(connection) as queries:
        assert tasks.claim(match)
    statements = [q["sql"] for q in queries.captured_queries]
    set_local = statements.index("SET LOCAL synchronous_commit = off")
    update = next(i for i, sql in enumerate(statements) if sql.startswith("UPDATE"))
    assert set_local < update
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


@pytest.mark.django_db(transaction=True)
def test_after_the_claim_commits_the_connection_waits_for_the_disk_again():
    match = make_match("cole")
    assert synchronous_commit() == "on"
    assert tasks.claim(match)
    assert synchronous_commit() == "on"
    assert not tasks.claim(Match.objects.get(pk=match.pk))
