"""Anonymous API reads served from the Redis cache: stale never, per-viewer answers never shared.

The cache is the real Redis of the test settings (CACHES["api"]); each answer says whether it
came from the cache in X-Cache (hit, or miss when it was just stored).
"""

from __future__ import annotations

import pytest

from arena.models import Match
from arena.services.results import record_result
from arena.services.tournaments import create_tournament
from tests.arena.services.test_results import outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena(make_bot, author_user, other_user, organiser_user):
    """Two duel bots of two owners in a round robin of two matches, none played yet."""
    mine, theirs = make_bot(author_user, "mine"), make_bot(other_user, "theirs")
    tournament = create_tournament(
        organiser_user,
        name="cup",
        game="duel",
        bots=[mine.pk, theirs.pk],
        players_per_match=2,
        games_per_pairing=2,
    )
    matches = list(Match.objects.filter(tournament=tournament).order_by("id"))
    return {"mine": mine, "theirs": theirs, "tournament": tournament, "matches": matches}


def read(client, path):
    response = client.get(path)
    assert response.status_code == 200, response.content[:200]
    return response.headers.get("X-Cache"), response.json()


def test_a_second_anonymous_read_comes_from_the_cache(anonymous, arena):
    path = "/api/leaderboards/duel/"
    first, body = read(anonymous, path)
    second, again = read(anonymous, path)
    assert (first, second) == ("miss", "hit")
    assert again == body


def test_a_cached_leaderboard_changes_as_soon_as_a_result_is_recorded(anonymous, arena):
    path = "/api/leaderboards/duel/"
    read(anonymous, path)
    assert read(anonymous, path)[0] == "hit"
    record_result(arena["matches"][0].pk, None, outcome([1, 2]))
    source, board = read(anonymous, path)
    assert source == "miss"
    assert [(row["bot"], row["games"], row["wins"]) for row in board["results"]] == [
        ("mine", 1, 1),
        ("theirs", 1, 0),
    ]


def test_every_answer_showing_a_match_goes_stale_with_its_result(anonymous, arena):
    mine, tournament = arena["mine"], arena["tournament"]
    match = arena["matches"][0]
    paths = [
        "/api/leaderboards/duel/",
        "/api/bots/?game=duel",
        f"/api/bots/{mine.pk}/",
        f"/api/bots/{mine.pk}/ratings/",
        f"/api/tournaments/{tournament.pk}/",
        f"/api/matches/?tournament={tournament.pk}",
        f"/api/matches/?bot={mine.pk}",
        "/api/matches/",
        "/api/tournaments/",
    ]
    before = {path: read(anonymous, path)[1] for path in paths}
    assert {path: read(anonymous, path)[0] for path in paths} == dict.fromkeys(paths, "hit")
    record_result(match.pk, None, outcome([2, 1]))
    after = {path: read(anonymous, path) for path in paths}
    assert {path: source for path, (source, _) in after.items()} == dict.fromkeys(paths, "miss")
    # And each shows the result (no answer was merely re-stored as it was).
    assert all(after[path][1] != before[path] for path in paths)


def test_an_unfinished_match_is_not_kept_and_a_finished_one_is(anonymous, arena):
    match = arena["matches"][0]
    assert read(anonymous, f"/api/matches/{match.pk}/")[0] is None
    assert anonymous.get(f"/api/matches/{match.pk}/replay/").status_code == 404
    record_result(match.pk, None, outcome([1, 2]))
    for path in (f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/replay/"):
        assert [read(anonymous, path)[0] for _ in range(2)] == ["miss", "hit"]


def test_an_owner_and_a_stranger_never_get_each_others_answer(anonymous, author, arena):
    match = arena["matches"][0]
    record_result(match.pk, None, outcome([1, 2]))
    path = f"/api/matches/{match.pk}/"

    def stderr(body):
        return [seat["stderr"] for seat in body["seats"]]

    # The owner reads first: nothing is stored for anyone.
    owner_source, owner_view = read(author, path)
    assert owner_source is None and "seat 0 says hi" in stderr(owner_view)
    source, stranger_view = read(anonymous, path)
    assert source == "miss" and stderr(stranger_view) == [None, None]
    # Once stored, the owner still gets their own answer, the stranger the stored one.
    owner_again = read(author, path)
    assert owner_again[0] is None and owner_again[1] == owner_view
    assert read(anonymous, path) == ("hit", stranger_view)


def test_a_signed_in_browser_session_is_never_served_from_the_cache(anonymous, client, arena):
    client.login(username="ada", password="author-pass-1")
    path = f"/api/bots/{arena['mine'].pk}/"
    read(anonymous, path)
    assert read(anonymous, path)[0] == "hit"
    response = client.get(path)
    assert response.status_code == 200 and "X-Cache" not in response.headers


def test_an_edit_through_the_api_is_seen_by_the_next_anonymous_read(anonymous, author, arena):
    mine = arena["mine"]
    path = f"/api/bots/{mine.pk}/"
    read(anonymous, path)
    assert author.patch(path, {"name": "renamed"}, format="json").status_code == 200
    source, body = read(anonymous, path)
    assert source == "miss" and body["name"] == "renamed"


def test_conditional_and_browsable_reads_bypass_the_cache(anonymous, arena):
    match = arena["matches"][0]
    record_result(match.pk, None, outcome([1, 2]))
    path = f"/api/matches/{match.pk}/"
    read(anonymous, path)
    etag = anonymous.get(path).headers["ETag"]
    assert anonymous.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    page = anonymous.get(path, HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html") and "X-Cache" not in page.headers
    # The browsable API asked for by the query string is not kept either (its forms carry
    # the requester's CSRF token).
    for _ in range(2):
        page = anonymous.get(f"{path}?format=api")
        assert page["Content-Type"].startswith("text/html") and "X-Cache" not in page.headers


def test_a_cache_outage_serves_every_read_uncached(anonymous, arena, settings):
    settings.CACHES = {
        **settings.CACHES,
        # Nothing listens on port 1.
        "api": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    }
    assert read(anonymous, "/api/leaderboards/duel/")[0] is None
    record_result(arena["matches"][0].pk, None, outcome([1, 2]))  # the write still succeeds
    assert Match.objects.get(pk=arena["matches"][0].pk).status == Match.Status.FINISHED


def test_the_invalidation_is_repeated_when_the_transaction_commits(
    anonymous, arena, django_capture_on_commit_callbacks
):
    # A reader between the recorder's first bump and its commit may store what it read
    # before the commit: the bump after commit buries that answer.
    path = "/api/leaderboards/duel/"
    with django_capture_on_commit_callbacks() as callbacks:
        record_result(arena["matches"][0].pk, None, outcome([1, 2]))
    read(anonymous, path)
    assert read(anonymous, path)[0] == "hit"
    for callback in callbacks:
        callback()
    assert read(anonymous, path)[0] == "miss"
