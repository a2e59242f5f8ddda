"""The anchor badge and the verdicts against the reference bots in Chromium, under axe-core.

The leaderboard (its anchor rows and the legend) and a bot page (its section against the
reference bots, competitive and cooperative) at desktop and phone widths: no serious or
critical axe violation, no sideways scrolling, and the badge's explanation is in the
text of the row's bot cell. Screenshots land in var/screenshots/anchors-*.png.
"""

from __future__ import annotations

import pytest

from arena.models import Rating
from tests.arena.services.test_anchors import repeat
from tests.arena.services.test_results import make_bot
from tests.arena.web.axe import axe_violations, blocking
from tests.arena.web.test_browser import CHROMIUM, Watch, horizontal_overflow, shot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_anchor_badges_and_verdicts_pass_axe_at_both_widths(live_server, django_user_model):
    arena = django_user_model.objects.create(username="arena")
    ada = django_user_model.objects.create_user("ada")
    # The engine's own games: the live server's thread does not see the fake ones.
    game, crew = "moonrollers", "moon_adventure"
    rock, paper = make_bot(arena, "rock", game), make_bot(arena, "paper", game)
    mine = make_bot(ada, "mine", game)
    team, helper = make_bot(arena, "team", game=crew), make_bot(ada, "helper", game=crew)
    Rating.objects.bulk_create(Rating(bot=b, game=game) for b in (rock, paper, mine))
    Rating.objects.create(bot=team, game=crew, games=20, successes=2)
    Rating.objects.create(bot=helper, game=crew, games=20, successes=18)
    repeat(16, [mine, rock], [1, 2], game=game)
    repeat(3, [paper, mine], [1, 2], game=game)
    pages = {
        "leaderboard": f"/games/{game}/",
        "bot": f"/bots/{mine.pk}/",
        "anchor": f"/bots/{rock.pk}/",
        "cooperative": f"/bots/{helper.pk}/",
    }
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for width in (1280, 375):
            page = browser.new_page(viewport={"width": width, "height": 900})
            watch = Watch(page)
            for name, path in pages.items():
                page.goto(live_server.url + path)
                assert blocking(axe_violations(page)) == [], (name, width)
                assert horizontal_overflow(page) <= 0, (name, width)
                assert watch.take() == [], (name, width)
                shot(page, f"anchors-{name}-{width}")
            page.goto(live_server.url + pages["leaderboard"])
            cell = page.locator("tbody tr", has_text="rock").locator("td").nth(1)
            assert cell.locator(".tag.anchor").is_visible()
            assert "reference bot: a fixed yardstick" in cell.inner_text()
            page.goto(live_server.url + pages["bot"])
            assert page.locator("#anchors-verdict").inner_text() == ("Beats with confidence: rock.")
            page.close()
        browser.close()
