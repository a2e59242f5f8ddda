"""Every page in Chromium under axe-core, and by keyboard alone.

Every route of arena/web/urls.py that shows a page is visited (a check below fails when a
new route is left out), logged out and logged in as a bot's owner, at desktop (1280 px) and
phone (375 px) widths, forms with their errors too. axe-core finds no serious or critical
violation on any of them, and no aria-describedby, aria-labelledby or label points at an id
that is not there (axe lets that pass); every violation it finds lands in var/screenshots/axe.json, and a
screenshot of every page in var/screenshots/a11y-*.png. By keyboard: the first Tab shows the
skip link, and Tab reaches every visible control of the page, each with a visible focus ring.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.urls import resolve

from arena.web.urls import urlpatterns
from tests.arena.web.axe import (
    axe_path,
    axe_violations,
    blocking,
    dangling_references,
    write_report,
)
from tests.arena.web.site_data import GAMES, PASSWORD, build_site
from tests.arena.web.test_browser import CHROMIUM, SHOTS, Watch, shot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Routes that only take a form's POST and redirect: no page of their own to check.
ACTIONS = {
    "web-bot-active",
    "web-bot-ladder-resume",
    "web-logout",
    "web-challenge-cancel",
    "web-token-revoke",
    "web-login-token-revoke",
}
WIDTHS = (1280, 375)

# Counts the controls a keyboard user must reach, and records each element that takes the
# focus and whether a focus ring shows on it (an outline or a box shadow).
_WATCH_FOCUS = """() => {
  // From the top, as on arrival, even where a form put the cursor in its first field.
  document.body.tabIndex = -1;
  document.body.focus();
  document.body.removeAttribute("tabindex");
  window.__reached = new Set();
  window.__ringless = [];
  document.addEventListener("focusin", (event) => {
    const el = event.target, style = getComputedStyle(el);
    window.__reached.add(el);
    const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0)
      || style.boxShadow !== "none";
    if (!ring) window.__ringless.push(el.outerHTML.slice(0, 120));
  });
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary,'
    + ' [tabindex]:not([tabindex="-1"])';
  window.__controls = [...document.querySelectorAll(controls)]
    .filter((el) => !el.disabled && el.checkVisibility({ visibilityProperty: true }));
  return window.__controls.length;
}"""
_UNREACHED = """() => window.__controls.filter((el) => !window.__reached.has(el))
  .map((el) => el.outerHTML.slice(0, 120))"""


def tab_through(page, name: str) -> None:
    """Tab from the top of the page: the skip link first, then every visible control."""
    count = page.evaluate(_WATCH_FOCUS)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip", name
    box = page.locator("a.skip").bounding_box()
    assert box is not None and box["x"] >= 0, f"{name}: the skip link stays off screen"
    for _ in range(count + 2):
        page.keyboard.press("Tab")
    assert page.evaluate(_UNREACHED) == [], f"{name}: controls Tab never reaches"
    assert page.evaluate("window.__ringless") == [], f"{name}: focus with no visible ring"


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/my/bots/")


def with_errors(page, base: str, logged_in: bool) -> str:
    """A form sent wrong, so its error messages are checked too; returns the page's name."""
    if logged_in:
        page.goto(f"{base}/upload/")
        page.fill("#id_name", "not-python")
        page.set_input_files(
            "#id_file", files=[{"name": "bot.py", "mimeType": "text/plain", "buffer": b"def ("}]
        )
        page.click("main button[type=submit]")
        page.wait_for_selector("main .error")
        return "upload-rejected"
    page.goto(f"{base}/signup/")
    page.fill("#id_username", "someone")
    page.fill("#id_password1", "a-long-pass-77")
    page.fill("#id_password2", "another-pass-88")
    page.click("main button[type=submit]")
    page.wait_for_selector("main .error")
    return "signup-errors"


def _challenge(site) -> int:
    """One of the owner's challenges (the site has none): its two Moon-Bots bots' versions."""
    from arena.models import Bot
    from arena.services.challenges import create_challenge

    first, second = (Bot.objects.get(pk=pk).latest_version() for pk in site.bots["moon_bots"][:2])
    return create_challenge(
        site.owner, game="moon_bots", candidate=first.pk, baseline=second.pk, max_games=4
    ).pk


def test_every_page_passes_axe_and_the_keyboard(live_server, settings):
    axe_path()  # fail at once, before the site is built, when axe-core is missing
    settings.ARENA_BOT_ISOLATION = "process"
    site = build_site()
    base = live_server.url
    bot = site.bots["moon_bots"][0]
    challenge = _challenge(site)
    public = {
        "home": "/",
        **{f"game-{g}": f"/games/{g}/" for g in GAMES},
        "bot": f"/bots/{site.bots['moon_bots'][0]}/",
        "tournaments": "/tournaments/",
        "tournaments-filtered": "/tournaments/?game=moon_bots&format=knockout",
        "tournament": f"/tournaments/{site.tournaments['moonrollers']}/",
        "knockout": f"/tournaments/{site.knockout}/",
        **{f"match-{g}": f"/matches/{site.matches[g]}/" for g in GAMES},
        "signup": "/signup/",
        "login": "/login/",
    }
    # The owner sees more: the navigation, the upload form and pause button, stderr.
    own = {
        "home": "/",
        "bot": f"/bots/{site.bots['moon_bots'][0]}/",
        "match-moon_bots": f"/matches/{site.matches['moon_bots']}/",
        "my-bots": "/my/bots/",
        "upload": "/upload/",
        "tokens": "/my/tokens/",
        "upload-version": f"/bots/{bot}/upload/",
        "version": f"/bots/{bot}/versions/1/",
        "challenge-new": f"/bots/{bot}/challenge/",
        "challenge": f"/challenges/{challenge}/",
    }
    report: dict[str, list[dict]] = {}
    routes: set[str] = set()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for width in WIDTHS:
            for who, pages in (("anon", public), ("owner", own)):
                context = browser.new_context(viewport={"width": width, "height": 800})
                page = context.new_page()
                watch = Watch(page)
                if who == "owner":
                    log_in(page, base, site.owner.username)
                for name, path in pages.items():
                    page.goto(f"{base}{path}", wait_until="networkidle")
                    if name.startswith("match-"):
                        page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
                    routes.add(resolve(urlsplit(page.url).path).url_name)
                    report[f"{who}/{name}@{width}"] = axe_violations(page)
                    assert dangling_references(page) == [], name
                    shot(page, f"a11y-{who}-{name}-{width}")
                    if width == WIDTHS[0]:
                        tab_through(page, f"{who}/{name}")
                name = with_errors(page, base, who == "owner")
                report[f"{who}/{name}@{width}"] = axe_violations(page)
                assert dangling_references(page) == [], name
                shot(page, f"a11y-{who}-{name}-{width}")
                if width == WIDTHS[0]:
                    tab_through(page, f"{who}/{name}")
                assert watch.take() == [], (who, width)
                context.close()
        browser.close()

    write_report(SHOTS / "axe.json", report)
    bad = {name: blocking(found) for name, found in report.items() if blocking(found)}
    assert bad == {}, bad
    pages = {p.name for p in urlpatterns if p.name} - ACTIONS
    assert pages - routes == set(), "pages of arena/web/urls.py that this test never visits"
