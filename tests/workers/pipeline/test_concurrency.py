"""Many matches finishing at once on several worker processes lose no rating update.

The ratings the workers commit must equal the ratings obtained by applying the
same results one by one, in the order they were committed (the order of their
rating-history rows), and a match delivered twice must be played and rated once.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from arena.models import Bot, Match, MatchSeat, Rating, RatingChange
from arena.ratings import INITIAL_RATING, rate_ranked
from arena.services.results import record_result
from tests.workers.pipeline.conftest import wait_for_matches
from workers import reaper, tasks
from workers.play.referee import MatchOutcome

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def make_bots(count: int) -> list[Bot]:
    owner = User.objects.create_user("pat")
    bots = []
    for index in range(count):
        name = "first_bot.py" if index % 2 else "random_bot.py"
        bot = Bot.objects.create(owner=owner, name=f"bot{index}", game="moonrollers")
        bot.add_version((REFERENCE / name).read_bytes(), "bot.py")
        bots.append(bot)
    return bots


def make_match(bots: list[Bot], seed: int) -> Match:
    match = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@1", players=len(bots), seed=seed
    )
    for seat, bot in enumerate(bots):
        MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
    return match


def replay_ratings(matches: list[Match]) -> dict[int, float]:
    """Apply each match's ranks one by one, in commit order, from fresh ratings."""
    first_change = {
        match_id: change_id
        for change_id, match_id in RatingChange.objects.order_by("-id").values_list(
            "id", "match_id"
        )
    }
    ratings: dict[int, float] = {}
    for match in sorted(matches, key=lambda m: first_change[m.pk]):
        seats = list(match.seats.order_by("seat"))
        before = [ratings.get(s.bot_id, INITIAL_RATING) for s in seats]
        after = rate_ranked(before, [s.rank for s in seats], [s.bot_id for s in seats])
        for seat, value in zip(seats, after, strict=True):
            ratings[seat.bot_id] = value
    return ratings


def test_parallel_workers_give_the_ratings_of_one_by_one_application(start_worker):
    bots = make_bots(4)
    matches = []
    seed = itertools.count(1)
    for a, b in itertools.combinations(bots, 2):
        matches.append(make_match([a, b], next(seed)))
        matches.append(make_match([b, a], next(seed)))
    ids = [m.pk for m in matches]
    # Several worker processes, each with several pool processes, all on one queue.
    workers = [start_worker(concurrency=2, wait=False) for _ in range(2)]
    for worker in workers:
        worker.wait_ready()
    started = time.monotonic()
    for match_id in ids:
        tasks.enqueue_match(match_id)
        tasks.enqueue_match(match_id)  # every match is delivered twice
    done = wait_for_matches(ids, workers)
    print(f"{len(ids)} matches in {time.monotonic() - started:.2f}s")

    assert all(m.status == Match.Status.FINISHED for m in done)
    assert all(m.attempts == 1 for m in done), "a duplicate delivery played a match again"
    for match in done:
        assert RatingChange.objects.filter(match=match).count() == 2
    expected = replay_ratings(done)
    stored = {r.bot_id: r for r in Rating.objects.filter(game="moonrollers")}
    assert set(stored) == {b.pk for b in bots}
    for bot_id, value in expected.items():
        assert stored[bot_id].rating == pytest.approx(value, abs=1e-6)
        assert stored[bot_id].games == 6
    # Each bot's history is one unbroken chain: every change starts where the last ended.
    for rating in stored.values():
        chain = list(rating.changes.order_by("id"))
        assert chain[0].before == INITIAL_RATING
        for earlier, later in itertools.pairwise(chain):
            assert later.before == pytest.approx(earlier.after, abs=1e-9)
        assert chain[-1].after == pytest.approx(rating.rating, abs=1e-9)


def test_a_match_requeued_by_the_reaper_is_rated_once(start_worker):
    a, b = make_bots(2)
    match = make_match([a, b], seed=5)
    # A worker claims the match and vanishes; the reaper requeues it for a live worker.
    assert match.try_claim(deadline_seconds=1)
    lost_token = match.claim_token
    Match.objects.filter(pk=match.pk).update(deadline_at=match.claimed_at)
    worker = start_worker(concurrency=1)
    assert reaper.reap_stuck_matches()["requeued"] == 1
    (done,) = wait_for_matches([match.pk], [worker])
    assert done.status == Match.Status.FINISHED and done.attempts == 2
    ratings = {r.bot_id: r.rating for r in Rating.objects.all()}

    # The lost worker comes back with its own result of the same match: ignored.
    late = MatchOutcome(
        record={}, ranks=[2, 1], scores=[0, 9], forfeits={}, stderr=["", ""],
        decisions=1, seconds=1.0, result={},
    )  # fmt: skip
    assert not record_result(match.pk, lost_token, late).recorded
    assert {r.bot_id: r.rating for r in Rating.objects.all()} == ratings
    assert RatingChange.objects.filter(match=match).count() == 2
