"""One task per set: each match still claimed, recorded and rated on its own.

Bots run as plain processes here (the task's logic); tests/workers/sandbox/test_sets.py
plays sets in the real sandbox.
"""

from __future__ import annotations

import pytest

from arena.models import Match, MatchAttempt, MatchSeat, MatchSet, Rating, RatingChange
from tests.workers.test_tasks import BrokenLauncher, make_bot, reference
from workers import tasks

LATE_CRASH = (
    b"import os\n"
    b"ended = []\n"
    b"class Bot:\n"
    b"    def act(self, o, legal):\n"
    b"        if len(ended) >= 2:\n"
    b"            os._exit(9)\n"
    b"        return legal[0]\n"
    b"    def end(self, result):\n"
    b"        ended.append(result)\n"
)


@pytest.fixture(autouse=True)
def plain_processes(settings):
    settings.ARENA_BOT_ISOLATION = "process"


@pytest.fixture
def owner(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("sami")


def make_match(bots, seed: int = 11, **fields) -> Match:
    match = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@1", players=len(bots), seed=seed, **fields
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
        for seat, bot in enumerate(bots)
    )
    return match


def rotated(bots, count: int, seed: int = 11) -> list[Match]:
    """`count` matches between two bots, seats alternating, two per seed (a duplicate set)."""
    return [
        make_match(bots if i % 2 == 0 else bots[::-1], seed=seed + i // 2) for i in range(count)
    ]


def seat_view(match: Match) -> list[tuple]:
    seats = MatchSeat.objects.filter(match=match).order_by("seat")
    return [
        (s.bot.name, s.rank, s.score, s.forfeit_reason, s.rating_before, s.rating_after)
        for s in seats
    ]


def test_a_set_is_played_in_one_task_and_each_match_recorded_and_rated(owner):
    bots = [
        make_bot(owner, "heur", reference("moonrollers_heuristic.py")),
        make_bot(owner, "rand", reference("random_bot.py")),
    ]
    matches = rotated(bots, 4)
    ids = [m.pk for m in matches]
    assert tasks.execute_set(ids) == ["recorded"] * 4
    for match in Match.objects.filter(pk__in=ids):
        assert match.status == Match.Status.FINISHED and match.rated and match.attempts == 1
        assert RatingChange.objects.filter(match=match).count() == 2
    assert [r.games for r in Rating.objects.filter(bot__in=bots)] == [4, 4]
    # Each match's claim left its attempt, "recorded" (logged for the set at once).
    attempts = MatchAttempt.objects.filter(match__in=ids)
    assert sorted(attempts.values_list("match_id", "outcome")) == [(i, "recorded") for i in ids]
    assert all(a.claim_token and a.started_at and a.ended_at for a in attempts)
    # A second delivery of the same set finds every match taken.
    assert tasks.execute_set(ids) == ["skipped"] * 4
    assert MatchAttempt.objects.filter(match__in=ids).count() == 4


def test_a_match_named_twice_in_a_set_is_played_once(owner):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match = rotated(bots, 1)[0]
    assert tasks.execute_set([match.pk, match.pk]) == ["recorded", "recorded"]
    assert Rating.objects.get(bot=bots[0]).games == 1


def test_a_sets_results_ratings_and_replays_equal_its_matches_played_one_by_one(owner):
    together = [
        make_bot(owner, n, reference(f))
        for n, f in (("h1", "moonrollers_heuristic.py"), ("r1", "random_bot.py"))
    ]
    alone = [
        make_bot(owner, n, reference(f))
        for n, f in (("h2", "moonrollers_heuristic.py"), ("r2", "random_bot.py"))
    ]
    set_matches = rotated(together, 6)
    single_matches = rotated(alone, 6)
    tasks.execute_set([m.pk for m in set_matches])
    for match in single_matches:
        assert tasks.execute_match(match.pk) == "recorded"
    rename = {"h1": "h", "r1": "r", "h2": "h", "r2": "r"}
    for a, b in zip(set_matches, single_matches, strict=True):
        a.refresh_from_db()
        b.refresh_from_db()
        assert a.record == b.record and a.result == b.result and a.decisions == b.decisions
        view_a = [(rename[row[0]], *row[1:]) for row in seat_view(a)]
        view_b = [(rename[row[0]], *row[1:]) for row in seat_view(b)]
        assert view_a == view_b
    ratings = {rename[r.bot.name] + r.bot.name[1]: r for r in Rating.objects.all()}
    for name in ("h", "r"):
        one, two = ratings[name + "1"], ratings[name + "2"]
        assert (one.rating, one.games, one.wins, one.losses) == (
            two.rating,
            two.games,
            two.wins,
            two.losses,
        )


def test_a_crash_mid_set_forfeits_only_the_matches_it_was_still_playing(owner):
    bots = [
        make_bot(owner, "late", LATE_CRASH),
        make_bot(owner, "rand", reference("random_bot.py")),
    ]
    matches = rotated(bots, 6)
    assert tasks.execute_set([m.pk for m in matches]) == ["recorded"] * 6
    reasons = []
    for match in matches:
        late = MatchSeat.objects.get(match=match, bot=bots[0])
        rand = MatchSeat.objects.get(match=match, bot=bots[1])
        assert rand.forfeit_reason == ""
        reasons.append(late.forfeit_reason)
    standing = [r for r in reasons if not r]
    assert len(standing) >= 2, reasons
    assert all("exited with status 9" in r for r in reasons if r) and len(standing) < 6


def test_an_unplayable_match_fails_alone_and_the_rest_of_the_set_plays(owner):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    good = rotated(bots, 2)
    bad = make_match(bots, limits={"memory_mb": 1})
    assert tasks.execute_set([good[0].pk, bad.pk, good[1].pk]) == ["recorded", "failed", "recorded"]
    bad.refresh_from_db()
    assert bad.status == Match.Status.FAILED and "memory_mb" in bad.error


def test_an_infrastructure_fault_gives_every_claim_of_the_set_back(owner, monkeypatch):
    monkeypatch.setitem(tasks._launchers, "process", BrokenLauncher())
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    matches = rotated(bots, 3)
    with pytest.raises(tasks.InfrastructureFault):
        tasks.execute_set([m.pk for m in matches])
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.QUEUED and match.claim_token is None


def test_enqueue_set_sends_one_task_with_the_sets_unfinished_matches(owner, monkeypatch):
    bots = [make_bot(owner, n, reference("random_bot.py")) for n in ("a", "b")]
    match_set = MatchSet.objects.create(
        game="moonrollers",
        purpose=Match.Purpose.LADDER,
        seed=3,
        players=2,
        versions=[b.latest_version().pk for b in bots],
    )
    matches = rotated(bots, 2)
    for index, match in enumerate(matches):
        Match.objects.filter(pk=match.pk).update(match_set=match_set, set_index=index)
    sent = []
    monkeypatch.setattr(
        tasks.run_set, "apply_async", lambda args, queue: sent.append((args, queue))
    )
    tasks.enqueue_set(match_set.pk)
    assert sent == [(([m.pk for m in matches],), tasks.routing.queue_for_purpose("ladder"))]


def test_enqueue_matches_splits_long_groups_into_sets_of_the_configured_size(monkeypatch, settings):
    settings.ARENA_SET_MAX_MATCHES = 4
    sent = []
    monkeypatch.setattr(tasks.run_set, "apply_async", lambda args, queue: sent.append(args[0]))
    monkeypatch.setattr(tasks.run_match, "apply_async", lambda args, queue: sent.append(args[0]))
    tasks.enqueue_matches(list(range(1, 10)), "tournament")
    assert sent == [[1, 2, 3, 4], [5, 6, 7, 8], 9]
