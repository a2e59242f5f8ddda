"""End to end: upload over the API, schedule a round robin, a real worker plays it, ratings move.

Real PostgreSQL (the test database), real Redis, a real `celery -A workers worker`
subprocess running every bot in the bubblewrap sandbox, and the API through DRF's
test client. Nothing is mocked.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import Tournament
from tests.workers.pipeline.conftest import wait_for_validation

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def sign_up(username: str, password: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/users/", {"username": username, "password": password})
    assert response.status_code == 201, response.content
    response = client.post("/api/token/", {"username": username, "password": password})
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def upload(client: APIClient, name: str, reference: str) -> int:
    source = (REFERENCE / reference).read_bytes()
    response = client.post(
        "/api/bots/",
        {"name": name, "game": "moonrollers", "file": SimpleUploadedFile("bot.py", source)},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    # The smoke match runs on the worker: the version plays once it is ready.
    assert response.json()["latest_version"]["validation"] == "pending"
    bot_id = response.json()["id"]
    assert wait_for_validation(bot_id).validation == "ready"
    return bot_id


def test_uploaded_bots_play_a_round_robin_and_reach_the_leaderboard(start_worker):
    worker = start_worker(concurrency=2, isolation="sandbox")
    ada = sign_up("ada", "moon-rover-42")
    bob = sign_up("bob", "lunar-base-77")
    first = upload(ada, "ada-first", "first_bot.py")
    rand = upload(bob, "bob-random", "random_bot.py")

    User.objects.create_superuser("olga", password="organiser-pass-9")
    organiser = APIClient()
    token = organiser.post("/api/token/", {"username": "olga", "password": "organiser-pass-9"})
    organiser.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    response = organiser.post(
        "/api/tournaments/",
        {
            "name": "Moon Cup",
            "game": "moonrollers",
            "format": "round_robin",
            "bots": [first, rand],
            "players_per_match": 2,
            "games_per_pairing": 2,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    tournament = response.json()
    assert tournament["matches_total"] == 2

    anonymous = APIClient()
    deadline = time.monotonic() + 120
    stored_finished_at = None
    while True:
        # Anonymous reads are cached (arena/api/caching.py): this one may be stale.
        shown = anonymous.get(f"/api/tournaments/{tournament['id']}/").json()
        if shown["status"] == "finished":
            break
        assert time.monotonic() < deadline, f"tournament not finished: {shown}\n{worker.text()}"
        if stored_finished_at is None and _stored_as_finished(tournament["id"]):
            stored_finished_at = time.monotonic()
        if stored_finished_at is not None:
            # The worker's results make the cached answer stale at once; the cache's own
            # timeout (API_CACHE_TIMEOUT, 60 s) is not what ends this wait.
            late = time.monotonic() - stored_finished_at
            assert late < 10, f"the API still shows {shown['status']} {late:.0f} s after the end"
        time.sleep(0.2)
    assert shown["matches_done"] == 2

    matches = anonymous.get("/api/matches/", {"tournament": tournament["id"]}).json()["results"]
    assert len(matches) == 2 and all(m["status"] == "finished" for m in matches)
    assert all(not seat["forfeit_reason"] for m in matches for seat in m["seats"]), matches

    board = anonymous.get("/api/leaderboards/moonrollers/").json()
    entries = {entry["bot_id"]: entry for entry in board["results"]}
    assert set(entries) == {first, rand}
    assert all(entry["games"] == 2 for entry in entries.values())
    assert all(entry["rating"] != 1500 for entry in entries.values())
    assert [e["rank"] for e in board["results"]] == [1, 2]
    assert entries[first]["owner"] == "ada" and entries[rand]["owner"] == "bob"


def _stored_as_finished(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.FINISHED).exists()
