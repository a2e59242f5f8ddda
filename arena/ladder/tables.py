"""Table sizes per game and duplicate seating (pure, no ORM).

A ladder table is played as a set: one seed, the k cyclic rotations of its seats, so each
bot sits in each seat once with the same dice and decks (arena/models/sets.py).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from arena.tournaments.round_robin import rotations

# The table size each game is most often played at, when above two. The rulebooks give
# ranges (2-5, 1-5, 2-4); three is the table the reference bots are tuned and measured at
# (bots/reference/, docs/benchmarks.md), and it keeps the ladder's sets short (3 matches).
COMMON_TABLE_SIZES = {
    "moonrollers": 3,
    "moonrakers": 3,
    "moon_adventure": 3,
    "moon_bots": 3,
}


def default_table_sizes(game: str, min_players: int, max_players: int) -> list[int]:
    """Two players (or the game's minimum above that), plus the common size if larger."""
    first = max(2, min_players)
    if first > max_players:
        return [max_players]
    sizes = [first]
    common = COMMON_TABLE_SIZES.get(game, 3)
    if first < common <= max_players:
        sizes.append(common)
    return sizes


def check_table_sizes(sizes: object, min_players: int, max_players: int) -> list[int]:
    """A non-empty list of distinct player counts the game takes, at least 2; or ValueError."""
    if not isinstance(sizes, list) or not sizes:
        raise ValueError("table_sizes must be a non-empty list of player counts")
    low = max(2, min_players)
    for size in sizes:
        if type(size) is not int or not low <= size <= max_players:
            raise ValueError(
                f"table size {size!r} is not possible: ladder tables take {low}-{max_players} "
                f"players in this game"
            )
    if len(set(sizes)) != len(sizes):
        raise ValueError("a table size is listed twice")
    return sorted(sizes)


def duplicate_seatings(table: Sequence[Hashable]) -> list[tuple[Hashable, ...]]:
    """The seatings of one set: rotation i puts table[(s + i) mod k] in seat s."""
    return rotations(table)
