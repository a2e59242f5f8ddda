"""Every list and detail endpoint makes a fixed number of queries, whatever it shows.

Each endpoint is read on a small arena and on one with twice the bots, versions, matches
and results: the counts must be equal, and equal to the pinned number (a new N+1 fails here).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.models import Match
from arena.services.bots import Upload, add_version
from arena.services.results import record_result
from arena.services.tournaments import create_tournament
from tests.arena.conftest import GOOD_BOT
from tests.arena.services.test_results import outcome

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def uncached(settings):
    # The counts are the views': an answer from the response cache makes none.
    settings.API_CACHE = False


def build(make_bot, author_user, organiser_user, bots: int) -> dict[str, int]:
    """An arena with `bots` duel bots (two versions each), a round robin, its results."""
    made = [make_bot(author_user, f"q{bots}-{i}") for i in range(bots)]
    for bot in made:
        add_version(bot, author_user, Upload("bot.py", GOOD_BOT), smoke=False)
    tournament = create_tournament(
        organiser_user, name="t", game="duel", bots=[b.pk for b in made], players_per_match=2
    )
    matches = list(Match.objects.filter(tournament=tournament).order_by("id"))
    for match in matches[:-1]:  # one left queued: the tournament stays running
        record_result(match.pk, None, outcome([1, 2]))
    return {"bot": made[0].pk, "tournament": tournament.pk, "match": matches[0].pk}


ENDPOINTS = [
    # (path, queries): {bot}, {tournament}, {match} are filled in.
    ("/api/games/", 0),
    ("/api/games/duel/", 0),
    ("/api/bots/", 5),  # count, page, versions, ratings, the ladders' status
    ("/api/bots/?game=duel", 5),
    ("/api/bots/{bot}/", 4),
    ("/api/bots/{bot}/versions/", 2),
    ("/api/tournaments/", 4),  # count, page, entrants, progress
    # row, entrants, progress, standings (2), rounds and bracket (formats)
    ("/api/tournaments/{tournament}/", 8),
    ("/api/matches/", 2),  # page, seats with bots and versions
    ("/api/matches/?tournament={tournament}", 2),
    ("/api/matches/?bot={bot}", 2),
    ("/api/matches/{match}/", 3),
    ("/api/matches/{match}/replay/", 1),
    ("/api/leaderboards/", 1),
    ("/api/leaderboards/duel/", 3),  # count, page, the last skill fit
]


def assert_same_queries_small_and_large(anonymous, path: str, expected: int, make_arena) -> None:
    """`path` read anonymously on an arena of 3 bots and one of 6 (`make_arena(bots)` builds
    one and returns the ids the path names) makes `expected` queries both times."""
    counts = []
    for bots in (3, 6):
        url = path.format(**make_arena(bots))
        with CaptureQueriesContext(connection) as queries:
            response = anonymous.get(url)
        assert response.status_code == 200, (url, response.content[:200])
        counts.append(len(queries))
    assert counts == [expected, expected], [q["sql"][:120] for q in queries.captured_queries]


@pytest.mark.parametrize(("path", "expected"), ENDPOINTS)
def test_an_endpoint_makes_the_same_queries_for_a_small_and_a_large_arena(
    path, expected, anonymous, make_bot, author_user, organiser_user
):
    assert_same_queries_small_and_large(
        anonymous, path, expected, lambda bots: build(make_bot, author_user, organiser_user, bots)
    )


def test_the_authenticated_user_is_two_queries(author, author_user):
    with CaptureQueriesContext(connection) as queries:
        assert author.get("/api/users/me/").status_code == 200
    assert len(queries) == 2  # the token with its user, the organiser group check
