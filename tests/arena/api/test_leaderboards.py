"""Leaderboards: ordered by Elo before the first fit, paginated, with cooperative columns.

The order by whole-history skill and the provisional mark: tests/arena/services/
test_leaderboard_skill.py and test_skills.py.
"""

from __future__ import annotations

import pytest

from arena.models import Rating

pytestmark = pytest.mark.django_db


def rate(bot, **values):
    Rating.objects.filter(bot=bot, game=bot.game).update(**values)


def test_before_the_first_fit_a_leaderboard_is_ordered_by_elo(
    make_bot, author_user, other_user, anonymous
):
    low, high = make_bot(author_user, "low"), make_bot(other_user, "high")
    rate(low, rating=1450.0, games=4, wins=1, losses=3)
    rate(high, rating=1550.25, games=4, wins=3, losses=1)
    make_bot(author_user, "other-game", game="crew")
    reply = anonymous.get("/api/leaderboards/duel/")
    assert reply.status_code == 200
    data = reply.json()
    assert data["count"] == 2
    first, second = data["results"]
    assert first == {
        "rank": 1,
        "bot": "high",
        "bot_id": high.pk,
        "owner": "bob",
        "anchor": False,
        "rating": 1550.2,
        "games": 4,
        "wins": 3,
        "draws": 0,
        "losses": 1,
        # No whole-history fit yet.
        "skill": None,
        "skill_low": None,
        "skill_high": None,
        "rank_low": None,
        "rank_high": None,
        "fitted_at": None,
        "provisional": True,
    }
    assert second["rank"] == 2 and second["bot"] == "low"


def test_ranks_continue_across_pages(make_bot, author_user, anonymous):
    for i in range(5):
        rate(make_bot(author_user, f"bot{i}"), rating=1500.0 + i)
    page2 = anonymous.get("/api/leaderboards/duel/?page=2&page_size=2").json()
    assert [e["rank"] for e in page2["results"]] == [3, 4]
    assert [e["bot"] for e in page2["results"]] == ["bot2", "bot1"]
    assert page2["next"] and page2["previous"]


def test_deactivated_bots_leave_the_leaderboard(make_bot, author_user, anonymous):
    make_bot(author_user, "gone").deactivate()
    assert anonymous.get("/api/leaderboards/duel/").json()["count"] == 0


def test_a_cooperative_leaderboard_shows_team_score_and_success_rate(
    make_bot, author_user, anonymous
):
    good = make_bot(author_user, "good", game="crew")
    make_bot(author_user, "new", game="crew")
    rate(good, rating=1600.0, games=10, wins=8, losses=2, successes=8, score_total=55.0)
    top, fresh = anonymous.get("/api/leaderboards/crew/").json()["results"]
    assert top["mean_team_score"] == 5.5 and top["success_rate"] == 0.8 and top["successes"] == 8
    low, high = top["success_rate_ci"]
    assert 0.49 < low < 0.8 < high < 0.97
    assert fresh["success_rate"] is None and fresh["success_rate_ci"] is None
    assert fresh["mean_team_score"] is None


def test_a_competitive_leaderboard_has_no_cooperative_columns(make_bot, author_user, anonymous):
    make_bot(author_user, "solo")
    (entry,) = anonymous.get("/api/leaderboards/duel/").json()["results"]
    assert "success_rate" not in entry and "mean_team_score" not in entry


def test_the_leaderboard_index_lists_every_game(make_bot, author_user, anonymous):
    make_bot(author_user, "solo")
    rows = {r["game"]: r for r in anonymous.get("/api/leaderboards/").json()}
    assert rows["duel"]["bots"] == 1 and rows["crew"]["cooperative"] is True
    assert rows["duel"]["url"].endswith("/api/leaderboards/duel/")


def test_an_unknown_game_has_no_leaderboard(anonymous):
    reply = anonymous.get("/api/leaderboards/chess/")
    assert reply.status_code == 404 and "unknown game" in reply.json()["detail"]


def test_a_page_past_the_end_is_a_404(anonymous):
    assert anonymous.get("/api/leaderboards/duel/?page=9").status_code == 404
