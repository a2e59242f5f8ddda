"""The drawn replay boards in Chromium, on real recorded matches (bots in real processes).

For every game with a board (arena/static/arena/boards/<game>.js), every view (spectator,
each seat, revealed) and a desktop and a phone width: the board renders (the plugin
conventions of boards/common.js), the arrow keys, Home/End and the scrubber change it (its
data-step and its drawing), a link to step N opens at N, and no view draws a face-up card
that its observation does not hold (each drawn data-card is among the observation's values;
hidden pieces are data-hidden and counted against the observation). Moon Adventure is
drawn for a succeeded and a failed mission. One live server, a few matches; screenshots
land in var/screenshots/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest

from arena.models import Bot, Match, MatchSeat, Tournament
from tests.arena.web.site_data import GAMES, PASSWORD, build_site, play_queued
from tests.arena.web.test_browser import CHROMIUM, SHOTS, Watch, horizontal_overflow

ROOT = Path(__file__).resolve().parents[3]
BOARDS = ROOT / "arena" / "static" / "arena" / "boards"
# The games whose board exists on this branch (the others show the data view).
DRAWN = [g for g in GAMES if (BOARDS / f"{g}.js").is_file()]
WIDTHS = (1280, 375)
TOKENS_DRAWN = 12

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def extra_match(game: str, bots: list[int], seed: int) -> int:
    """One more match of the game's tournament with these bots and seed, played."""
    tournament = Tournament.objects.get(game=game, format=Tournament.Format.ROUND_ROBIN)
    import engine

    match = tournament.new_match(engine.get_game(game), len(bots), seed)
    match.save()
    for seat, bot_id in enumerate(bots):
        version = Bot.objects.get(pk=bot_id).latest_version()
        MatchSeat.objects.create(match=match, seat=seat, bot_id=bot_id, bot_version=version)
    play_queued()
    return match.pk


