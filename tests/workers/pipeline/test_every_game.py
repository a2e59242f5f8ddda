"""Every registered game runs a tournament through the whole service.

The same path as Moonrollers' end-to-end test, for each game the engine knows:
bots uploaded over the API (through the sandboxed smoke test), a round robin
created by an organiser, a real worker running the sandboxed bots, and the
leaderboard showing the games. A new game is picked up with no edit here.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

import engine
from bots.reference import builtin_names, builtin_path
from tests.workers.pipeline.conftest import wait_for_validation

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [name for name in engine.game_names() if name != "moonrollers"]


def token_client(username: str, password: str) -> APIClient:
    client = APIClient()
    token = client.post("/api/token/", {"username": username, "password": password})
    assert token.status_code == 200, token.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    return client


def upload(client: APIClient, game: str, name: str, path: Path) -> int:
    response = client.post(
        "/api/bots/",
        {"name": name, "game": game, "file": SimpleUploadedFile("bot.py", path.read_bytes())},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    # The smoke match runs on the worker: the version plays once it is ready.
    assert response.json()["latest_version"]["validation"] == "pending"
    bot_id = response.json()["id"]
    assert wait_for_validation(bot_id).validation == "ready"
    return bot_id


@pytest.mark.parametrize("game", GAMES)
def test_a_tournament_of_every_game_runs_through_the_service(start_worker, game):
    spec = engine.get_game(game)
    start_worker(concurrency=2, isolation="sandbox")
    User.objects.create_user("author", password="author-pass-1")
    User.objects.create_superuser("organiser", password="organiser-pass-1")
    author = token_client("author", "author-pass-1")
    organiser = token_client("organiser", "organiser-pass-1")

    strong = "heuristic" if "heuristic" in builtin_names(game) else "first"
    bots = [
        upload(author, game, f"{game}-{name}", builtin_path(name, game))
        for name in (strong, "random")
    ]
    players = max(2, spec.min_players)
    response = organiser.post(
        "/api/tournaments/",
        {
            "name": f"{spec.title} cup",
            "game": game,
            "format": "round_robin",
            "bots": bots,
            "players_per_match": players,
            "games_per_pairing": 2,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    tournament = response.json()

    viewer = APIClient()
    deadline = time.monotonic() + 180
    while (shown := viewer.get(f"/api/tournaments/{tournament['id']}/").json())[
        "status"
    ] != "finished":
        assert time.monotonic() < deadline, shown
        time.sleep(0.2)
    assert shown["matches_done"] == shown["matches_total"] == 2

    matches = viewer.get("/api/matches/", {"tournament": tournament["id"]}).json()["results"]
    assert all(m["status"] == "finished" for m in matches)
    assert not [s["forfeit_reason"] for m in matches for s in m["seats"] if s["forfeit_reason"]]
    replay = viewer.get(f"/api/matches/{matches[0]['id']}/replay/").json()
    assert engine.replay(replay).is_terminal()

    board = viewer.get(f"/api/leaderboards/{game}/").json()
    entries = {entry["bot_id"]: entry for entry in board["results"]}
    assert set(entries) == set(bots)
    assert all(entry["games"] == 2 for entry in entries.values())
    if spec.cooperative:
        assert all("success_rate" in e and "mean_team_score" in e for e in entries.values())
