"""The stamps live pages poll: they move when a result is recorded, say when a tournament
has ended, are never cached, and answer a bad address with a JSON 404 (never a 500)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from arena.models import Match
from arena.services.tournaments import create_tournament
from tests.arena.web.site_data import _bot, play_queued

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(db):
    owner = User.objects.create_user("pat")
    organiser = User.objects.create_user("olga-org")
    organiser.groups.add(Group.objects.get_or_create(name="organisers")[0])
    bots = [_bot(owner, "moonrollers", name, name) for name in ("first", "random", "heuristic")]
    return create_tournament(
        organiser, name="Live cup", game="moonrollers", bots=bots, players_per_match=2
    )


def stamp(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]
    return response.json()


def test_stamps_move_with_results_and_tell_when_a_tournament_ends(client, running):
    board_url, cup_url = "/games/moonrollers/live/", f"/tournaments/{running.pk}/live/"
    board, cup = stamp(client, board_url), stamp(client, cup_url)
    assert board["live"] is True and cup["live"] is True
    # Asking again changes nothing.
    assert stamp(client, board_url) == board and stamp(client, cup_url) == cup

    first = Match.objects.filter(tournament=running, status=Match.Status.QUEUED).first()
    from workers.tasks import execute_match

    assert execute_match(first.pk) == "recorded"
    moved_board, moved_cup = stamp(client, board_url), stamp(client, cup_url)
    assert moved_board["stamp"] != board["stamp"]
    assert moved_cup["stamp"] != cup["stamp"] and moved_cup["live"] is True

    play_queued()  # the rest of the round robin: the tournament finishes
    running.refresh_from_db()
    assert running.status == "finished"
    ended = stamp(client, cup_url)
    assert ended["live"] is False and ended["stamp"] != moved_cup["stamp"]


def test_live_pages_carry_their_stamp_and_ended_ones_do_not(client, running):
    page = client.get(f"/tournaments/{running.pk}/").content.decode()
    assert f'data-live-stamp="{stamp(client, f"/tournaments/{running.pk}/live/")["stamp"]}"' in page
    assert "data-live-region" in page and "arena/live.js" in page
    board = client.get("/games/moonrollers/").content.decode()
    assert f'data-live-stamp="{stamp(client, "/games/moonrollers/live/")["stamp"]}"' in board
    play_queued()
    assert "arena/live.js" not in client.get(f"/tournaments/{running.pk}/").content.decode()


@pytest.mark.parametrize(
    "url", ["/games/no_such_game/live/", "/tournaments/999999/live/", "/tournaments/x/live/"]
)
def test_stamps_of_what_does_not_exist_are_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    if not url.endswith("/x/live/"):  # that one matches no route: Django's own 404 page
        assert response.json()["detail"].startswith("no ")


def test_stamps_only_answer_get(client, running):
    assert client.post("/games/moonrollers/live/").status_code == 405
    assert client.post(f"/tournaments/{running.pk}/live/").status_code == 405
