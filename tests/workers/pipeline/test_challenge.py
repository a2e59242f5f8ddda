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


def test_a_clearly_stronger_version_is_accepted_through_real_workers(start_worker):
    # The worker takes every queue, as the default command does; challenge games travel on
    # this test's challenge queue (workers/queue/routing.py).
    worker = start_worker(concurrency=2, isolation="sandbox")
    ada = User.objects.create_user("ada", password="moon-rover-42")
    bot = Bot.objects.create(owner=ada, name="ada-bot", game="moonrollers")
    old = bot.add_version((REFERENCE / "random_bot.py").read_bytes(), "bot.py")
    new = bot.add_version((REFERENCE / "moonrollers_heuristic.py").read_bytes(), "bot.py")
    client = APIClient()
    client.force_authenticate(ada)
    reply = client.post(
        "/api/challenges/",
        {
            "game": "moonrollers",
            "candidate": new.pk,
            "baseline": old.pk,
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
