"""Round-robin scheduling: every combination of k bots, with seats rotated fairly.

Each combination is played `games_per_pairing` times. A full cycle of k rotations puts every
bot of the combination in every seat once, so when games_per_pairing is a multiple of k every
bot sits in every seat exactly equally often. The leftover games of each combination pick the
seating that keeps the whole tournament's seat counts most even (local search, deterministic);
exact evenness is then not always possible, and the counts stay within one or two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import combinations, permutations
from math import comb


class ScheduleError(ValueError):
    """The schedule cannot be built (too few bots, bad counts)."""


def count_matches(bots: int, players_per_match: int, games_per_pairing: int) -> int:
    """How many matches a round robin has, without building it."""
    if players_per_match < 1 or games_per_pairing < 1 or bots < players_per_match:
        return 0
    return comb(bots, players_per_match) * games_per_pairing


def rotations(table: Sequence[Hashable]) -> list[tuple[Hashable, ...]]:
    """The k cyclic seatings of a table: bot i moves one seat further each time."""
    k = len(table)
    return [tuple(table[(seat + shift) % k] for seat in range(k)) for shift in range(k)]


def round_robin(
    bots: Sequence[Hashable], players_per_match: int, games_per_pairing: int
) -> list[tuple[Hashable, ...]]:
    """Return the seat order (seat 0 first) of every match of the round robin.

    Matches are listed round by round: every combination once, then every combination again,
    so a tournament that is stopped half-way has still spread its games over all bots.
    """
    k = players_per_match
    if k < 1:
        raise ScheduleError("players_per_match must be at least 1")
    if games_per_pairing < 1:
        raise ScheduleError("games_per_pairing must be at least 1")
    if len(set(bots)) != len(bots):
        raise ScheduleError("a bot appears twice in the round robin")
    if len(bots) < k:
        raise ScheduleError(f"a round robin of {k}-player matches needs at least {k} bots")

    tables = list(combinations(bots, k))
    full_cycles = games_per_pairing // k
    # Whole cycles of rotations: exactly even by construction.
    rounds: list[list[tuple[Hashable, ...]]] = [
        [rotations(table)[game % k] for table in tables] for game in range(full_cycles * k)
    ]
    leftover = games_per_pairing - full_cycles * k
    if leftover:
        rounds.extend(_balanced_leftover(tables, leftover))
    return [seating for one_round in rounds for seating in one_round]


def _balanced_leftover(
    tables: Sequence[tuple[Hashable, ...]], games: int
) -> list[list[tuple[Hashable, ...]]]:
    """Seat `games` more plays of every table so that seat counts are as even as we can.

    Start from rotations spread by table index, then improve by local search: move one table
    to another seating while that lowers the sum of squared (bot, seat) counts.
    """
    choices = [_seatings(table) for table in tables]
    plays = [
        [choices[t][(t + game) % len(choices[t])] for t in range(len(tables))]
        for game in range(games)
    ]
    counts: Counter[tuple[Hashable, int]] = Counter()
    for one_round in plays:
        for seating in one_round:
            for seat, bot in enumerate(seating):
                counts[(bot, seat)] += 1
    for _ in range(50):
        improved = False
        for one_round in plays:
            for t, current in enumerate(one_round):
                for seat, bot in enumerate(current):
                    counts[(bot, seat)] -= 1
                best = min(choices[t], key=lambda s: (_cost(s, counts), s != current))
                for seat, bot in enumerate(best):
                    counts[(bot, seat)] += 1
                if best != current:
                    improved = True
                    one_round[t] = best
        if not improved:
            break
    return plays


def _seatings(table: tuple[Hashable, ...]) -> list[tuple[Hashable, ...]]:
    # Small tables may use any order; big ones only the k rotations (k! grows too fast).
    if len(table) <= 4:
        return [tuple(p) for p in permutations(table)]
    return rotations(table)


def _cost(seating: Sequence[Hashable], counts: Counter) -> int:
    # Sum of squares of the counts this seating would raise: lower means more even.
    return sum((counts[(bot, seat)] + 1) ** 2 for seat, bot in enumerate(seating))


def seat_counts(schedule: Sequence[Sequence[Hashable]]) -> dict[Hashable, list[int]]:
    """For each bot, how many times it sits in each seat (for tests and the admin)."""
    width = max((len(s) for s in schedule), default=0)
    counts: dict[Hashable, list[int]] = {}
    for seating in schedule:
        for seat, bot in enumerate(seating):
            counts.setdefault(bot, [0] * width)[seat] += 1
    return counts


def duplicate_round_robin(
    bots: Sequence[Hashable], players_per_match: int, games_per_pairing: int
) -> list[list[tuple[Hashable, ...]]]:
    """A round robin played in duplicate sets: every combination's games come in sets of k.

    Each set is the k cyclic rotations of one table (one seed for all of them), so every
    bot of the table sits in every seat once with the same dice and decks. Returns the
    sets (each a list of seatings, rotation 0 first), round by round like round_robin.
    """
    k = players_per_match
    if k < 1 or games_per_pairing < 1 or games_per_pairing % k:
        raise ScheduleError(
            f"with duplicate seats, games_per_pairing must be a multiple of the "
            f"{k} players per match (each set is one game per seat rotation)"
        )
    # The checks on bots are round_robin's; one cycle of it lists every table once.
    tables = round_robin(bots, k, 1)
    return [
        [tuple(seating) for seating in rotations(table)]
        for _ in range(games_per_pairing // k)
        for table in tables
    ]
