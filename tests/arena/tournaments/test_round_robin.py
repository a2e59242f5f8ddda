"""Round-robin scheduling maths (no database)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from arena.tournaments.round_robin import (
    ScheduleError,
    count_matches,
    rotations,
    round_robin,
    seat_counts,
)


@pytest.mark.parametrize(("n", "k", "g"), [(2, 2, 1), (3, 2, 2), (5, 3, 3), (6, 4, 4), (5, 2, 4)])
def test_every_combination_is_played_games_per_pairing_times(n, k, g):
    schedule = round_robin(list(range(n)), k, g)
    assert len(schedule) == comb(n, k) * g == count_matches(n, k, g)
    tables = Counter(frozenset(s) for s in schedule)
    assert set(tables) == {frozenset(c) for c in combinations(range(n), k)}
    assert set(tables.values()) == {g}


@pytest.mark.parametrize(("n", "k", "g"), [(3, 2, 2), (4, 3, 3), (5, 3, 6), (6, 4, 4), (5, 5, 5)])
def test_a_multiple_of_the_table_size_seats_every_bot_equally_often(n, k, g):
    for counts in seat_counts(round_robin(list(range(n)), k, g)).values():
        assert len(set(counts)) == 1


@pytest.mark.parametrize(
    ("n", "k", "g"), [(3, 2, 1), (4, 2, 1), (5, 2, 1), (4, 3, 1), (6, 3, 1), (6, 3, 2), (7, 4, 1)]
)
def test_other_sizes_keep_seat_counts_nearly_even(n, k, g):
    for counts in seat_counts(round_robin(list(range(n)), k, g)).values():
        assert max(counts) - min(counts) <= 1


def test_pairs_alternate_seats_when_played_twice():
    schedule = round_robin(["a", "b"], 2, 2)
    assert schedule == [("a", "b"), ("b", "a")]


def test_rotations_move_every_bot_through_every_seat():
    assert rotations(("a", "b", "c")) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_the_schedule_is_deterministic():
    assert round_robin(list(range(6)), 3, 2) == round_robin(list(range(6)), 3, 2)


def test_rounds_spread_games_over_all_bots():
    # The first comb(n, k) matches are one full round: every table once.
    schedule = round_robin(list(range(4)), 2, 2)
    assert {frozenset(s) for s in schedule[:6]} == {frozenset(c) for c in combinations(range(4), 2)}


@pytest.mark.parametrize(
    ("bots", "k", "g", "words"),
    [
        ([1, 2], 3, 1, "at least 3 bots"),
        ([1, 1, 2], 2, 1, "twice"),
        ([1, 2], 0, 1, "players_per_match"),
        ([1, 2], 2, 0, "games_per_pairing"),
    ],
)
def test_impossible_schedules_are_refused(bots, k, g, words):
    with pytest.raises(ScheduleError, match=words):
        round_robin(bots, k, g)


def test_count_matches_of_an_impossible_schedule_is_zero():
    assert count_matches(2, 3, 1) == 0
