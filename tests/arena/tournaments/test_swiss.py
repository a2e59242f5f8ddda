"""Swiss pairings: no bot twice in a round, no avoidable repeat, distinct byes, seats even."""

from __future__ import annotations

import random
from collections.abc import Hashable
from itertools import combinations, product

import pytest

from arena.tournaments.round_robin import ScheduleError, rotations
from arena.tournaments.swiss import (
    Entrant,
    PlayedTable,
    default_rounds,
    entrants_after,
    max_rounds,
    pair_round,
)


def simulate(n: int, rounds: int, k: int = 2, games: int = 1, seed: int = 0):
    """Play a whole Swiss with random results (stronger bots win more often)."""
    rng = random.Random(seed)
    strength = {bot: rng.random() for bot in range(n)}
    history: list = []
    played = []
    for number in range(1, rounds + 1):
        entrants = sorted(entrants_after(range(n), history), key=lambda e: (-e.score, e.bot))
        paired = pair_round(entrants, k, games, number, rounds - number)
        tables = []
        for table in paired.tables:
            seatings = [rotations(table)[g % len(table)] for g in range(games)]
            points = dict.fromkeys(table, 0.0)
            for seating in seatings:
                order = sorted(seating, key=lambda b: strength[b] + rng.random())
                for place, bot in enumerate(order):
                    points[bot] += (len(order) - 1 - place) / (len(order) - 1)
            tables.append(PlayedTable(seatings, points))
        history.append((tables, paired.byes))
        played.append(paired)
    return played, entrants_after(range(n), history)


def repeats(played) -> int:
    pairs = [frozenset(p) for r in played for t in r.tables for p in combinations(t, 2)]
    return len(pairs) - len(set(pairs))


def test_default_and_maximum_rounds():
    assert [default_rounds(n) for n in (2, 8, 9, 16, 17, 100)] == [2, 4, 5, 5, 6, 8]
    # Two players: n / 2 rounds (even), (n + 1) / 2 (odd), Dirac's bound.
    assert [max_rounds(n) for n in (2, 4, 5, 8, 9)] == [1, 2, 3, 4, 5]
    assert max_rounds(9, 3) == 4 and max_rounds(12, 4) == 3 and max_rounds(2, 3) == 0


def test_the_first_round_pairs_the_top_half_against_the_bottom_half():
    entrants = [Entrant(bot) for bot in range(1, 9)]
    paired = pair_round(entrants)
    assert sorted(tuple(sorted(t)) for t in paired.tables) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert paired.byes == []


def test_the_second_round_pairs_within_score_groups():
    # 1-4 won their first games against 5-8; 1 and 2 had seat 0, 3 and 4 seat 1.
    history = [
        (
            [
                PlayedTable([(1, 5)], {1: 1.0, 5: 0.0}),
                PlayedTable([(2, 6)], {2: 1.0, 6: 0.0}),
                PlayedTable([(7, 3)], {3: 1.0, 7: 0.0}),
                PlayedTable([(8, 4)], {4: 1.0, 8: 0.0}),
            ],
            [],
        )
    ]
    entrants = entrants_after(range(1, 9), history)
    paired = pair_round(entrants, round_number=2)
    tables = sorted(tuple(sorted(t)) for t in paired.tables)
    assert tables == [(1, 3), (2, 4), (5, 7), (6, 8)]
    # Seat 0 to whoever had seat 1 last time.
    for table in paired.tables:
        first = next(e for e in entrants if e.bot == table[0])
        assert first.seats[0] <= first.seats[1]


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_and_it_scores_a_win():
    entrants = [Entrant(bot) for bot in "ABCDE"]
    paired = pair_round(entrants)
    assert paired.byes == ["E"] and len(paired.tables) == 2
    after = entrants_after("ABCDE", [([], paired.byes)])
    assert {e.bot: e.score for e in after}["E"] == 1.0
    # Next round E has had its bye: D, now the lowest without one, gets it.
    ranked = [e for e in after if e.bot != "E"] + [e for e in after if e.bot == "E"]
    assert pair_round(ranked, round_number=2).byes == ["D"]


@pytest.mark.parametrize("n", range(3, 17))
def test_whole_events_never_seat_a_bot_twice_repeat_a_pairing_or_repeat_a_bye(n):
    for seed in range(12):
        played, entrants = simulate(n, max_rounds(n), seed=seed)
        for paired in played:
            seated = [bot for t in paired.tables for bot in t] + paired.byes
            assert sorted(seated) == list(range(n))
            assert all(len(t) == 2 for t in paired.tables)
        assert repeats(played) == 0, (n, seed)
        byes = [bot for r in played for bot in r.byes]
        assert len(byes) == len(set(byes)) == (len(played) if n % 2 else 0)


