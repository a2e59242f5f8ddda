"""The admin: leaderboard, bots with versions, tournaments with progress and "start now"."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.models import Match, Tournament
from arena.services.tournaments import start_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_logged_in(client):
    staff = User.objects.create_superuser("root", password="root-pass-1")
    client.force_login(staff)
    return client


@pytest.fixture
def tournament(make_bot, author_user):
    t = Tournament.objects.create(name="Cup", game="duel", players_per_match=2)
    t.bots.set([make_bot(author_user, "a"), make_bot(author_user, "b")])
    return t


def test_every_admin_page_renders(admin_client_logged_in, tournament, run_on_commit):
    run_on_commit(start_tournament, tournament)
    match = Match.objects.first()
    for url in [
        "/admin/",
        "/admin/arena/leaderboard/?game=duel",
        "/admin/arena/bot/",
        f"/admin/arena/bot/{tournament.bots.first().pk}/change/",
        "/admin/arena/tournament/",
        f"/admin/arena/tournament/{tournament.pk}/change/",
        "/admin/arena/match/",
        f"/admin/arena/match/{match.pk}/change/",
        "/admin/arena/rating/",
        "/admin/arena/gamerating/",
        "/admin/arena/ratingchange/",
        "/admin/arena/skillfit/",
        "/admin/arena/skillentry/",
        "/admin/arena/challenge/",
    ]:
        assert admin_client_logged_in.get(url).status_code == 200, url


def test_the_leaderboard_lists_ratings_in_order(admin_client_logged_in, tournament):
    from arena.models import Rating

    Rating.objects.filter(bot__name="b").update(rating=1600)
    page = admin_client_logged_in.get("/admin/arena/leaderboard/?game=duel").content.decode()
    assert page.index(">b (duel)<") < page.index(">a (duel)<")


def test_start_now_action_starts_the_tournament(
    admin_client_logged_in, tournament, run_on_commit, enqueued
):
    reply = run_on_commit(
        admin_client_logged_in.post,
        "/admin/arena/tournament/",
        {"action": "start_now", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert reply.status_code == 200 and "started 1 matches" in reply.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert len(enqueued) == 1
    listing = admin_client_logged_in.get("/admin/arena/tournament/").content.decode()
    assert "0 / 1" in listing


def test_start_now_twice_shows_an_error_not_a_crash(
    admin_client_logged_in, tournament, run_on_commit
):
    run_on_commit(start_tournament, tournament)
    reply = admin_client_logged_in.post(
        "/admin/arena/tournament/",
        {"action": "start_now", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert reply.status_code == 200 and "not scheduled" in reply.content.decode()


def test_finished_matches_link_to_their_replay(admin_client_logged_in, tournament, run_on_commit):
    (match_id,) = run_on_commit(start_tournament, tournament)
    Match.objects.filter(pk=match_id).update(status=Match.Status.FINISHED, record={"actions": []})
    page = admin_client_logged_in.get("/admin/arena/match/").content.decode()
    assert f"/api/matches/{match_id}/replay/" in page


def test_authors_cannot_use_the_admin(client, author_user):
    client.force_login(author_user)
    assert client.get("/admin/arena/tournament/").status_code == 302


def test_the_admin_form_refuses_a_tournament_it_could_not_play(
    admin_client_logged_in, make_bot, author_user
):
    bot = make_bot(author_user, "a")
    form = {
        "name": "Bad",
        "game": "duel",
        "format": "round_robin",
        "players_per_match": 9,
        "games_per_pairing": 1,
        "options": "{}",
        "limits": "{}",
        "bots": [bot.pk],
    }
    reply = admin_client_logged_in.post("/admin/arena/tournament/add/", form)
    assert reply.status_code == 200 and "2-4 players" in reply.content.decode()
    reply = admin_client_logged_in.post("/admin/arena/tournament/add/", {**form, "game": "chess"})
    assert reply.status_code == 200 and "unknown game" in reply.content.decode()
    assert not Tournament.objects.exists()
    reply = admin_client_logged_in.post(
        "/admin/arena/tournament/add/", {**form, "players_per_match": 2}
    )
    assert reply.status_code == 302
    assert Tournament.objects.get().created_by.username == "root"


def test_the_admin_shows_rounds_and_bracket_and_controls_a_knockout(
    admin_client_logged_in, make_bot, author_user, run_on_commit
):
    bots = [make_bot(author_user, f"ko{i}") for i in range(3)]
    knockout = Tournament.objects.create(
        name="ko", game="duel", players_per_match=2, format=Tournament.Format.KNOCKOUT
    )
    knockout.bots.set(bots)
    run_on_commit(start_tournament, knockout)
    page = admin_client_logged_in.get(f"/admin/arena/tournament/{knockout.pk}/change/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "W1-1" in text and "(1) ko" in text and "bye" in text  # the bracket
    assert "playing" in text  # round 1's table
    for action, status in (("pause", "paused"), ("resume", "running"), ("cancel", "cancelled")):
        reply = run_on_commit(
            admin_client_logged_in.post,
            "/admin/arena/tournament/",
            {"action": action, "_selected_action": [knockout.pk]},
        )
        assert reply.status_code == 302
        assert Tournament.objects.get(pk=knockout.pk).status == status
    reply = admin_client_logged_in.post(
        "/admin/arena/tournament/",
        {"action": "pause", "_selected_action": [knockout.pk]},
        follow=True,
    )
    assert "only a running one pauses" in reply.content.decode()
