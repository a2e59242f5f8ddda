"""Live pages in Chromium: a leaderboard and a running tournament change, with no reload, as
a real Celery worker records match results; a paused page waits for its reader.

The pages are opened before the worker starts, a marker is set on each page's window, and
the worker then plays the round robin: the tournament page's progress, standings and
matches, and the leaderboard's rows, arrive by themselves, the marker survives (no reload),
the keyboard focus stays where it was, and the tournament page ends saying it is over.
Screenshots at 1280 and 375 px land in var/screenshots/live-*.png.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from arena.models import Match
from arena.services.tournaments import create_tournament
from arena.templatetags.live import POLL_MS
from tests.arena.web.axe import axe_violations, blocking
from tests.arena.web.site_data import _bot
from tests.arena.web.test_browser import CHROMIUM, Watch, shot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GAME = "moonrollers"
UPDATE_SECONDS = 60


# A leaderboard column's cells, found by its heading (the columns' order may change).
_COLUMN = """name => {
  const heads = [...document.querySelectorAll('#live-board thead th')].map(th => th.innerText.trim());
  const at = heads.indexOf(name);
  return [...document.querySelectorAll('#live-board tbody tr')].map(tr => tr.cells[at].innerText.trim());
}"""
_PLAYED_ALL = "() => (" + _COLUMN + ")('Games').join() === '2,2,2'"


# What the browser does when the tab goes to the background or comes back.
_SET_HIDDEN = """hidden => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def games_column(page) -> list[str]:
    return page.evaluate(_COLUMN, "Games")


def test_a_leaderboard_and_a_running_tournament_change_without_a_reload(
    live_server, start_worker, settings
):
    # Matches go to the real queue (the arena tests' defaults record instead of sending).
    settings.ARENA_ENQUEUE_MATCH = "workers.tasks.enqueue_match"
    settings.ARENA_ENQUEUE_MATCHES = "workers.tasks.enqueue_matches"
    owner = User.objects.create_user("pat")
    organiser = User.objects.create_user("olga-org")
    organiser.groups.add(Group.objects.get_or_create(name="organisers")[0])
    bots = [_bot(owner, GAME, name, name) for name in ("first", "random", "heuristic")]
    cup = create_tournament(organiser, name="Live cup", game=GAME, bots=bots, players_per_match=2)
    matches = Match.objects.filter(tournament=cup).count()
    assert matches == 3 and cup.status == "running"
    base = live_server.url
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        board, paused, tour = context.new_page(), context.new_page(), context.new_page()
        watches = [Watch(p) for p in (board, paused, tour)]
        for page, path in ((board, f"/games/{GAME}/"), (paused, f"/games/{GAME}/")):
            page.goto(f"{base}{path}", wait_until="networkidle")
            assert games_column(page) == ["0", "0", "0"]  # rated, not played yet
        tour.goto(f"{base}/tournaments/{cup.pk}/", wait_until="networkidle")
        assert "Progress: 0 of 3 matches" in tour.locator("#live-tournament").inner_text()
        for page in (board, paused, tour):
            page.wait_for_selector("#live-toggle:not([hidden])")
            page.evaluate("window.notReloaded = true")
            assert blocking(axe_violations(page)) == []
        shot(board, "live-board-before-1280")
        shot(tour, "live-tournament-before-1280")
        # A keyboard reader pauses one leaderboard (Tab to the button, then Enter)...
        paused.focus("#live-toggle")
        paused.keyboard.press("Enter")
        assert paused.get_attribute("#live-toggle", "aria-pressed") == "true"
        assert paused.locator("#live-note").inner_text() == "Updates paused."
        # ...and another sits on a link inside the tournament's live region.
        link = f"#live-tournament a[href='/games/{GAME}/']"
        tour.focus(link)

        worker = start_worker(isolation="process")
        tour.wait_for_selector(
            "#live-tournament progress[value='3']", timeout=UPDATE_SECONDS * 1000
        )
        tour.wait_for_function(
            "document.getElementById('live-note').textContent.includes('has ended')",
            timeout=UPDATE_SECONDS * 1000,
        )
        board.wait_for_function(_PLAYED_ALL, timeout=UPDATE_SECONDS * 1000)
        for page in (board, tour):
            assert page.evaluate("window.notReloaded") is True  # updated, not reloaded
            assert int(page.get_attribute("#live", "data-updates")) >= 1
        text = tour.locator("#live-tournament").inner_text()
        assert "Progress: 3 of 3 matches" in text and "finished" in text, text
        standings = tour.locator("#st-h + .scroll tbody tr")
        assert standings.count() == 3
        played = [standings.nth(i).locator("td").nth(3).inner_text() for i in range(3)]
        assert played == ["2", "2", "2"], played
        assert tour.locator("#m-h + ul.matches li").count() == 3
        # The focus stayed on the same link through the swaps.
        assert tour.evaluate("document.activeElement.getAttribute('href')") == f"/games/{GAME}/"
        assert tour.locator("#live-toggle").is_hidden()  # nothing left to pause

        # The paused page still shows what it showed; resumed, it catches up at once.
        assert games_column(paused) == ["0", "0", "0"]
        paused.keyboard.press("Enter")
        assert paused.get_attribute("#live-toggle", "aria-pressed") == "false"
        paused.wait_for_function(_PLAYED_ALL, timeout=10000)
        assert paused.evaluate("window.notReloaded") is True

        # A hidden tab asks nothing; shown again, it asks at once.
        asked: list[str] = []
        board.on("request", lambda r: asked.append(r.url) if r.url.endswith("/live/") else None)
        board.evaluate(_SET_HIDDEN, True)
        board.wait_for_timeout(1000)  # a check already under way may still land
        asked.clear()
        board.wait_for_timeout(POLL_MS + 2000)
        assert asked == []
        board.evaluate(_SET_HIDDEN, False)
        board.wait_for_timeout(1000)
        assert len(asked) == 1, asked

        for page in (board, tour):
            assert blocking(axe_violations(page)) == []
        shot(board, "live-board-after-1280")
        shot(tour, "live-tournament-after-1280")
        for page, name in ((board, "board"), (tour, "tournament")):
            page.set_viewport_size({"width": 375, "height": 800})
            shot(page, f"live-{name}-after-375")
            assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        for watch in watches:
            assert watch.take() == []
        assert "recorded" in worker.text()
        browser.close()