def leaves(value: Any) -> set[str]:
    """Every scalar in a view, as text: what a drawn data-card may name."""
    if isinstance(value, dict):
        return set().union(*(leaves(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(leaves(v) for v in value)) if value else set()
    return {json.dumps(value) if not isinstance(value, str) else value}


def hidden_count(game: str, view: dict[str, Any]) -> int | None:
    """How many pieces this view cannot identify, when the game's board draws each one."""
    if game == "moon_adventure":
        chips = [s for s in view["track"] if s["kind"] == "supply"]
        chips += [i for slots in view["containers"] for i in slots if i and "area" in i]
        return sum(1 for c in chips if c["broken"] is None)
    if game == "moonrollers":
        known = view.get("my_hazard_tokens")
        counts = [p["hazard_tokens"] for p in view["players"]]
        if "seats" in view or all("hazard_kinds" in p for p in view["players"]):
            return 0
        mine = view.get("seat")
        # The board draws at most TOKENS_DRAWN tokens a seat (and "+n" for the rest).
        return sum(
            min(n, TOKENS_DRAWN) for seat, n in enumerate(counts) if seat != mine or known is None
        )
    return None


def board_state(page) -> dict[str, Any]:
    return page.evaluate(
        """() => { const b = document.querySelector('#replay-board svg.board');
        if (!b) return null;
        return { step: b.dataset.step, html: b.outerHTML, cls: b.getAttribute('class'),
          cards: [...b.querySelectorAll('[data-card]')].map(e => e.dataset.card),
          hidden: b.querySelectorAll('[data-hidden="1"]').length,
          hiddenLeaks: [...b.querySelectorAll('[data-hidden="1"] [data-card]')].length,
          seats: [...new Set([...b.querySelectorAll('[data-seat]')].map(e => e.dataset.seat))] }; }"""
    )


def scrub(page, at: int) -> None:
    page.evaluate(
        "n => { const s = document.getElementById('replay-scrubber'); s.value = n;"
        " s.dispatchEvent(new Event('input')); }",
        at,
    )


def check_view(page, base, game, match_id, view, frames, width, players) -> None:
    steps = len(frames) - 1
    option = view[5:] if view.startswith("seat:") else view
    page.goto(f"{base}/matches/{match_id}/", wait_until="networkidle")
    page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
    if option != "spectator":
        page.select_option("#replay-view", option)
        page.wait_for_selector("#replay[data-ready='1']")
    page.focus("#replay")  # the keys step the replay unless a control has the focus
    first = board_state(page)
    assert first is not None, (game, view, "no board drawn")
    assert first["cls"] == f"board board-{game}" and first["step"] == "0"
    assert sorted(first["seats"]) == [str(s) for s in range(players)], first["seats"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    moved = board_state(page)
    assert moved["step"] == "2" and moved["html"] != first["html"], (game, view)
    page.keyboard.press("End")
    assert board_state(page)["step"] == str(steps)
    page.keyboard.press("Home")
    assert board_state(page)["step"] == "0"
    middle = steps // 2
    scrub(page, middle)
    scrubbed = board_state(page)
    assert scrubbed["step"] == str(middle) and scrubbed["html"] != first["html"]
    assert page.locator("#replay-counter").inner_text() == f"Step {middle} of {steps}"
    # What each drawn step shows against what that view received.
    for at in sorted({0, 1, steps // 3, middle, steps}):
        scrub(page, at)
        drawn = board_state(page)
        shown = frames[at]["view"]
        assert drawn["step"] == str(at)
        unknown = set(drawn["cards"]) - leaves(shown)
        assert not unknown, (game, view, at, unknown)
        assert drawn["hiddenLeaks"] == 0
        expected = hidden_count(game, shown)
        if expected is not None:
            assert drawn["hidden"] == expected, (game, view, at, drawn["hidden"], expected)
    if width == 375:
        assert horizontal_overflow(page) <= 0, f"{game} {view} scrolls sideways at 375 px"
    # The address follows the step; a link to step N opens at N.
    page.focus("#replay")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == f"#step={steps - 1}"
    page.goto(f"{base}/matches/{match_id}/#step={middle - 1}", wait_until="networkidle")
    page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
    assert board_state(page)["step"] == str(middle - 1)
    page.goto(f"{base}/matches/{match_id}/?step=3", wait_until="networkidle")
    page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
    assert board_state(page)["step"] == "3"


def test_the_boards_in_chromium(live_server, settings):
    settings.ARENA_BOT_ISOLATION = "process"
    assert {"moonrollers", "moon_adventure"} <= set(DRAWN)
    site = build_site(games=DRAWN, knockout=False)
    matches = {g: site.matches[g] for g in DRAWN}
    heuristic, random_bot = site.bots["moon_adventure"]
    missions = {
        "success": extra_match("moon_adventure", [heuristic, heuristic], 6),
        "failure": extra_match("moon_adventure", [random_bot, random_bot], 3),
    }
    base = live_server.url
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        watch = Watch(page)
        api = page.request
        for outcome, match_id in missions.items():
            result = api.get(f"{base}/api/matches/{match_id}/").json()["result"]
            assert result["outcome"] == outcome, result
            page.goto(f"{base}/matches/{match_id}/#step=999999", wait_until="networkidle")
            page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
            drawn = page.locator("#replay-board svg.board g.outcome")
            assert drawn.get_attribute("data-outcome") == outcome
            said = page.locator("#replay-board svg").inner_html()
            verdict = "Mission succeeded" if outcome == "success" else "Mission failed"
            assert verdict in said
            page.screenshot(path=str(SHOTS / f"board-moon_adventure-{outcome}.png"))
        assert watch.take() == []

        for game, match_id in {**matches, "moon_adventure-success": missions["success"]}.items():
            game = game.split("-")[0]
            players = len(api.get(f"{base}/api/matches/{match_id}/").json()["seats"])
            views = ["spectator", *(f"seat:{s}" for s in range(players)), "revealed"]
            frames = {
                v: api.get(f"{base}/api/matches/{match_id}/frames/?view={v}").json()["frames"]
                for v in views
            }
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                for view in views:
                    check_view(page, base, game, match_id, view, frames[view], width, players)
                    assert watch.take() == [], (game, view, width)
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"board-{game}-{width}.png"), full_page=True)
            # The chart of each seat's series, and a jump to the next event of a kind.
            page.wait_for_selector("#replay[data-charts='1']")
            lines = page.locator("#replay-charts svg polyline")
            assert lines.count() == players
            kinds = page.locator("#replay-event option").all_inner_texts()
            assert kinds, game
            page.focus("#replay")
            page.keyboard.press("Home")
            page.click("#replay-event-next")
            assert int(page.locator("#replay").get_attribute("data-step")) > 0
            # The actor's own view lists the legal actions it had, its choice marked.
            page.select_option("#replay-view", "0")
            page.wait_for_selector("#replay[data-ready='1']")
            seat0 = frames["seat:0"]
            at = next(f["index"] for f in seat0 if f["actor"] == 0)
            page.goto(f"{base}/matches/{match_id}/#step={at}", wait_until="networkidle")
            page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
            page.select_option("#replay-view", "0")
            page.wait_for_selector("#replay[data-ready='1']")
            assert page.locator("#replay-legal li").count() == len(seat0[at]["legal"])
            assert page.locator("#replay-legal li.chosen").count() >= 1
            assert watch.take() == [], game
        browser.close()


def off_the_loop(write) -> None:
    """Run a database write in a thread of its own: Playwright's loop makes this thread
    async to Django."""
    import threading

    done: list[BaseException] = []

    def run() -> None:
        try:
            write()
        except BaseException as exc:  # handed to the test below
            done.append(exc)
        finally:
            from django.db import connection

            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if done:
        raise done[0]


def test_a_running_match_is_watched_live(live_server):
    """The page of a running match opens at its latest step and follows new ones as the
    worker stores them (workers/tasks.py `_live_records`), then says when it is over."""
    import random

    import engine

    state = engine.get_game("moon_adventure").new_state(2, 6)
    rng = random.Random(6)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    full = json.loads(json.dumps(state.record()))
    partial = {**full, "actions": full["actions"][:5], "result": None}
    match = Match.objects.create(
        game="moon_adventure",
        rules_version=full["rules_version"],
        players=2,
        seed=6,
        status=Match.Status.RUNNING,
        record=partial,
    )
    base = live_server.url
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 375, "height": 800})
        watch = Watch(page)
        page.goto(f"{base}/matches/{match.pk}/", wait_until="networkidle")
        page.wait_for_selector("#replay[data-ready='1']", timeout=60000)
        assert board_state(page)["step"] == "5"
        assert page.locator("#replay-view option[value='revealed']").count() == 0
        partial["actions"] = full["actions"][:12]
        off_the_loop(lambda: Match.objects.filter(pk=match.pk).update(record=partial))
        page.wait_for_selector("#replay svg.board[data-step='12']", timeout=20000)
        assert "Live: 12 steps so far" in page.locator("#replay-live").inner_text()
        off_the_loop(
            lambda: Match.objects.filter(pk=match.pk).update(
                record=full, status=Match.Status.FINISHED, result=full["result"]
            )
        )
        last = len(full["actions"])
        page.wait_for_selector(f"#replay svg.board[data-step='{last}']", timeout=20000)
        assert page.locator("#replay-live").inner_text() == "The match is over."
        assert page.locator("#replay-board g.outcome").get_attribute("data-outcome")
        assert watch.take() == []
        browser.close()


def test_a_running_match_has_no_revealed_view(live_server, client):
    match = Match.objects.create(
        game="moonrollers", rules_version="x", players=2, seed=1, status="running"
    )
    response = client.get(f"/api/matches/{match.pk}/frames/?view=revealed")
    assert response.status_code == 409


TALKER = (
    "class Bot:\n"
    "    def setup(self, info):\n"
    "        self.moves = 0\n"
    "    def act(self, observation, legal_actions):\n"
    "        self.moves += 1\n"
    "        print('thinking about decision', self.moves)\n"
    "        return legal_actions[0]\n"
)


def test_the_author_reads_what_the_bot_wrote_at_each_step(live_server, settings):
    """The runner marks each move's stderr; the viewer shows, at a step of the author's
    seat, the lines its bot wrote while deciding it (and nobody else sees them)."""
    settings.ARENA_BOT_ISOLATION = "process"
    site = build_site(games=["moonrollers"], knockout=False)
    owner = Bot.objects.get(pk=site.bots["moonrollers"][0]).owner
    talker = Bot.objects.create(owner=owner, name="talker", game="moonrollers")
    talker.add_version(TALKER.encode(), "bot.py")
    match_id = extra_match("moonrollers", [talker.pk, site.bots["moonrollers"][1]], 4)
    with urlopen(f"{live_server.url}/api/matches/{match_id}/frames/?view=seat:0") as answer:
        frames = json.loads(answer.read())["frames"]
    steps = [f["index"] for f in frames if f["actor"] == 0]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{live_server.url}/matches/{match_id}/#step={steps[2]}")
        page.wait_for_selector("#replay[data-ready='1']")
        page.select_option("#replay-view", "0")
        page.wait_for_selector("#replay[data-ready='1'] #replay-action-box")
        assert page.locator("#replay-stderr-step").count() == 0  # not the author
        page.goto(f"{live_server.url}/login/")
        page.fill("input[name=username]", owner.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form.narrow button[type=submit]")
        page.wait_for_load_state()
        for n in (1, 3):
            page.goto(f"{live_server.url}/matches/{match_id}/?step={steps[n - 1]}")
            page.wait_for_selector("#replay[data-ready='1']")
            page.select_option("#replay-view", "0")
            page.wait_for_selector("#replay-stderr-step")
            assert page.locator("#replay-stderr-step").inner_text() == (
                f"thinking about decision {n}"
            )
        browser.close()
