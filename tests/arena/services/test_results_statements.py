"""The statements `record_result` sends and how they travel, pinned.

On PostgreSQL a recorded match is: lock the match and read its seats, lock the bots'
ratings, write everything in one statement, plus BEGIN and COMMIT (a savepoint and its
release inside a test's transaction), all in psycopg's pipeline mode, so that they cost
two round trips (BEGIN and the locks, then the write and COMMIT). The benchmark
(manage.py arena_bench) depends on it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection

from arena.models import Rating, Tournament
from arena.services.results import record_result
from tests.arena.services.test_results import make_bot, make_match, outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("stan")


def test_recording_a_match_takes_a_fixed_number_of_statements(owner, django_assert_num_queries):
    """Pinned so the per-match cost cannot creep back (each statement is a round trip).

    PostgreSQL: lock the match and read its seats, lock the ratings, write everything;
    plus the savepoint and its release that stand for BEGIN and COMMIT inside a test.
    """
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    Rating.objects.bulk_create([Rating(bot=a, game="duel"), Rating(bot=b, game="duel")])
    match = make_match([a, b])
    with django_assert_num_queries(5):
        assert record_result(match.pk, None, outcome([1, 2])).recorded
    # A duplicate locks the ratings too (sent with the match's lock, before it is read).
    with django_assert_num_queries(4):
        assert not record_result(match.pk, None, outcome([1, 2])).recorded


def test_the_locks_and_the_write_are_sent_in_pipeline_mode(owner):
    """Statements sent in pipeline mode do not wait for each other's replies."""
    from psycopg import pq

    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    Rating.objects.bulk_create([Rating(bot=a, game="duel"), Rating(bot=b, game="duel")])
    match = make_match([a, b])
    sent: list[tuple[str, bool]] = []

    def note(execute, sql, params, many, context):
        pipelined = connection.connection.pgconn.pipeline_status != pq.PipelineStatus.OFF
        sent.append((sql.split()[0], pipelined))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        assert record_result(match.pk, None, outcome([1, 2])).recorded
    assert sent == [
        ("SAVEPOINT", True),
        ("SELECT", True),
        ("SELECT", True),
        ("WITH", True),
        ("RELEASE", True),
    ]
    assert Rating.objects.get(bot=a, game="duel").games == 1


def test_recording_a_tournament_match_adds_the_tournament_check_and_standings(
    owner, django_assert_num_queries
):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    Rating.objects.bulk_create([Rating(bot=a, game="duel"), Rating(bot=b, game="duel")])
    tournament = Tournament.objects.create(
        name="t", game="duel", players_per_match=2, status=Tournament.Status.RUNNING
    )
    match = make_match([a, b], tournament=tournament)
    # 9: the standings' upsert (arena/services/standings.py) is the one more.
    with django_assert_num_queries(9):
        assert record_result(match.pk, None, outcome([1, 2])).recorded
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert list(tournament.standings.order_by("bot_id").values_list("bot_id", "points")) == [
        (a.pk, 1.0),
        (b.pk, 0.0),
    ]


def test_the_locks_and_the_write_are_prepared_statements(owner):
    """Parsed and planned once per connection, not per match (rows.prepared_cursor)."""
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    Rating.objects.bulk_create([Rating(bot=a, game="duel"), Rating(bot=b, game="duel")])
    for _ in range(2):
        assert record_result(make_match([a, b]).pk, None, outcome([1, 2])).recorded
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
        cursor.execute("SHOW plan_cache_mode")  # one plan each (arena/settings.py)
        assert cursor.fetchone()[0] == "force_generic_plan"
        # Django's own statements are not prepared: this test's ORM calls are not there.
        assert not any("arena_bot" in s or "auth_user" in s for s in prepared)
    assert any(s.startswith("SELECT") and "FROM arena_match m" in s for s in prepared)
    assert any(s.startswith("SELECT") and "FROM arena_rating" in s for s in prepared)
    assert any("INSERT INTO arena_ratingchange" in s for s in prepared)
    # Each once, however many matches were recorded (the connection outlives the test:
    # other tests' statements may be there too).
    assert len(prepared) == len(set(prepared))


@pytest.mark.django_db(transaction=True)
def test_a_write_failing_in_the_pipeline_rolls_back_and_leaves_the_connection_usable(owner):
    """The error surfaces as Django's, nothing of the match is stored, the next one records."""
    from django.db import DatabaseError

    from arena.models import Match
    from arena.services import results

    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    Rating.objects.bulk_create([Rating(bot=a, game="duel"), Rating(bot=b, game="duel")])
    match = make_match([a, b])
    before = Match.objects.get(pk=match.pk).status

    def failing_write(match, seats, moves):
        with connection.cursor() as cursor:
            cursor.execute("UPDATE arena_rating SET games = -1 WHERE bot_id = %s", [a.pk])

    with pytest.MonkeyPatch.context() as patch, pytest.raises(DatabaseError):
        patch.setattr(results, "_write_all_postgresql", failing_write)
        record_result(match.pk, None, outcome([1, 2]))
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == before and not stored.rated
    assert Rating.objects.get(bot=a, game="duel").games == 0
    assert record_result(match.pk, None, outcome([1, 2])).recorded
    assert Rating.objects.get(bot=a, game="duel").games == 1
