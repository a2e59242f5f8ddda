"""The pages in a real browser: Debian's Chromium driven by Playwright against a live server
with real data (matches played by the referee with bots in real processes).

Every page loads with no console error, no failed request and nothing from outside
127.0.0.1; at 375 px no page scrolls sideways; a new user signs up and uploads a bot that
the real smoke test (in the sandbox) validates; the replay viewer steps through a whole
match of every game to its last frame, whose scores are the API's, and the arrow keys step.
Screenshots land in var/screenshots/ (gitignored) to be looked at. The browser must start:
this test fails, never skips, when it cannot (scripts/test.sh installs Chromium).
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from arena.models import Match
from bots.reference import builtin_path
from tests.arena.web.site_data import GAMES, build_site

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "var" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
LOCAL = {"127.0.0.1", "localhost"}  # the live server answers as localhost

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


class Watch:
    """Problems a page shows: console errors, failed or 4xx/5xx requests, outside hosts."""

    def __init__(self, page) -> None:
        self.problems: list[str] = []
        page.route(lambda url: urlsplit(url).hostname not in LOCAL, self._outside)
        page.on("requestfailed", lambda r: self.problems.append(f"failed {r.url}: {r.failure}"))
        page.on(
            "response",
            lambda r: self.problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        page.on("pageerror", lambda exc: self.problems.append(f"script error: {exc}"))
        page.on(
            "console",
            lambda m: self.problems.append(f"console: {m.text}") if m.type == "error" else None,
        )

    def _outside(self, route) -> None:
        self.problems.append(f"outside request {route.request.url}")
        route.abort()

    def take(self) -> list[str]:
        taken, self.problems = self.problems, []
        return taken


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def horizontal_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_pages_replays_and_a_new_author_in_chromium(live_server, settings):
    settings.ARENA_BOT_ISOLATION = "process"
    site = build_site()
    base = live_server.url
    pages = {
        "home": "/",
        **{f"game-{g}": f"/games/{g}/?order=skill" for g in GAMES},
        "bot": f"/bots/{site.bots['moon_bots'][0]}/",
        "tournament": f"/tournaments/{site.tournaments['moonrollers']}/",
        "knockout": f"/tournaments/{site.knockout}/",
        **{f"match-{g}": f"/matches/{site.matches[g]}/" for g in GAMES},
        "signup": "/signup/",
        "login": "/login/",
    }
    # Read before the browser starts: Playwright's loop makes this thread async to Django.
    decisions = {g: Match.objects.get(pk=site.matches[g]).decisions for g in GAMES}
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        # Playwright's own browser download cannot work here: use the system's Chromium.
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for width, suffix in ((1100, ""), (375, "-375")):
            page = browser.new_page(viewport={"width": width, "height": 800})
            watch = Watch(page)
            for name, path in pages.items():
                page.goto(f"{base}{path}", wait_until="networkidle")
                if name.startswith("match-"):
                    page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
                shot(page, name + suffix)
                assert watch.take() == [], (name, width)
                if width == 375:
                    assert horizontal_overflow(page) <= 0, f"{name} scrolls sideways at 375 px"
            page.close()

        page = browser.new_page(viewport={"width": 1100, "height": 800})
        watch = Watch(page)
        for game in GAMES:
            match_id, steps = site.matches[game], decisions[game]
            page.goto(f"{base}/matches/{match_id}/", wait_until="networkidle")
            page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
            counter = page.locator("#replay-counter")
            assert counter.inner_text() == f"Step 0 of {steps}"
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert counter.inner_text() == f"Step 2 of {steps}"
            page.keyboard.press("ArrowLeft")
            assert counter.inner_text() == f"Step 1 of {steps}"
            assert "played" in page.locator("#replay-action").inner_text()
            # Every frame drawn in turn, to the last one, by the Next button.
            page.evaluate(
                "n => { const next = document.getElementById('replay-next');"
                " for (let i = 1; i < n; i++) next.click(); }",
                steps,
            )
            assert counter.inner_text() == f"Step {steps} of {steps}"
            api = page.request.get(f"{base}/api/matches/{match_id}/").json()
            shown = json.loads(page.locator("#replay-result").get_attribute("data-scores"))
            assert shown == api["result"]["scores"], game
            page.select_option("#replay-view", "1")
            assert "seat 1" in page.locator(".step details summary").inner_text()
            shot(page, f"replay-{game}-last")
            assert watch.take() == [], game

        # A new author: sign up, upload through the form, see the real validation pass.
        settings.ARENA_SMOKE_TEST = "workers.smoke.smoke_test"
        page.goto(f"{base}/signup/")
        page.fill("#id_username", "newcomer")
        page.fill("#id_password1", "a-long-pass-77")
        page.fill("#id_password2", "a-long-pass-77")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{base}/my/bots/")
        page.goto(f"{base}/upload/")
        page.fill("#id_name", "first-try")
        page.select_option("#id_game", "moonrollers")
        page.set_input_files("#id_file", str(builtin_path("random", "moonrollers")))
        page.click("main button[type=submit]")
        page.wait_for_selector("text=first-try version 1 passed validation", timeout=60000)
        shot(page, "uploaded")
        page.goto(f"{base}/my/bots/")
        assert "first-try" in page.locator("main").inner_text()
        assert watch.take() == []
        browser.close()
