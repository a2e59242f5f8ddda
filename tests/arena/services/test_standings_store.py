"""Stored standings: the running sums the result recorder keeps equal the standings computed
from every finished match, and reading them reads no match."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from arena.models import Match, Tournament
from arena.services import standings as store
from arena.services.results import record_result
from arena.tournaments.standings import standings
from tests.arena.services.test_results import make_bot, make_match, outcome

pytestmark = pytest.mark.django_db


def recomputed(tournament: Tournament, cooperative: bool = False) -> list[dict]:
    """The old way: every finished match read again, through the pure maths."""
    matches = []
    for match in Match.objects.filter(tournament=tournament, status="finished").order_by("id"):
        seats = [(s.bot_id, s.rank, bool(s.forfeit_reason)) for s in match.seats.all()]
        matches.append(store.match_result(seats, match.result))
    bots = list(tournament.bots.values_list("id", flat=True))
    return standings([m for m in matches if m], bots, cooperative)


def without_names(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in {"bot", "owner"}} for row in rows]


def test_stored_standings_equal_the_standings_of_every_match(django_assert_max_num_queries):
    owner = User.objects.create_user("stan")
    bots = [make_bot(owner, f"b{i}") for i in range(5)]
    tournament = Tournament.objects.create(
        name="t", game="duel", players_per_match=2, status=Tournament.Status.RUNNING
    )
    tournament.bots.set(bots)
    rng = random.Random(3)
    for _ in range(30):
        table = rng.sample(bots, 2)
        ranks = rng.choice([[1, 2], [2, 1], [1, 1]])
        forfeits = {0: "timeout"} if rng.random() < 0.2 else {}
        match = make_match(table, tournament=tournament)
        assert record_result(match.pk, None, outcome(ranks, forfeits=forfeits)).recorded
    # A duplicate delivery adds nothing.
    assert not record_result(match.pk, None, outcome([1, 2])).recorded
    with django_assert_max_num_queries(2):
        stored = store.read(tournament)
    assert without_names(stored) == recomputed(tournament)
    assert stored[0]["bot"] and stored[0]["owner"] == "stan"
    # Rebuilding from the matches gives the same sums.
    store.rebuild([tournament.pk])
    assert without_names(store.read(tournament)) == recomputed(tournament)
