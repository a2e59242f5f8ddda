"""Knockout brackets: seeding order, byes to the top seeds, double elimination, sets."""

from __future__ import annotations

import random

import pytest

from arena.tournaments.knockout import (
    bracket_size,
    champion,
    decide_set,
    double_elimination,
    resolve,
    seed_order,
    set_seating,
    single_elimination,
)
from arena.tournaments.round_robin import ScheduleError


def first_round(n: int) -> tuple[list[tuple[int, int]], list[int]]:
    """(seed pairs that play, seeds that get a bye) in bracket order."""
    seeds = list(range(1, n + 1))
    states = resolve(single_elimination(n), seeds, {})
    played = [s.sides for s in states.values() if s.tie.round == 1 and s.is_playable()]
    byes = [s.winner for s in states.values() if s.tie.round == 1 and s.bye]
    return played, byes


def better(state):
    return min(state.sides)


def play_out(ties, seeds, pick):
    """Decide every playable tie with `pick(state)` until the bracket has a champion."""
    results = {}
    while True:
        states = resolve(ties, seeds, results)
        playable = [s for s in states.values() if s.is_playable()]
        if not playable:
            return states, results
        for state in playable:
            results[state.tie.id] = pick(state)


def test_seed_order_keeps_the_top_seeds_apart():
    assert seed_order(2) == [1, 2]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ScheduleError):
        seed_order(6)


@pytest.mark.parametrize(
    ("n", "matches", "byes"),
    [
        (5, [(4, 5)], [1, 2, 3]),
        (8, [(1, 8), (4, 5), (2, 7), (3, 6)], []),
        (13, [(8, 9), (4, 13), (5, 12), (7, 10), (3, 14), (6, 11)], [1, 2]),
        (16, [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)], []),
    ],
)
def test_first_round_seeding_and_byes_to_the_top_seeds(n, matches, byes):
    played, given = first_round(n)
    if n == 13:
        # 16 slots, 13 entrants: seeds 14-16 are byes, so 1, 2 and 3 go straight through.
        matches = [m for m in matches if m != (3, 14)]
        byes = [1, 2, 3]
    assert played == matches
    assert sorted(given) == byes
    assert bracket_size(n) == (8 if n <= 8 else 16)


@pytest.mark.parametrize("n", [5, 8, 13, 16])
def test_when_the_better_seed_always_wins_the_last_four_are_the_top_four(n):
    states, _ = play_out(single_elimination(n), list(range(1, n + 1)), better)
    semis = [s.sides for s in states.values() if s.tie.round == bracket_size(n).bit_length() - 2]
    assert sorted(semis) == [(1, 4), (2, 3)]
    assert champion(states) == 1
    # Every round's pairs add up to (slots in that round) + 1.
    rounds = bracket_size(n).bit_length() - 1
    for r in range(2, rounds + 1):
        slots = bracket_size(n) >> (r - 1)
        for state in (s for s in states.values() if s.tie.round == r):
            assert sum(state.sides) == slots + 1


@pytest.mark.parametrize("n", range(2, 18))
def test_single_elimination_plays_n_minus_1_ties_and_no_bot_twice_in_a_round(n):
    rng = random.Random(n)
    states, results = play_out(single_elimination(n), list(range(n)), lambda s: rng.choice(s.sides))
    assert len(results) == n - 1
    assert champion(states) is not None
    for r in {s.tie.round for s in states.values()}:
        bots = [b for s in states.values() if s.tie.round == r and not s.bye for b in s.sides]
        assert len(bots) == len(set(bots))


@pytest.mark.parametrize("n", range(2, 18))
def test_double_elimination_knocks_each_bot_out_after_its_second_loss(n):
    for trial in range(5):
        rng = random.Random(n * 100 + trial)
        states, results = play_out(
            double_elimination(n), list(range(n)), lambda s, rng=rng: rng.choice(s.sides)
        )
        winner = champion(states)
        assert winner is not None
        losses = dict.fromkeys(range(n), 0)
        for tie_id, state in states.items():
            if tie_id in results:
                losses[state.loser] += 1
        assert losses[winner] <= 1
        assert all(count == 2 for bot, count in losses.items() if bot != winner)
        assert len(results) in (2 * n - 2, 2 * n - 1)


def test_the_grand_final_is_replayed_only_if_the_winners_champion_loses_it():
    ties = double_elimination(4)
    seeds = [1, 2, 3, 4]
    # The better seed wins everything: GF is 1 v 2 and no reset.
    states, results = play_out(ties, seeds, better)
    assert states["GF"].sides == (1, 2) and states["GF2"].skipped and champion(states) == 1

    # Seed 2 loses the winners' final to 1, wins the losers' final, then GF: a reset.
    def two_after_the_winners_final(state):
        if state.tie.stage in ("final", "reset") or state.tie.stage == "losers":
            return 2 if 2 in state.sides else min(state.sides)
        return min(state.sides)

    states, results = play_out(ties, seeds, two_after_the_winners_final)
    assert states["GF"].winner == 2
    assert states["GF2"].decided and not states["GF2"].skipped and champion(states) == 2


def test_a_set_is_decided_by_points_then_extra_pairs_then_seed():
    assert decide_set([], 3) == 3
    assert decide_set([(1, 0), (0, 1)], 3) == 1
    assert decide_set([(1, 0), (0, 1), (1, 0)], 3) == "a"
    assert decide_set([(0, 1), (0.5, 0.5), (0.5, 0.5)], 3) == "b"
    level = [(1, 0), (0, 1)]
    assert decide_set(level, 2) == 2  # an extra pair
    assert decide_set(level + [(1, 0)], 2) == 1  # half-way through it
    assert decide_set(level + [(0, 1), (0, 1)], 2) == "b"
    assert decide_set(level * 3, 2, extra_pairs_cap=2) == "a"  # cap reached: the seed
    assert decide_set(level * 2, 2, extra_pairs_cap=2) == 2


def test_set_seats_rotate():
    assert [set_seating(g, "a", "b") for g in range(4)] == [("a", "b"), ("b", "a")] * 2


def test_fewer_than_two_entrants_is_refused():
    with pytest.raises(ScheduleError):
        single_elimination(1)
    with pytest.raises(ScheduleError):
        double_elimination(0)
