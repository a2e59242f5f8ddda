"""Leaderboards by whole-history skill: provisional bots, bots not fitted yet, the pages."""

from __future__ import annotations

import pytest

from arena.models import Rating
from arena.ratings.whole_history import PROVISIONAL_GAMES, PROVISIONAL_WIDTH_ELO, is_provisional
from arena.services import skills
from tests.arena.services.test_results import make_bot
from tests.arena.services.test_skills import league, owner, play  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_the_provisional_rule_counts_games_and_interval_width():
    assert is_provisional(None, None, None)  # not fitted yet
    assert is_provisional(PROVISIONAL_GAMES - 1, 1450, 1550)  # too few games
    assert is_provisional(500, 1000, 1000 + PROVISIONAL_WIDTH_ELO + 1)  # too wide
    assert not is_provisional(PROVISIONAL_GAMES, 1300, 1300 + PROVISIONAL_WIDTH_ELO)


def test_newcomers_are_provisional_and_bots_not_fitted_yet_come_last(owner, anonymous):  # noqa: F811
    strong, middle, weak = league(owner, games=40)
    newcomer, unfitted = make_bot(owner, "newcomer"), make_bot(owner, "unfitted")
    Rating.objects.bulk_create(Rating(bot=b, game="duel") for b in (newcomer, unfitted))
    play([newcomer, weak], [1, 2])
    play([newcomer, middle], [1, 2])
    skills.refit("duel", force=True)
    Rating.objects.filter(bot=unfitted).update(rating=2000.0, games=1)  # played since the fit
    rows = anonymous.get("/api/leaderboards/duel/").json()["results"]
    by_name = {row["bot"]: row for row in rows}
    assert rows[-1]["bot"] == "unfitted" and rows[-1]["skill"] is None
    assert by_name["unfitted"]["provisional"] and by_name["newcomer"]["provisional"]
    for name in ("strong", "middle", "weak"):
        row = by_name[name]
        assert not row["provisional"], row
        assert row["skill_high"] - row["skill_low"] <= PROVISIONAL_WIDTH_ELO
    assert [r["bot"] for r in rows if r["bot"] in ("strong", "middle", "weak")] == [
        "strong",
        "middle",
        "weak",
    ]
    # By Elo, the bot the fit has not seen leads.
    by_elo = anonymous.get("/api/leaderboards/duel/?order=elo").json()["results"]
    assert by_elo[0]["bot"] == "unfitted" and by_elo[0]["provisional"]


def test_the_page_and_the_home_page_show_skill_intervals_provisional_marks_and_elo_sort(
    owner,  # noqa: F811
    client,
):
    league(owner, games=40)
    newcomer = make_bot(owner, "newcomer")
    Rating.objects.create(bot=newcomer, game="duel")
    skills.refit("duel", force=True)
    page = client.get("/games/duel/").content.decode()
    # Skill order by default, with the sort by Elo offered as a link and a column.
    assert page.index(">strong<") < page.index(">middle<") < page.index(">weak<")
    assert 'aria-sort="descending"><a href="?order=skill">Skill (95%)</a>' in page
    assert '<a href="?order=elo">Elo</a>' in page
    assert page.count('<span class="tag">provisional</span>') == 2  # the legend and newcomer
    row = page[page.index(">strong<") :].split("</tr>")[0]
    assert 'class="muted interval">(' in row and "provisional" not in row
    by_elo = client.get("/games/duel/?order=elo").content.decode()
    assert 'aria-sort="descending"><a href="?order=elo">Elo</a>' in by_elo
    assert client.get("/games/duel/?order=nonsense").status_code == 200  # the default order
    home = client.get("/").content.decode()
    card = home[home.index('id="g-duel"') :].split("</section>")[0]
    assert card.index(">strong<") < card.index(">middle<") < card.index(">weak<")
    assert "By whole-history skill (95% interval)" in card and "provisional" in card


def test_a_cooperative_page_shows_the_success_rate_with_its_wilson_interval(owner, client):  # noqa: F811
    from arena.stats import wilson_interval

    good = make_bot(owner, "good", game="crew")
    Rating.objects.create(
        bot=good, game="crew", rating=1600.0, games=10, wins=8, losses=2, successes=8
    )
    low, high = wilson_interval(8, 10)
    page = client.get("/games/crew/").content.decode()
    assert '<th scope="col">Success (95%)</th>' in page
    assert (
        f'80% <span class="muted interval">({round(100 * low)}–{round(100 * high)}%)</span>' in page
    )
    assert "Skill rates how far each bot's teams get toward the mission" in page
