"""The statements on every set's path read the set's rows by key, statistics or not.

A table the planner has no statistics for (new, or busy since the last ANALYZE; this
machine's server runs without autovacuum) gets default estimates. Joined on a list of
ids, the seats were then hashed whole for every set: 1.6 ms of the database's CPU for a
table of 6,000 seats, growing with it. Each statement is planned here as the workers run
it, prepared with a generic plan (arena/settings.py), on a table of many seats that was
never analysed.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from arena.models import Bot, Match, MatchSeat
from arena.services.results import record_results
from tests.arena.conftest import GOOD_BOT
from tests.arena.services.test_results import outcome
from workers.queue.claims import read_and_claim_set

pytestmark = pytest.mark.django_db

MATCHES = 6000
BAD_PATHS = ("Seq Scan on arena_matchseat", "arena_matchseat_bot_version_id")


def _many_unanalysed_matches(bots: list[Bot]) -> None:
    """MATCHES queued two-seat matches written by SQL, so nothing analyses the tables."""
    template = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@1", players=2, seed=1
    )
    columns = ", ".join(
        connection.ops.quote_name(f.column) for f in Match._meta.concrete_fields if f.column != "id"
    )
    versions = [bot.latest_version() for bot in bots]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO arena_match ({columns}) SELECT {columns} FROM arena_match,"
            " generate_series(1, %s) WHERE id = %s",
            [MATCHES, template.pk],
        )
        cursor.execute(
            "INSERT INTO arena_matchseat"
            " (match_id, seat, bot_id, bot_version_id, forfeit_reason, stderr)"
            " SELECT m.id, k, (ARRAY[%s, %s])[k + 1], (ARRAY[%s, %s])[k + 1], '', ''"
            " FROM arena_match m, generate_series(0, 1) k WHERE m.id >= %s",
            [bots[0].pk, bots[1].pk, versions[0].pk, versions[1].pk, template.pk],
        )
        cursor.execute(
            "SELECT count(*) FROM pg_stats WHERE tablename IN ('arena_match', 'arena_matchseat')"
        )
        assert cursor.fetchone()[0] == 0  # never analysed


def _statements(call) -> list[tuple[str, list]]:
    sent: list[tuple[str, list]] = []

    def note(execute, sql, params, many, context):
        sent.append((sql, list(params or [])))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        call()
    return [(sql, params) for sql, params in sent if sql.lstrip().split()[0] != "BEGIN"]


def _generic_plan(sql: str, params: list) -> str:
    """EXPLAIN of `sql` prepared on the server, as the workers' prepared cursor runs it."""
    numbered = iter(range(1, len(params) + 1))
    prepared = re.sub(r"%s", lambda _: f"${next(numbered)}", sql)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute(f"PREPARE planned AS {prepared}")
        try:
            cursor.execute(f"EXPLAIN EXECUTE planned({', '.join(['%s'] * len(params))})", params)
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("DEALLOCATE planned")


def test_claiming_and_recording_a_set_read_its_seats_by_key_without_statistics():
    owner = User.objects.create_user("plan")
    bots = [Bot.objects.create(owner=owner, name=n, game="moonrollers") for n in ("a", "b")]
    for bot in bots:
        bot.add_version(GOOD_BOT, "bot.py")
    _many_unanalysed_matches(bots)
    ids = list(Match.objects.order_by("-id").values_list("id", flat=True)[:16])
    claims: list = []
    sent = _statements(lambda: claims.extend(read_and_claim_set(ids)))
    assert all(claimed for _, _, claimed in claims)
    assert len(MatchSeat.objects.filter(match_id__in=ids)) == 32
    items = [(m.pk, m.claim_token, outcome([1, 2], [3, 1])) for m, _, _ in claims]
    sent += _statements(lambda: record_results(items))
    reads = [(sql, params) for sql, params in sent if "arena_matchseat" in sql]
    assert len(reads) >= 4  # the claim's two reads, the locks, the write
    for sql, params in reads:
        plan = _generic_plan(sql, params)
        assert not any(path in plan for path in BAD_PATHS), f"{sql}\n{plan}"
