"""Table knockout: snake seeding, the top of each table advance, ties at the cut."""

from __future__ import annotations

import pytest

from arena.tournaments.round_robin import ScheduleError
from arena.tournaments.table_knockout import (
    TableResult,
    advancing,
    snake_tables,
    table_order,
    table_sizes,
)


def test_tables_are_filled_in_snake_order():
    assert snake_tables(list(range(1, 13)), 3) == [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]
    assert snake_tables(list(range(1, 9)), 4) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    # Not a multiple: sizes differ by one at most.
    assert [len(t) for t in snake_tables(list(range(10)), 4)] == [3, 3, 4]
    assert snake_tables([1, 2, 3], 3) == [[1, 2, 3]]


def test_rounds_shrink_to_one_final_table():
    assert table_sizes(12, 3, 1) == [[3, 3, 3, 3], [2, 2], [2]]
    assert table_sizes(12, 4, 2) == [[4, 4, 4], [3, 3], [4]]
    assert table_sizes(16, 4, 1) == [[4, 4, 4, 4], [4]]
    assert table_sizes(3, 3, 1) == [[3]]
    with pytest.raises(ScheduleError):
        table_sizes(12, 3, 3)


def test_the_top_of_each_table_advance_by_points():
    seeds = list("ABCDEF")
    tables = [["A", "D", "E"], ["B", "C", "F"]]
    results = {
        "A": TableResult(0.5),
        "D": TableResult(2.0),
        "E": TableResult(0.5),
        "B": TableResult(1.0),
        "C": TableResult(1.5),
        "F": TableResult(0.5),
    }
    assert advancing(tables, results, seeds, 1) == ["C", "D"]  # kept in seed order


def test_a_tie_at_the_cut_goes_to_more_wins_then_to_the_better_seed():
    seeds = ["A", "B", "C"]
    table = ["A", "B", "C"]
    tied = {"A": TableResult(1.0, 0), "B": TableResult(1.0, 1), "C": TableResult(1.0, 1)}
    # B and C have a win each, A none: A is out; B (better seed) first.
    assert table_order(table, tied, seeds) == ["B", "C", "A"]
    assert advancing([table], tied, seeds, 1) == ["B"]
    assert advancing([table], tied, seeds, 2) == ["B", "C"]
    level = {bot: TableResult(1.0, 1) for bot in table}
    assert advancing([table], level, seeds, 2) == ["A", "B"]
    # A bot missing from the results (it forfeited every game) has no points.
    assert advancing([table], {"C": TableResult(0.5)}, seeds, 1) == ["C"]