@pytest.mark.parametrize("n", range(3, 17))
def test_seats_balance_within_one_over_an_event_of_the_default_length(n):
    for seed in range(20):
        _, entrants = simulate(n, min(default_rounds(n), max_rounds(n)), seed=seed)
        assert max(abs(e.seats[0] - e.seats[1]) for e in entrants) <= 1, (n, seed)


def test_sets_of_two_games_give_each_bot_each_seat_equally():
    _, entrants = simulate(8, 4, games=2, seed=3)
    assert all(e.seats[0] == e.seats[1] == 4 for e in entrants)


def _perfect_matchings(vertices: list) -> list[list[tuple]]:
    if not vertices:
        return [[]]
    head, rest = vertices[0], vertices[1:]
    found = []
    for i, other in enumerate(rest):
        for tail in _perfect_matchings(rest[:i] + rest[i + 1 :]):
            found.append([(head, other), *tail])
    return found


BYE = "bye"


@pytest.mark.parametrize(
    ("n", "previous_rounds"),
    [(4, 1), (4, 2), (5, 1), (5, 2), (6, 1), (6, 2), (6, 3), (7, 1), (8, 1)],
)
def test_no_repeated_pairing_while_one_is_avoidable_exhaustively(n, previous_rounds):
    """Every history of earlier rounds on a small field (every round a perfect matching,
    with the bye as a vertex in an odd field): whenever some pairing of the next round
    avoids every repeat (and every second bye), ours does."""
    vertices: list[Hashable] = list(range(n)) + ([BYE] if n % 2 else [])
    rounds = _perfect_matchings(vertices)
    checked = 0
    for history in product(rounds, repeat=previous_rounds):
        if previous_rounds > 1 and str(history[0]) > str(history[1]):
            continue  # the order of earlier rounds only changes scores; halves the work
        met = {bot: [] for bot in range(n)}
        byes = dict.fromkeys(range(n), 0)
        seats = {bot: [0, 0] for bot in range(n)}
        score = dict.fromkeys(range(n), 0.0)
        for one_round in history:
            for a, b in one_round:
                if BYE in (a, b):
                    bot = b if a == BYE else a
                    byes[bot] += 1
                    score[bot] += 1.0
                    continue
                met[a].append(b)
                met[b].append(a)
                seats[a][0] += 1
                seats[b][1] += 1
                score[a] += 1.0  # the first-listed bot wins
        entrants = sorted(
            (
                Entrant(bot, score[bot], tuple(met[bot]), tuple(seats[bot]), byes[bot])
                for bot in range(n)
            ),
            key=lambda e: (-e.score, e.bot),
        )
        used = {frozenset(p) for one_round in history for p in one_round}
        avoidable = any(not any(frozenset(p) in used for p in m) for m in rounds)
        paired = pair_round(entrants, round_number=previous_rounds + 1)
        ours = [frozenset(t) for t in paired.tables] + [frozenset((b, BYE)) for b in paired.byes]
        if avoidable:
            assert not any(p in used for p in ours), (history, paired)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize(
    ("n", "k"), [(6, 3), (9, 3), (10, 3), (12, 3), (15, 3), (8, 4), (12, 4), (16, 4)]
)
def test_multiplayer_tables_seat_each_bot_once_and_balance_seats_within_one(n, k):
    for seed in range(6 if n < 16 else 2):
        played, entrants = simulate(n, min(default_rounds(n), max_rounds(n, k)), k=k, seed=seed)
        for paired in played:
            seated = [bot for t in paired.tables for bot in t] + paired.byes
            assert sorted(seated) == list(range(n))
            assert all(len(t) == k for t in paired.tables) and len(paired.byes) == n % k
        assert all(max(e.seats) - min(e.seats) <= 1 for e in entrants), (n, k, seed)
        byes = [bot for r in played for bot in r.byes]
        assert len(byes) == len(set(byes))


def test_multiplayer_first_round_tables_are_adjacent_in_the_standings():
    paired = pair_round([Entrant(b) for b in range(9)], players_per_match=3)
    assert sorted(tuple(sorted(t)) for t in paired.tables) == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]


def test_nine_bots_at_three_player_tables_meet_no_one_twice_in_four_rounds():
    # Nine points in twelve lines of three, four parallel classes (the affine plane of
    # order 3): four rounds without a repeat exist, and the search finds them.
    for seed in range(6):
        played, _ = simulate(9, 4, k=3, seed=seed)
        assert repeats(played) == 0


def test_multiplayer_repeats_are_the_fewest_possible_on_small_fields():
    # Six bots at 3-player tables: round 2 must repeat a pair at each table (any 3 of the
    # 6 include two who sat together in round 1), and no more.
    played, _ = simulate(6, 2, k=3)
    assert repeats(played) == 2


def test_bad_fields_are_refused():
    with pytest.raises(ScheduleError):
        pair_round([Entrant(1)])
    with pytest.raises(ScheduleError):
        pair_round([Entrant(1), Entrant(1)])
    with pytest.raises(ScheduleError):
        pair_round([Entrant(1), Entrant(2)], players_per_match=3)
