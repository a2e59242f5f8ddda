"""Queues by purpose: one worker started with the default command drains them in priority order.

Matches of every purpose are put on Redis before the worker starts, the ladder's first;
one worker process with a prefetch of one then claims validation and tournament matches
first, challenges next, and ladder matches last (workers/queue/routing.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User

from arena.models import Bot, Match, MatchSeat
from tests.workers.pipeline.conftest import wait_for_matches
from workers import tasks

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def test_a_default_worker_takes_tournament_and_validation_before_ladder_matches(start_worker):
    owner = User.objects.create_user("quinn")
    bots = []
    for name in ("first_bot.py", "random_bot.py"):
        bot = Bot.objects.create(owner=owner, name=name, game="moonrollers")
        bot.add_version((REFERENCE / name).read_bytes(), "bot.py")
        bots.append(bot)
    sent = ["ladder"] * 3 + ["challenge"] * 2 + ["tournament"] * 2 + ["validation"] * 2
    matches = []
    for seed, purpose in enumerate(sent):
        match = Match.objects.create(
            game="moonrollers", rules_version="moonrollers@1", players=2, seed=seed, purpose=purpose
        )
        for seat, bot in enumerate(bots):
            MatchSeat.objects.create(
                match=match, seat=seat, bot=bot, bot_version=bot.latest_version()
            )
        tasks.enqueue_match(match.pk, purpose)
        matches.append(match)
    worker = start_worker(concurrency=1)
    done = wait_for_matches([m.pk for m in matches], [worker])
    played = [m.purpose for m in sorted(done, key=lambda m: m.claimed_at)]
    rank = {"validation": 0, "tournament": 0, "challenge": 1, "ladder": 2}
    assert [rank[p] for p in played] == sorted(rank[p] for p in played), played
