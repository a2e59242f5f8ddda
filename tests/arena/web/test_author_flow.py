"""A bot author's first hour in Chromium (Playwright, Debian's /usr/bin/chromium) against a
live server and a real Celery worker (with beat: the ladder scheduler ticks every second)
running the bots in the sandbox.

Sign up → the tokens page (a key shown once, accepted by the API, revoked, then refused) →
an upload of pasted code → its validation arriving live → the bot on the ladder → one of
its matches, where the author reads what the bot wrote to stderr → a pasted bot that breaks,
rejected live with the reason (and one that is not Python, refused on the form) → a
challenge started from the bot page and followed to its verdict without a reload.

Each step is shot at 1280 px and at 375 px (where no page scrolls sideways) into
var/screenshots/author-*.png; keyboard focus reaches each page's content.
"""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User

import arena.settings as production
from arena.models import Bot, Rating
from bots.reference import builtin_path
from tests.arena.web.test_browser import (
    CHROMIUM,
    Watch,
    horizontal_overflow,
    keyboard_reaches_content,
    shot,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ENQUEUE_SETTINGS = [
    "ARENA_ENQUEUE_VALIDATION",
    "ARENA_SMOKE_TEST",
    "ARENA_ENQUEUE_MATCH",
    "ARENA_ENQUEUE_MATCHES",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}
PASSWORD = "a-long-pass-77"

# Plays at random, and says so on stderr: once per match when it sits down, then on its
# first few decisions (one process plays a whole set of matches: one Bot per match).
STDERR_BOT = """import random
import sys


class Bot:
    def __init__(self):
        self._rng = random.Random()
        self._said = 0

    def setup(self, info):
        self._rng.seed(f"{info.get('seed', 0)}:{info.get('seat', 0)}")
        print(f"stella sits at seat {info.get('seat')}", file=sys.stderr)

    def act(self, observation, legal_actions):
        if self._said < 3:
            self._said += 1
            print(f"stella thinks: {len(legal_actions)} choices", file=sys.stderr)
        return self._rng.choice(legal_actions)
"""
# Valid Python that defines act, so it passes the checks on arrival; its smoke match fails.
BROKEN_BOT = """def act(observation, legal_actions):
    raise RuntimeError("stella forgot the rules")
"""
# Passes its smoke match (run with 256 MB) and crashes in every ladder match (512 MB): the
# ladder pauses it after CRASH_PAUSE forfeits in a row.
FRAGILE_BOT = """import resource


def setup(info):
    if resource.getrlimit(resource.RLIMIT_AS)[0] > 300 << 20:
        raise RuntimeError("stella's bot only works with little memory")


def act(observation, legal_actions):
    return legal_actions[0]
"""
CRASH_PAUSE = 3


def both_widths(page, name: str) -> None:
    """Shoot the page at 1280 px and at 375 px (where it must not scroll sideways)."""
    shot(page, f"author-{name}")
    page.set_viewport_size(PHONE)
    shot(page, f"author-{name}-375")
    assert horizontal_overflow(page) <= 0, f"{name} scrolls sideways at 375 px"
    page.set_viewport_size(DESKTOP)


def wait_for(predicate, what: str, worker, timeout: float) -> object:
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen\n{worker.text()[-4000:]}")
        time.sleep(0.5)
    return value


def shows(page, text: str) -> bool:
    page.reload()
    return text in page.locator("main").inner_text()


def test_an_author_signs_up_makes_a_token_uploads_reads_stderr_and_challenges(
    live_server, start_worker, settings
):
    # The real queues and smoke test in the live server, as production configures them (the
    # arena tests' defaults record instead of sending).
    for name in ENQUEUE_SETTINGS:
        setattr(settings, name, getattr(production, name))
    # Two reference bots keep the moonrollers ladder going; "first" is the challenge's baseline.
    arena = User.objects.create_user("arena")
    for name in ("first", "random"):
        bot = Bot.objects.create(owner=arena, name=f"ref-{name}", game="moonrollers")
        bot.add_version(builtin_path(name, "moonrollers").read_bytes(), f"{name}_bot.py")
        Rating.objects.create(bot=bot, game="moonrollers")
    worker = start_worker(
        concurrency=2,
        isolation="sandbox",
        beat=True,
        extra_env={"ARENA_LADDER_TICK_SECONDS": "1", "ARENA_LADDER_CRASH_PAUSE": str(CRASH_PAUSE)},
    )
    base = live_server.url
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport=DESKTOP)
        watch = Watch(page)
        api = pw.request.new_context(base_url=base)  # a program using a token, no cookie

        # Sign up.
        page.goto(f"{base}/signup/")
        page.fill("#id_username", "stella")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.keyboard.press("Enter")
        page.wait_for_url(f"{base}/my/bots/")

        # The tokens page: make one (by keyboard), use it, revoke it.
        page.click("nav >> text=API tokens")
        page.wait_for_url(f"{base}/my/tokens/")
        keyboard_reaches_content(page, "tokens")
        page.fill("#id_name", "laptop")
        page.keyboard.press("Enter")
        page.wait_for_selector("#new-key")
        key = page.input_value("#new-key")
        assert re.fullmatch(r"arena_[0-9a-f]{40}", key), key
        assert "shown only this once" in page.locator(".newkey").inner_text()
        both_widths(page, "token-created")
        me = api.get("/api/users/me/", headers={"Authorization": f"Token {key}"})
        assert me.ok and me.json()["username"] == "stella"
        page.goto(f"{base}/my/tokens/")
        assert key not in page.content() and key[:14] in page.content()  # shown once only
        page.focus("button[aria-label='Revoke the token laptop']")
        page.keyboard.press("Enter")
        page.wait_for_selector("text=The token is revoked")
        both_widths(page, "token-revoked")
        refused = api.get("/api/users/me/", headers={"Authorization": f"Token {key}"})
        assert refused.status == 401

        # Upload pasted code; its validation arrives live.
        page.click("nav >> text=Upload")
        page.wait_for_url(f"{base}/upload/")
        page.fill("#id_name", "stella-says")
        page.select_option("#id_game", "moonrollers")
        page.fill("#id_code", STDERR_BOT)
        both_widths(page, "upload-pasted")
        page.focus("main button[type=submit]")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r".*/bots/[0-9]+/$"))
        bot_id = int(re.search(r"/bots/([0-9]+)/", page.url)[1])
        page.evaluate("window.notReloaded = true")
        page.wait_for_selector("#validation-status.ready", timeout=180000)
        assert page.evaluate("window.notReloaded") is True
        assert "Version 1 is ready" in page.locator("#validation-status").inner_text()
        both_widths(page, "validation-ready")

        # The ladder seats it: its matches are played and listed.
        def finished_ladder_matches():
            answer = api.get(f"/api/matches/?bot={bot_id}&status=finished&ladder=true")
            return answer.ok and answer.json()["results"]

        wait_for(finished_ladder_matches, "a finished ladder match of the bot", worker, 300)
        page.reload()
        assert "Ladder: playing" in page.locator("p.ladder").inner_text()
        assert page.locator("section[aria-labelledby=matches-h] li").count() >= 1
        both_widths(page, "bot-on-ladder")
        page.goto(f"{base}/games/moonrollers/")
        wait_for(lambda: shows(page, "stella-says"), "the bot on the leaderboard", worker, 90)
        both_widths(page, "leaderboard")

        # My bots → the version → one of its matches, with the bot's own stderr.
        page.goto(f"{base}/my/bots/")
        keyboard_reaches_content(page, "my bots")
        both_widths(page, "my-bots")
        page.click(f"a[href='/bots/{bot_id}/versions/1/'] >> nth=0")
        page.wait_for_url(f"{base}/bots/{bot_id}/versions/1/")
        both_widths(page, "version")
        finished = page.locator("main table tbody tr", has_text="finished").last  # its oldest
        finished.locator("a[href^='/matches/']").click()
        page.wait_for_url(re.compile(r".*/matches/[0-9]+/$"))
        page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
        summaries = page.locator("details summary", has_text="only you see this")
        assert summaries.count() == 1, page.locator("main").inner_text()
        summaries.first.focus()
        page.keyboard.press("Enter")  # opens the details
        said = page.locator("details[open] pre").inner_text()
        assert "stella sits at seat" in said and "stella thinks" in said, said
        both_widths(page, "match-own-stderr")

        # A pasted bot that is not Python: refused on the form, with the line.
        page.goto(f"{base}/upload/")
        page.fill("#id_name", "stella-typo")
        page.select_option("#id_game", "moonrollers")
        page.fill("#id_code", "def act(observation, legal_actions)\n    return legal_actions[0]\n")
        page.click("main button[type=submit]")
        alert = page.locator("[role=alert]").first.inner_text()
        assert "the bot is not valid Python" in alert and "line 1" in alert, alert
        both_widths(page, "upload-refused")
        # One that is Python but breaks in play: rejected by its smoke match, live.
        page.fill("#id_name", "stella-broken")
        page.fill("#id_code", BROKEN_BOT)
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r".*/bots/[0-9]+/$"))
        page.wait_for_selector("#validation-status.rejected", timeout=180000)
        text = page.locator("#validation-status").inner_text()
        assert text.startswith("Version 1 was rejected: the bot failed its smoke match"), text
        assert "stella forgot the rules" in text, text
        both_widths(page, "validation-rejected")

        # A challenge from the bot page, followed to its verdict with no reload.
        page.goto(f"{base}/bots/{bot_id}/")
        page.click("text=Start a challenge")
        page.wait_for_url(f"{base}/bots/{bot_id}/challenge/")
        keyboard_reaches_content(page, "challenge form")
        page.select_option("#id_baseline", label="ref-first v1")
        page.fill("#id_max_games", "8")
        both_widths(page, "challenge-form")
        page.click("main button[type=submit]")
        # The skip link's #main stays on the address across the form's redirect.
        page.wait_for_url(re.compile(r".*/challenges/[0-9]+/(#main)?$"))
        challenge_id = int(re.search(r"/challenges/([0-9]+)/", page.url)[1])
        assert page.locator("#challenge-status").get_attribute("data-status") == "running"
        page.evaluate("window.notReloaded = true")
        both_widths(page, "challenge-running")
        page.wait_for_selector("#challenge-status:not([data-status='running'])", timeout=300000)
        assert page.evaluate("window.notReloaded") is True
        shown = page.locator("#challenge-status").get_attribute("data-status")
        told = api.get(f"/api/challenges/{challenge_id}/").json()
        assert shown == told["status"] and shown in {"accepted", "rejected", "inconclusive"}
        assert page.locator("#c-games").inner_text() == str(told["games"])
        assert told["games"] + 2 * told["discarded_pairs"] == 8
        verdict = page.locator("#c-verdict").inner_text()
        assert verdict and "this line updates" not in verdict, verdict
        assert page.locator("#c-cancel").count() == 0  # nothing left to cancel
        page.wait_for_function(
            "() => [...document.querySelectorAll('#c-matches .m-status')]"
            ".every(e => e.textContent === 'finished')",
            timeout=20000,
        )
        assert page.locator("#c-matches li").count() == 8
        both_widths(page, "challenge-verdict")
        page.goto(f"{base}/my/bots/")
        assert f"Challenge {challenge_id}" in page.locator("main").inner_text()

        # A bot that crashes in every ladder match: paused, shown on my bots, put back.
        page.goto(f"{base}/upload/")
        page.fill("#id_name", "stella-fragile")
        page.select_option("#id_game", "moonrollers")
        page.fill("#id_code", FRAGILE_BOT)
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r".*/bots/[0-9]+/"))
        fragile_id = int(re.search(r"/bots/([0-9]+)/", page.url)[1])
        page.wait_for_selector("#validation-status.ready", timeout=180000)

        def paused():
            return api.get(f"/api/bots/{fragile_id}/").json()["ladder_status"] == "paused"

        wait_for(paused, "the crash-loop pause", worker, 300)
        page.goto(f"{base}/my/bots/")
        card = page.locator("section.mybot", has_text="stella-fragile")
        status = card.locator("p.ladder").inner_text()
        assert "Ladder: paused" in status and str(CRASH_PAUSE) in status, status
        both_widths(page, "my-bots-paused")
        card.locator("button", has_text="back on the ladder").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("text=stella-fragile is back on the ladder")
        assert "/my/bots/" in page.url
        card = page.locator("section.mybot", has_text="stella-fragile")
        assert "Ladder: playing" in card.locator("p.ladder").inner_text()
        both_widths(page, "my-bots-resumed")

        assert watch.take() == []
        api.dispose()
        browser.close()
