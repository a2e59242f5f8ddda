"""The match list, built from plain rows, answers exactly what MatchSerializer makes."""

from __future__ import annotations

import json

import pytest
from django.db.models import Prefetch
from rest_framework.renderers import JSONRenderer

from arena.api.serializers import MatchSerializer
from arena.models import Match, MatchSeat
from arena.services.results import record_failure, record_result
from arena.services.tournaments import create_tournament
from tests.arena.services.test_results import outcome

pytestmark = pytest.mark.django_db


def test_the_match_list_equals_the_serializers_answer(
    anonymous, make_bot, author_user, organiser_user
):
    bots = [make_bot(author_user, f"r{i}") for i in range(3)]
    tournament = create_tournament(
        organiser_user, name="t", game="duel", bots=[b.pk for b in bots], players_per_match=2
    )
    matches = list(Match.objects.filter(tournament=tournament).order_by("id"))
    record_result(matches[0].pk, None, outcome([1, 2], scores=[3.5, {"x": 1}], forfeits={1: "t"}))
    record_failure(matches[1].pk, None, "the sandbox could not start")
    Match.objects.create(game="duel", rules_version="duel@1", players=2, seed=1)  # no seats
    listed = anonymous.get("/api/matches/?page_size=10").json()["results"]
    assert {m["status"] for m in listed} == {"queued", "finished", "failed"}
    seats = MatchSeat.objects.select_related("bot", "bot_version").order_by("seat")
    expected = MatchSerializer(
        Match.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by("-id"),
        many=True,
    ).data
    assert listed == json.loads(JSONRenderer().render(expected))
    assert [list(m) for m in listed] == [list(m) for m in expected]  # the keys' order too
