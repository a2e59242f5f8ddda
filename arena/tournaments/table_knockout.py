"""Multiplayer knockout (pure): tables seeded in snake order, the top of each table advance.

Round after round the entrants still in are seated at ⌈n / k⌉ tables of at most k
(`players_per_match`), their sizes as even as possible, in snake order of their seeds
(1..T across the tables, then T..1 back, ...), so every table has a fair mix of strong
and weak seeds, as poker's table draws and multi-table game events do. The top `advance`
of each table, by points over the table's games (then games won, then seed), go through;
a table smaller than advance + 1 sends all but its last. When no more than k remain they
play one final table, whose order is the final order.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from arena.tournaments.round_robin import ScheduleError


def snake_tables(seeded: Sequence[Hashable], players_per_match: int) -> list[list[Hashable]]:
    """Split `seeded` (best first) into tables; one table when it fits in one."""
    n, k = len(seeded), players_per_match
    if k < 2:
        raise ScheduleError("tables need at least 2 players")
    if n < 2:
        raise ScheduleError("a table knockout needs at least 2 entrants")
    count = -(-n // k)
    tables: list[list[Hashable]] = [[] for _ in range(count)]
    for i, bot in enumerate(seeded):
        lap, place = divmod(i, count)
        tables[place if lap % 2 == 0 else count - 1 - place].append(bot)
    return tables


def advancing_per_table(table_size: int, advance: int) -> int:
    return max(1, min(advance, table_size - 1))


def table_sizes(entrants: int, players_per_match: int, advance: int) -> list[list[int]]:
    """The table sizes of every round, for checking a field before the event starts."""
    if advance < 1 or advance >= players_per_match:
        raise ScheduleError("advance must be at least 1 and less than players_per_match")
    rounds = []
    left = entrants
    while True:
        tables = snake_tables(list(range(left)), players_per_match)
        sizes = [len(t) for t in tables]
        rounds.append(sizes)
        if len(sizes) == 1:
            return rounds
        left = sum(advancing_per_table(size, advance) for size in sizes)


@dataclass(frozen=True)
class TableResult:
    """A bot's record at one table: its points over the table's games and its wins."""

    points: float
    wins: int = 0


def table_order(
    table: Sequence[Hashable], results: Mapping[Hashable, TableResult], seeds: Sequence[Hashable]
) -> list[Hashable]:
    """The table's finishing order: points, then games won, then the better seed."""
    rank = {bot: i for i, bot in enumerate(seeds)}
    return sorted(
        table,
        key=lambda bot: (
            -results.get(bot, TableResult(0.0)).points,
            -results.get(bot, TableResult(0.0)).wins,
            rank.get(bot, len(rank)),
        ),
    )


def advancing(
    tables: Sequence[Sequence[Hashable]],
    results: Mapping[Hashable, TableResult],
    seeds: Sequence[Hashable],
    advance: int,
) -> list[Hashable]:
    """Who goes through from a finished round, in seed order for the next round's snake.

    Seed order is kept (not this round's points): a round's points are over different
    tables, so they do not compare across tables.
    """
    through: set[Hashable] = set()
    for table in tables:
        order = table_order(table, results, seeds)
        through.update(order[: advancing_per_table(len(table), advance)])
    return [bot for bot in seeds if bot in through]
