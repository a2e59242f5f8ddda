"""The match lists by tournament and by bot read an index, on a table big enough for the
planner to choose (seed_benchmark's shapes: the largest tournament's matches are the oldest,
so a backward walk of the primary key would pass every newer match first)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.models import MatchSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(django_db_blocker):
    call_command(
        "seed_benchmark",
        matches=6000,
        users=20,
        bots=200,
        tournaments=10,
        largest=500,
        stdout=open("/dev/null", "w"),  # noqa: SIM115
    )


def plan_of_first_query(client, path: str) -> str:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200 and response.json()["results"]
    sql = queries.captured_queries[0]["sql"]
    assert sql.startswith('SELECT "arena_match"')
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_largest_tournaments_matches_come_from_the_tournament_index(seeded, anonymous):
    plan = plan_of_first_query(anonymous, "/api/matches/?tournament=1")
    assert "match_in_tournament_id" in plan, plan
    assert "arena_match_pkey" not in plan and "Seq Scan" not in plan, plan
    # The next page is an index range too (a cursor: WHERE id < last), whichever index the
    # planner finds cheaper for what is left.
    cursor_url = anonymous.get("/api/matches/?tournament=1").json()["next"]
    plan = plan_of_first_query(anonymous, cursor_url.split("testserver")[1])
    assert "Index" in plan and "Seq Scan" not in plan, plan


def test_a_bots_matches_come_from_the_seats_bot_index(seeded, anonymous):
    bot = MatchSeat.objects.order_by("-match_id").values_list("bot_id", flat=True).first()
    plan = plan_of_first_query(anonymous, f"/api/matches/?bot={bot}")
    assert "matchseat_bot_match" in plan, plan
    assert "Seq Scan" not in plan, plan
