"""A challenge through the whole pipeline: a clearly stronger version is accepted.

Real PostgreSQL, Redis and `celery -A workers worker` processes running every bot in the
bubblewrap sandbox; the challenge is asked for over the API. Version 1 of the bot is the
random reference bot, version 2 the Moonrollers heuristic (995 wins in 1,000 against
random, docs/benchmarks.md). Pairs of games share a seed with the versions swapping seats; two
batches are in flight (each a set task, so both of the worker's processes can play one); the
worker that records a batch's last game updates the SPRT and queues the next batch itself.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Bot, Challenge, Match, Rating

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def random_then_heuristic(game: str) -> tuple[Bot, APIClient, int, int]:
    """ada's bot in `game`: version 1 the random reference bot, version 2 the game's
    heuristic; with an API client logged in as ada, and the two version ids."""
    ada = User.objects.create_user("ada", password="moon-rover-42")
    bot = Bot.objects.create(owner=ada, name=f"ada-{game}", game=game)
    old = bot.add_version((REFERENCE / "random_bot.py").read_bytes(), "bot.py")
    new = bot.add_version((REFERENCE / f"{game}_heuristic.py").read_bytes(), "bot.py")
    client = APIClient()
    client.force_authenticate(ada)
    return bot, client, old.pk, new.pk


def test_a_clearly_stronger_version_is_accepted_through_real_workers(start_worker):
    # The worker takes every queue, as the default command does; challenge games travel on
    # this test's challenge queue (workers/queue/routing.py).
    worker = start_worker(concurrency=2, isolation="sandbox")
    bot, client, old, new = random_then_heuristic("moonrollers")
    reply = client.post(
        "/api/challenges/",
        {
            "game": "moonrollers",
            "candidate": new,
            "baseline": old,
            "elo0": 0,
            "elo1": 200,
            "batch_pairs": 2,
            "max_games": 80,
        },
        format="json",
    )
    assert reply.status_code == 201, reply.content
    challenge_id = reply.json()["id"]

    deadline = time.monotonic() + 180
    while True:
        shown = client.get(f"/api/challenges/{challenge_id}/").json()
        if shown["status"] != "running":
            break
        assert time.monotonic() < deadline, f"challenge still running: {shown}\n{worker.text()}"
        time.sleep(0.2)
    assert shown["status"] == "accepted", shown
    assert shown["llr"] >= shown["llr_upper"] == pytest.approx(2.9444)
    assert shown["games"] >= 8 and shown["games"] % 2 == 0
    assert shown["pair_counts"]["1"] >= shown["pairs"] - 1
    assert shown["batches"] >= 2 and shown["batches_in_flight"] == 2
    matches = Match.objects.filter(challenge_id=challenge_id)
    # Accepting at elo1 200 takes 8 pairs at least: the worker queued batches itself, and
    # never more than two beyond those counted (a batch is 2 pairs, 4 games).
    assert 16 <= matches.count() <= 4 * (shown["batches"] + 2)
    assert not matches.filter(rated=True).exists()
    assert set(matches.values_list("purpose", flat=True)) == {Match.Purpose.CHALLENGE}
    assert not Rating.objects.filter(bot=bot, games__gt=0).exists()
    assert Challenge.objects.get(pk=challenge_id).finished_at is not None


def test_a_team_that_succeeds_more_often_is_accepted_through_real_workers(start_worker):
    # Moon Adventure at two players: heuristic teams succeed about half the time, random
    # teams never (docs/benchmarks.md). Each pair is a table of each team on one seed.
    worker = start_worker(concurrency=2, isolation="sandbox")
    _, client, old, new = random_then_heuristic("moon_adventure")
    reply = client.post(
        "/api/challenges/",
        {"game": "moon_adventure", "candidate": new, "baseline": old, "players": 2,
         "elo0": 0, "elo1": 150, "batch_pairs": 4, "max_games": 200},
        format="json",
    )  # fmt: skip
    assert reply.status_code == 201, reply.content
    challenge_id = reply.json()["id"]
    deadline = time.monotonic() + 240
    while (shown := client.get(f"/api/challenges/{challenge_id}/").json())["status"] == "running":
        assert time.monotonic() < deadline, f"challenge still running: {shown}\n{worker.text()}"
        time.sleep(0.2)
    assert shown["status"] == "accepted", shown
    # A random team never succeeds: no pair goes to the baseline.
    assert shown["pair_counts"]["0"] == 0 and shown["pair_counts"]["1"] >= 1
    assert shown["pair_counts"]["0.25"] == shown["pair_counts"]["0.75"] == 0
    tables = Match.objects.filter(challenge_id=challenge_id, status=Match.Status.FINISHED)
    for match in tables.order_by("id")[:4]:
        assert len({seat.bot_version_id for seat in match.seats.all()}) == 1  # one team
        assert match.result["outcome"] in ("success", "failure")
