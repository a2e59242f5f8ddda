"""Tournaments: organisers create and start them; everyone follows progress and standings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import Match, Tournament
from arena.services.results import record_result
from tests.arena.services.test_results import outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel_bots(make_bot, author_user, other_user):
    return [
        make_bot(author_user, "a1").pk,
        make_bot(author_user, "a2").pk,
        make_bot(other_user, "b1").pk,
    ]


def body(bot_ids, **extra):
    data = {"name": "Spring cup", "game": "duel", "bots": bot_ids, "players_per_match": 2}
    data.update(extra)
    return data


def post(client, data, run_on_commit):
    return run_on_commit(client.post, "/api/tournaments/", data, format="json")


def test_an_organiser_creates_a_round_robin_that_starts_now(
    organiser, duel_bots, run_on_commit, enqueued
):
    reply = post(organiser, body(duel_bots, games_per_pairing=2), run_on_commit)
    assert reply.status_code == 201, reply.content
    data = reply.json()
    assert data["status"] == "running"
    assert data["matches_total"] == 3 * 2 and data["matches_done"] == 0
    assert data["created_by"] == "olga" and sorted(data["bots"]) == sorted(duel_bots)
    assert len(data["standings"]) == 3 and all(r["matches"] == 0 for r in data["standings"])
    assert sorted(enqueued) == sorted(Match.objects.values_list("id", flat=True))
    assert data["options"] == {"rounds": 1}


def test_an_author_cannot_create_a_tournament(author, duel_bots, run_on_commit):
    assert post(author, body(duel_bots), run_on_commit).status_code == 403
    assert not Tournament.objects.exists()


def test_anonymous_cannot_create_a_tournament(anonymous, duel_bots, run_on_commit):
    assert post(anonymous, body(duel_bots), run_on_commit).status_code == 401


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"game": "chess"}, "game", "unknown game"),
        ({"players_per_match": 5}, "players_per_match", "2-4 players"),
        ({"players_per_match": 1}, "players_per_match", "2-4 players"),
        ({"format": "gauntlet"}, "format", "unknown format"),
        ({"games_per_pairing": 0}, "games_per_pairing", "games_per_pairing"),
        ({"options": {"colour": "red"}}, "options", "no option"),
        ({"options": {"rounds": 9}}, "options", "must be one of"),
        ({"limits": {"move_seconds": -1}}, "limits", "positive number"),
        ({"limits": [1, 2]}, "limits", "object"),
        ({"bots": [999999, 1]}, "bots", "no bot with id"),
        ({"bots": "all"}, "bots", ""),
        ({"start_at": "tomorrow"}, "start_at", ""),
        ({"name": ""}, "name", ""),
    ],
)
def test_bad_tournaments_get_a_clear_400(organiser, duel_bots, run_on_commit, change, field, words):
    reply = post(organiser, body(duel_bots, **change), run_on_commit)
    assert reply.status_code == 400, reply.content
    assert field in reply.json() and words in str(reply.json())
    assert not Tournament.objects.exists()


def test_limits_a_worker_would_refuse_are_a_400(organiser, duel_bots, run_on_commit):
    # arena.test_settings keeps the workers' own check (workers.sandbox.limits) in place.
    reply = post(organiser, body(duel_bots, limits={"move_seconds": 999}), run_on_commit)
    assert reply.status_code == 400 and "move_seconds" in reply.json()["detail"]
    reply = post(organiser, body(duel_bots, limits={"colour": 1}), run_on_commit)
    assert reply.status_code == 400 and "unknown limit" in reply.json()["detail"]
    reply = post(organiser, body(duel_bots, limits={"move_seconds": 2}), run_on_commit)
    assert reply.status_code == 201 and reply.json()["limits"] == {"move_seconds": 2}


def test_too_few_bots_is_a_400(organiser, duel_bots, run_on_commit):
    reply = post(organiser, body(duel_bots, players_per_match=4), run_on_commit)
    assert reply.status_code == 400 and "needs at least 4 bots" in reply.json()["detail"]
    reply = post(organiser, body(duel_bots[:1]), run_on_commit)
    assert reply.status_code == 400 and "at least 2 bots" in reply.json()["detail"]


def test_bots_of_another_game_or_deactivated_are_refused(
    organiser, duel_bots, make_bot, author_user, run_on_commit
):
    crew_bot = make_bot(author_user, "c1", game="crew")
    reply = post(organiser, body(duel_bots + [crew_bot.pk]), run_on_commit)
    assert reply.status_code == 400 and "plays crew" in reply.json()["detail"]
    crew_bot.deactivate()
    reply = post(
        organiser,
        body([crew_bot.pk, make_bot(author_user, "c2", game="crew").pk], game="crew"),
        run_on_commit,
    )
    assert reply.status_code == 400 and "deactivated" in reply.json()["detail"]


def test_a_tournament_larger_than_the_limit_is_refused(
    organiser, duel_bots, run_on_commit, settings
):
    settings.ARENA_MAX_TOURNAMENT_MATCHES = 5
    reply = post(organiser, body(duel_bots, games_per_pairing=2), run_on_commit)
    assert reply.status_code == 400 and "limit is 5" in reply.json()["detail"]


def test_a_missing_queue_is_a_503_and_stores_nothing(organiser, duel_bots, run_on_commit, settings):
    settings.ARENA_ENQUEUE_MATCHES = "no.such.module.enqueue_matches"
    assert post(organiser, body(duel_bots), run_on_commit).status_code == 503
    assert not Tournament.objects.exists() and not Match.objects.exists()


def test_a_later_start_stays_scheduled_until_started(
    organiser, author, duel_bots, run_on_commit, enqueued
):
    later = (timezone.now() + timedelta(days=1)).isoformat()
    reply = post(organiser, body(duel_bots, start_at=later, games_per_pairing=3), run_on_commit)
    assert reply.status_code == 201
    data = reply.json()
    assert data["status"] == "scheduled" and data["matches_total"] == 9 and enqueued == []
    tid = data["id"]
    assert run_on_commit(author.post, f"/api/tournaments/{tid}/start/").status_code == 403
    started = run_on_commit(organiser.post, f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"
    assert len(enqueued) == 9
    again = run_on_commit(organiser.post, f"/api/tournaments/{tid}/start/")
    assert again.status_code == 409 and "running" in again.json()["detail"]


def test_anonymous_cannot_start_a_tournament(organiser, anonymous, duel_bots, run_on_commit):
    later = (timezone.now() + timedelta(days=1)).isoformat()
    tid = post(organiser, body(duel_bots, start_at=later), run_on_commit).json()["id"]
    assert anonymous.post(f"/api/tournaments/{tid}/start/").status_code == 401


def test_everyone_sees_progress_and_standings(organiser, anonymous, duel_bots, run_on_commit):
    tid = post(organiser, body(duel_bots), run_on_commit).json()["id"]
    first = Match.objects.filter(tournament_id=tid).order_by("id").first()
    seats = list(first.seats.order_by("seat"))
    # Through the result recorder: it keeps the standings.
    assert record_result(first.pk, None, outcome([1, 2])).recorded
    listed = anonymous.get("/api/tournaments/").json()
    assert listed["count"] == 1 and listed["results"][0]["matches_done"] == 1
    detail = anonymous.get(f"/api/tournaments/{tid}/").json()
    assert detail["matches_done"] == 1 and detail["matches_total"] == 3
    leader = detail["standings"][0]
    assert leader["bot_id"] == seats[0].bot_id and leader["points"] == 1.0 and leader["wins"] == 1
    assert leader["position"] == 1 and leader["owner"] in {"ada", "bob"}


def test_a_missing_tournament_is_a_404(anonymous, organiser):
    assert anonymous.get("/api/tournaments/424242/").status_code == 404
    assert organiser.post("/api/tournaments/424242/start/").status_code == 404


def test_tournaments_filter_by_status_and_game(organiser, anonymous, duel_bots, run_on_commit):
    post(organiser, body(duel_bots), run_on_commit)
    assert anonymous.get("/api/tournaments/?status=running&game=duel").json()["count"] == 1
    assert anonymous.get("/api/tournaments/?status=finished").json()["count"] == 0


def test_a_cooperative_round_robin_mixes_tables_and_ranks_by_success(
    organiser, anonymous, make_bot, author_user, run_on_commit
):
    crew = [make_bot(author_user, f"c{i}", game="crew").pk for i in range(4)]
    reply = post(organiser, body(crew, game="crew", players_per_match=3), run_on_commit)
    assert reply.status_code == 201 and reply.json()["matches_total"] == 4
    tid = reply.json()["id"]
    for match, (won, team_score) in zip(
        Match.objects.filter(tournament_id=tid).order_by("id"),
        [("success", 9), ("failure", 3), ("success", 7), ("failure", 2)],
        strict=True,
    ):
        result = {"outcome": won, "team_score": team_score}
        assert record_result(match.pk, None, outcome([1, 1, 1], result=result)).recorded
    standings = anonymous.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert all({"successes", "mean_team_score"} <= set(row) for row in standings)
    assert sum(row["successes"] for row in standings) == 2 * 3
    rates = [row["successes"] / row["matches"] for row in standings]
    assert rates == sorted(rates, reverse=True)
