"""The Moon Adventure heuristic and the random bot end apart within 200 tables.

Real games played by the engine with the reference bots' files, rated by the arena's own
code (arena/ladder/cooperative_separation.py, what `python manage.py
cooperative_separation` prints). Fixed seeds, so the figures repeat exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.ladder.cooperative_separation import measure

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def test_at_the_ladder_s_table_sizes_the_heuristic_ends_clearly_above_random():
    report = measure(REFERENCE, games=200, seed=1)
    heuristic, random_bot = report["bots"][:2]
    assert report["sizes"] == [2, 3] and heuristic["games"] <= 200
    assert report["separated"]
    assert heuristic["skill_low"] > random_bot["skill_high"]
    assert heuristic["skill"] - random_bot["skill"] > 300
    assert heuristic["elo"] > random_bot["elo"]
    # The success rates and their Wilson intervals tell the same story.
    assert heuristic["success_low"] > random_bot["success_rate"]
    assert heuristic["success_rate"] > random_bot["success_high"]


def test_where_teams_rarely_succeed_only_the_graded_outcome_separates_them():
    # Three and four seats: a handful of successes in 200 tables (the ladder).
    report = measure(REFERENCE, games=200, seed=1, sizes=[3, 4])
    heuristic, random_bot = report["bots"][:2]
    assert heuristic["successes"] + random_bot["successes"] <= 5
    assert report["separated"] and not report["separated_on_success_only"]
    assert heuristic["mean_progress"] > random_bot["mean_progress"]


def test_a_competitive_game_or_an_impossible_table_is_refused():
    with pytest.raises(ValueError, match="not a cooperative game"):
        measure(REFERENCE, game_name="moonrollers", games=1)
    with pytest.raises(ValueError, match="table sizes"):
        measure(REFERENCE, games=1, sizes=[9])


def test_the_command_prints_both_bots_with_their_intervals():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("cooperative_separation", "--games", "200", "--seed", "1", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "moon_adventure@3: 200 tables of [2, 3] seats, seed 1"
    heuristic = next(line for line in lines if line.startswith("heuristic "))
    assert "1585 [1424, 1747]" in heuristic and "[9.0, 22.7]%" in heuristic
    assert lines[-1] == "heuristic above random: yes (on success alone: yes)"
