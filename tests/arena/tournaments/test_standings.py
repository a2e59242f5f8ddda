"""Tournament standings maths (no database)."""

from __future__ import annotations

from arena.tournaments.standings import MatchResult, SeatResult, standings


def test_pairwise_points_by_rank_and_positions():
    matches = [
        MatchResult([SeatResult("a", 1), SeatResult("b", 2), SeatResult("c", 3)]),
        MatchResult([SeatResult("b", 1), SeatResult("c", 1), SeatResult("a", 3, forfeited=True)]),
    ]
    rows = {r["bot_id"]: r for r in standings(matches, ["a", "b", "c", "idle"], cooperative=False)}
    assert rows["a"]["points"] == 1.0 and rows["a"]["forfeits"] == 1 and rows["a"]["wins"] == 1
    assert rows["b"]["points"] == 0.5 + 0.75 and rows["b"]["wins"] == 1
    assert rows["c"]["points"] == 0.0 + 0.75
    assert rows["idle"]["matches"] == 0 and rows["idle"]["mean_rank"] is None
    assert [r["bot_id"] for r in sorted(rows.values(), key=lambda r: r["position"])] == [
        "b",
        "a",
        "c",
        "idle",
    ]


def test_cooperative_standings_rank_by_success_rate_then_team_score():
    matches = [
        MatchResult([SeatResult("a", 1), SeatResult("b", 1)], "success", 9),
        MatchResult([SeatResult("a", 1), SeatResult("c", 1)], "failure", 4),
        MatchResult([SeatResult("b", 1), SeatResult("c", 1)], "success", 7),
    ]
    rows = standings(matches, ["a", "b", "c"], cooperative=True)
    assert [r["bot_id"] for r in rows] == ["b", "a", "c"]
    b = rows[0]
    assert b["successes"] == 2 and b["mean_team_score"] == 8.0 and b["wins"] == 2
