"""Round robins with `duplicate_seats: true`: each table's games are sets of seat rotations."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.models import Match, MatchSet
from tests.arena.conftest import ENQUEUED_PURPOSES

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_bots(make_bot, author_user, other_user):
    return [
        make_bot(author_user, "a1").pk,
        make_bot(author_user, "a2").pk,
        make_bot(other_user, "b1").pk,
        make_bot(other_user, "b2").pk,
    ]


def create(client, run_on_commit, bots, **extra):
    data = {"name": "Dup cup", "game": "duel", "bots": bots, "players_per_match": 3}
    data.update(extra)
    return run_on_commit(client.post, "/api/tournaments/", data, format="json")


def test_a_duplicate_round_robin_plays_each_table_as_sets_of_rotations(
    organiser, four_bots, run_on_commit, enqueued
):
    reply = create(organiser, run_on_commit, four_bots, games_per_pairing=6, duplicate_seats=True)
    assert reply.status_code == 201, reply.content
    assert reply.json()["duplicate_seats"] is True
    sets = list(MatchSet.objects.prefetch_related("matches__seats"))
    # 4 tables of 3 bots, 2 sets each, 3 rotations per set.
    assert len(sets) == 4 * 2 and Match.objects.count() == 4 * 2 * 3
    for match_set in sets:
        matches = sorted(match_set.matches.all(), key=lambda m: m.set_index)
        assert [m.set_index for m in matches] == [0, 1, 2]
        assert {m.seed for m in matches} == {match_set.seed}
        seatings = [[s.bot_version_id for s in m.seats.all()] for m in matches]
        assert seatings[0] == match_set.versions
        # Every version sits in every seat exactly once within the set.
        for seat in range(3):
            assert sorted(row[seat] for row in seatings) == sorted(match_set.versions)
    # Distinct sets of one table have distinct seeds.
    assert len({s.seed for s in sets}) == len(sets)
    assert sorted(enqueued) == sorted(Match.objects.values_list("id", flat=True))
    assert set(ENQUEUED_PURPOSES.values()) == {"tournament"}
    seat_counts = Counter(
        (seat.bot_id, seat.seat)
        for m in Match.objects.prefetch_related("seats")
        for seat in m.seats.all()
    )
    assert len(set(seat_counts.values())) == 1


def test_duplicate_seats_need_whole_sets(organiser, four_bots, run_on_commit):
    reply = create(organiser, run_on_commit, four_bots, games_per_pairing=4, duplicate_seats=True)
    assert reply.status_code == 400
    assert "games_per_pairing" in reply.json() and "multiple" in reply.json()["detail"]
    assert not Match.objects.exists()


def test_a_plain_round_robin_makes_no_sets(organiser, four_bots, run_on_commit):
    reply = create(organiser, run_on_commit, four_bots, games_per_pairing=2)
    assert reply.status_code == 201 and reply.json()["duplicate_seats"] is False
    assert not MatchSet.objects.exists()
    assert not Match.objects.filter(match_set__isnull=False).exists()


def test_a_set_scores_its_versions_as_one_unit(organiser, four_bots, run_on_commit):
    create(
        organiser,
        run_on_commit,
        four_bots[:2],
        players_per_match=2,
        games_per_pairing=2,
        duplicate_seats=True,
    )
    match_set = MatchSet.objects.get()
    first, second = match_set.matches.order_by("set_index")
    # Seat 0 wins the first game; the second is a tie.
    for match, ranks in ((first, [1, 2]), (second, [1, 1])):
        for seat in match.seats.all():
            seat.rank = ranks[seat.seat]
            seat.save(update_fields=["rank"])
        match.status = Match.Status.FINISHED
        match.save(update_fields=["status"])
    winner, loser = match_set.versions
    assert match_set.points_by_version() == {winner: 1.5, loser: 0.5}
    assert match_set.is_done()
