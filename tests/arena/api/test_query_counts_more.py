"""Query counts of the endpoints test_query_counts.py does not read: rating histories,
challenges, ladders, frames, and the lists' other filters.

As there: each endpoint is read on a small arena and on one with twice everything (bots,
versions, results, refits, challenge games, ladder matches); the counts must be equal, and
equal to the pinned number. The response cache is off: the counts are the views'.
"""

from __future__ import annotations

import random

import pytest

import engine
from arena.models import Match
from arena.services import ladder as ladder_service
from arena.services import skills as skill_service
from arena.services.bots import Upload, add_version
from arena.services.challenges import create_challenge
from arena.services.results import record_result
from arena.services.tournaments import create_tournament
from tests.arena.api.test_frames import recorded_match
from tests.arena.api.test_query_counts import assert_same_queries_small_and_large
from tests.arena.conftest import GOOD_BOT
from tests.arena.services.test_results import outcome

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def uncached(settings):
    settings.API_CACHE = False
    settings.ARENA_SKILL_REFIT_EVERY = 1


def build(make_bot, author_user, organiser_user, bots: int) -> dict[str, int]:
    """`bots` duel bots (two versions each), a played round robin with a refit after each
    half, a challenge with a played batch, and a ladder topped up."""
    made = [make_bot(author_user, f"m{bots}-{i}") for i in range(bots)]
    for bot in made:
        add_version(bot, author_user, Upload("bot.py", GOOD_BOT), smoke=False)
    tournament = create_tournament(
        organiser_user,
        name=f"t{bots}",
        game="duel",
        bots=[b.pk for b in made],
        players_per_match=2,
    )
    played = list(Match.objects.filter(tournament=tournament).order_by("id"))
    for i, match in enumerate(played):
        record_result(match.pk, None, outcome([1, 2] if i % 2 else [2, 1]))
        if i in {len(played) // 2, len(played) - 1}:
            skill_service.refit("duel", force=True, cooperative=False)
    first, second = made[0].versions.order_by("number")
    challenge = create_challenge(
        author_user,
        game="duel",
        candidate=second.pk,
        baseline=first.pk,
        batch_pairs=bots,
    )
    for match in Match.objects.filter(challenge=challenge).order_by("id")[: bots * 2 - 1]:
        record_result(match.pk, None, outcome([1, 2]))
    ladder_service.schedule_game("duel", bots * 2, random.Random(bots))
    # Each game's ladder row is made on its first read (a get_or_create): made here, so the
    # counts below are those of every later read.
    for name in engine.game_names():
        ladder_service.ladder_for(name)
    frames = recorded_match("moon_adventure", players=2 if bots == 3 else 4, seed=bots)
    return {
        "bot": made[0].pk,
        "challenge": challenge.pk,
        "frames": frames.pk,
        "tournament": tournament.pk,
    }


ENDPOINTS = [
    # (path, queries): {bot}, {challenge}, {frames}, {tournament} are filled in.
    # the bot (its versions and ratings prefetched, as for its detail), Elo changes, skills
    ("/api/bots/{bot}/ratings/", 5),
    ("/api/bots/{bot}/ratings/?game=duel", 5),
    ("/api/bots/?owner=ada", 5),
    ("/api/challenges/", 3),  # count, page, opponents
    ("/api/challenges/{challenge}/", 2),  # the challenge, its opponents
    # Per registered game (bounded by the games the code registers, not by the data): its
    # ladder row, match counts and entries, and for a game with bots on its ladder their
    # finished games and versions, and the validation of its bots' newest versions (a bot
    # whose newest upload is not ready waits). 27 for the six test games, where only duel
    # has bots.
    ("/api/ladders/", 27),
    ("/api/ladders/duel/", 7),
    ("/api/matches/{frames}/frames/", 2),  # the match's header, its record (not cached yet)
    ("/api/matches/?game=duel", 2),
    ("/api/matches/?status=finished", 2),
    ("/api/matches/?ladder=true", 2),
    ("/api/matches/?tournament={tournament}&bot={bot}", 2),
    ("/api/tournaments/?status=finished&game=duel", 4),
    ("/api/leaderboards/duel/?order=skill", 3),
]


@pytest.mark.parametrize(("path", "expected"), ENDPOINTS)
def test_an_endpoint_makes_the_same_queries_for_a_small_and_a_large_arena(
    path, expected, anonymous, make_bot, author_user, organiser_user
):
    assert_same_queries_small_and_large(
        anonymous, path, expected, lambda bots: build(make_bot, author_user, organiser_user, bots)
    )
