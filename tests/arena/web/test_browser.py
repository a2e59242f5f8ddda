"""The pages in a real browser: Debian's Chromium driven by Playwright against a live server
with real data (matches played by the referee with bots in real processes).

Every page loads with no console error, no failed request and nothing from outside
127.0.0.1; at 375 px no page scrolls sideways; the replay viewer steps through a whole
match of every game to its last frame, whose scores are the API's, and the arrow keys step.
A new user signs up and uploads bots through the form; the bot page shows each version
pending, then (with no reload) ready, or rejected with the reason, as a real Celery worker
on the validation queue plays the smoke match in the sandbox.
Screenshots land in var/screenshots/ (gitignored) to be looked at. The browser must start:
this test fails, never skips, when it cannot (scripts/test.sh installs Chromium).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from arena.models import Match
from bots.reference import builtin_path
from tests.arena.web.site_data import GAMES, build_site
from tests.workers.pipeline.test_validation import ILLEGAL_BOT

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


def keyboard_reaches_content(page, name: str) -> None:
    """The first Tab shows the skip link (unless a form's first field has the focus already);
    Enter on it moves focus to the main content, and further Tabs walk through visible
    controls with a focus outline."""
    if page.evaluate("document.activeElement.autofocus"):
        # The forms put the cursor in their first field: typing starts at once.
        assert page.evaluate("document.activeElement.tagName") == "INPUT", name
    else:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip", name
        box = page.locator("a.skip").bounding_box()
        assert box is not None and box["x"] >= 0, f"{name}: the skip link stays off screen"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "main", name
    for _ in range(3):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "(() => { const e = document.activeElement, r = e.getBoundingClientRect();"
            " return {tag: e.tagName, w: r.width, h: r.height,"
            " outline: getComputedStyle(e).outlineStyle}; })()"
        )
        if focused["tag"] == "BODY":
            break  # a short page: nothing more to reach
        assert focused["w"] > 0 and focused["h"] > 0, (name, focused)
        assert focused["outline"] != "none", (name, focused)


def horizontal_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_pages_and_replays_in_chromium(live_server, settings):
    settings.ARENA_BOT_ISOLATION = "process"
    site = build_site()
    base = live_server.url
    pages = {
        "home": "/",
        **{f"game-{g}": f"/games/{g}/?order=skill" for g in GAMES},
        "bot": f"/bots/{site.bots['moon_bots'][0]}/",
        "tournaments": "/tournaments/",
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
                keyboard_reaches_content(page, name)
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
            if game == "moon_adventure":  # cooperative: whether the mission succeeded
                said = page.locator("#replay-outcome").inner_text()
                verdict = "succeeded" if api["result"].get("outcome") == "success" else "failed"
                assert f"The mission {verdict}" in said, said
            # Another point of view is another request (one view per response), made once.
            with page.expect_response(lambda r: "/frames/?view=seat" in r.url) as asked:
                page.select_option("#replay-view", "1")
            assert asked.value.ok and asked.value.json()["view"] == "seat:1"
            page.wait_for_selector("#replay[data-ready='1']")
            assert "seat 1" in page.locator(".step .data details summary").inner_text()
            assert counter.inner_text() == f"Step {steps} of {steps}"
            shot(page, f"replay-{game}-last")
            assert watch.take() == [], game

        browser.close()


def test_a_new_author_watches_validation_arrive_from_a_real_worker(
    live_server, start_worker, settings
):
    # The real queue and smoke test (the arena tests' defaults record instead of sending).
    settings.ARENA_ENQUEUE_VALIDATION = "workers.tasks.enqueue_validation"
    settings.ARENA_SMOKE_TEST = "workers.play.smoke.smoke_test"
    base = live_server.url
    broken = Path(tempfile.mkdtemp()) / "bot.py"
    broken.write_bytes(ILLEGAL_BOT)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        watch = Watch(page)
        page.goto(f"{base}/signup/")
        page.fill("#id_username", "newcomer")
        page.fill("#id_password1", "a-long-pass-77")
        page.fill("#id_password2", "a-long-pass-77")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{base}/my/bots/")
        page.goto(f"{base}/upload/")
        shot(page, "upload")
        page.fill("#id_name", "first-try")
        page.select_option("#id_game", "moonrollers")
        page.set_input_files("#id_file", str(builtin_path("random", "moonrollers")))
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r".*/bots/[0-9]+/$"))
        # No worker runs yet: the version waits on the validation queue, and says so.
        status = page.locator("#validation-status")
        assert "Version 1 is pending" in status.inner_text()
        assert page.locator("tr[data-version='1'] td").last.inner_text() == "pending"
        shot(page, "validation-pending")
        page.set_viewport_size({"width": 375, "height": 800})
        shot(page, "validation-pending-375")
        assert horizontal_overflow(page) <= 0
        page.set_viewport_size({"width": 1100, "height": 800})
        page.evaluate("window.notReloaded = true")

        worker = start_worker(isolation="sandbox")
        page.wait_for_selector("#validation-status.ready", timeout=120000)
        assert page.evaluate("window.notReloaded") is True  # updated live, not reloaded
        assert "Version 1 is ready" in status.inner_text()
        assert page.locator("tr[data-version='1'] td").last.inner_text() == "ready"
        shot(page, "validation-ready")

        # A bot that answers with an illegal action: rejected, with the reason, live.
        page.goto(f"{base}/upload/")
        page.fill("#id_name", "broken-try")
        page.select_option("#id_game", "moonrollers")
        page.set_input_files("#id_file", str(broken))
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r".*/bots/[0-9]+/$"))
        page.wait_for_selector("#validation-status.rejected", timeout=120000)
        text = status.inner_text()
        assert text.startswith("Version 1 was rejected: the bot failed its smoke match: seat 0:")
        assert "not a legal action" in text, text
        cell = page.locator("tr[data-version='1'] td").last.inner_text()
        assert cell.startswith("rejected") and "not a legal action" in cell
        shot(page, "validation-rejected")
        page.set_viewport_size({"width": 375, "height": 800})
        shot(page, "validation-rejected-375")
        assert horizontal_overflow(page) <= 0
        page.goto(f"{base}/my/bots/")
        cards = page.locator("section.mybot")
        good = cards.filter(has_text="first-try").locator("td.validation").inner_text()
        bad = cards.filter(has_text="broken-try").locator("td.validation").inner_text()
        assert good == "ready" and bad.startswith("rejected"), (good, bad)
        shot(page, "my-bots-375")
        assert horizontal_overflow(page) <= 0
        keyboard_reaches_content(page, "my bots")
        # Both settled by the worker's task, not in the web process.
        assert worker.text().count("workers.tasks.validate_version") >= 2, worker.text()[-3000:]
        assert watch.take() == []
        browser.close()
