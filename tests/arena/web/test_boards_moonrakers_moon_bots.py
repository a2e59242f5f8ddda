"""The drawn boards of Moonrakers (with Overload) and Moon-Bots, in Debian's Chromium.

Two matches are played by the referee with the reference bots in real processes
(heuristic against random, fixed seeds: the Moonrakers one plays and buys Overload cards,
the Moon-Bots one ends in eliminations). Their frames come from the live server's frames
API, one request per view; a page that loads the viewer's shared common.js and each board
file draws every frame of the match, for the spectator, each seat and the revealed view,
at 1280 and 375 px. For every frame: the board draws without a script error,
its root is `<svg class="board board-<game>" data-step="<index>">`, it fits the width
(nothing scrolls sideways at 375), every face-up card it draws is named in that view,
face-down cards carry nothing that identifies them, and a seat sees exactly its own hand
(or its robots' secret weapons) face up and of everyone else only what the table knows;
the revealed view shows every hand and weapon.
The Overload cards and the eliminations are drawn at their steps; reaction windows while
they are open. Screenshots of each board (400 px wide) at the start, middle and end of its
match land in var/screenshots/ (docs/viewers/ holds copies).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from arena.models import Match
from arena.services.bots import Upload, create_bot
from arena.services.tournaments import create_tournament
from bots.reference import builtin_path
from tests.arena.web.site_data import PASSWORD, play_queued
from tests.arena.web.test_browser import CHROMIUM, Watch

ROOT = Path(__file__).resolve().parents[3]
BOARDS = ROOT / "arena" / "static" / "arena" / "boards"
SHOTS = ROOT / "var" / "screenshots"
GAMES = ["moonrakers", "moon_bots"]
# Seeds whose matches (heuristic in seat 0, random in seat 1) show the moments the test
# looks for: Overload cards played and bought; robots eliminated, weapons played.
SEEDS = {"moonrakers": 1, "moon_bots": 1}
WIDTHS = (1280, 375)
EVENTS = {
    "moonrakers": {"roll", "purchase", "hire", "contract", "overload", "prestige"},
    "moon_bots": {"roll", "purchase", "attack", "reaction", "weapon", "elimination"},
}
WINDOWS = {"defend", "start_of_turn", "after_roll", "energy_pump"}

HARNESS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>board</title>
<style>body{margin:0;font-family:sans-serif} #board{max-width:480px;margin:0 auto}</style>
</head><body><div id="board"></div></body></html>"""

# Draws every frame in turn and reports what each drawing shows.
PROBE = """([frames, ctx]) => {
  const board = window.MoonBoards[ctx.game], host = document.getElementById("board");
  ctx.svg = window.MoonBoards.svg;  // common.js's helpers, as the viewer passes them
  const cardsIn = (root) => [...root.querySelectorAll("[data-card]")].map(
    (e) => e.getAttribute("data-card"));
  const hiddenIn = (root) => root.querySelectorAll("[data-hidden='1']").length;
  return frames.map((frame, i) => {
    const svg = board.draw(frame, ctx);
    host.replaceChildren(svg);
    const hands = {}, weapons = {};
    for (const area of svg.querySelectorAll("[data-seat]")) {
      const hand = area.querySelector(".hand");
      if (hand) hands[area.getAttribute("data-seat")] = [cardsIn(hand), hiddenIn(hand)];
    }
    for (const robot of svg.querySelectorAll(".robot[data-robot]")) {
      const held = robot.querySelector(".secret-weapons");
      weapons[robot.getAttribute("data-robot")] = [cardsIn(held), hiddenIn(held)];
    }
    const leaky = [...svg.querySelectorAll("[data-hidden]")].filter((e) =>
      e.querySelector("[data-card]") || e.hasAttribute("data-card")
      || !/^\\??(cost \\d+)?$/.test(e.textContent.replace("face down", "")));
    return {
      tag: svg.tagName, cls: svg.getAttribute("class"), step: svg.getAttribute("data-step"),
      width: svg.getBoundingClientRect().width,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      cards: cardsIn(svg), hands: hands, weapons: weapons, leaky: leaky.length,
      overload: [...svg.querySelectorAll("[data-overload='1'][data-card]")].map(
        (e) => e.getAttribute("data-card")),
      eliminated: [...svg.querySelectorAll(".robot[data-eliminated='1']")].map(
        (e) => Number(e.getAttribute("data-robot"))),
      windows: [...svg.querySelectorAll(".reaction-window")].map(
        (e) => e.getAttribute("data-window")),
      events: board.events(frame, i ? frames[i - 1] : null, ctx),
      series: board.series(frame, ctx),
    };
  });
}"""


def strings(value: Any) -> set[str]:
    """Every string value in a JSON value (not its keys): what a view names."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


def play_matches() -> dict[str, int]:
    """One match per game, heuristic against random, played by the referee."""
    owner = User.objects.create_user("bea", password=PASSWORD)
    organiser = User.objects.create_user("otto-org", password=PASSWORD)
    organiser.groups.add(Group.objects.get_or_create(name="organisers")[0])
    matches = {}
    for game in GAMES:
        ids = []
        for name in ("heuristic", "random"):
            path = builtin_path(name, game)
            assert path is not None
            upload = Upload("bot.py", path.read_bytes())
            ids.append(create_bot(owner, f"{game}-{name}", game, upload, smoke=False).pk)
        tournament = create_tournament(
            organiser,
            name=f"{game} boards",
            game=game,
            bots=ids,
            players_per_match=2,
            options={"expansions": ["overload"]} if game == "moonrakers" else {},
            limits={"match_seconds": 120},
        )
        queued = Match.objects.filter(tournament=tournament, status=Match.Status.QUEUED)
        assert queued.count() == 1
        match = queued.get()
        # The seating the seeds were chosen for: heuristic in seat 0.
        assert list(match.seats.order_by("seat").values_list("bot_id", flat=True)) == ids
        queued.update(seed=SEEDS[game])
        play_queued()
        matches[game] = match.pk
    return matches


def check_hidden(game: str, view: dict[str, Any], seat: int | None, drawn: dict) -> None:
    """A seat sees its own hand / weapons face up; of the others, only what is public.
    The revealed view (`seats`: every seat's observation) shows every hand and weapon."""
    seats = view.get("seats")
    if game == "moonrakers":
        for q, player in enumerate(view["players"]):
            up, down = drawn["hands"][str(q)]
            if seats is not None:
                assert (sorted(up), down) == (sorted(seats[q]["hand"]), 0), (q, up, down)
            elif q == seat:
                assert (sorted(up), down) == (sorted(view["hand"]), 0), (q, up, down)
            else:
                assert Counter(up) == Counter(player["known_hand"]), (q, up, player)
                assert down == player["hand_size"] - len(player["known_hand"]), (q, down)
    else:
        for robot in view["robots"]:
            up, down = drawn["weapons"][str(robot["robot"])]
            if seats is not None:
                held = seats[robot["owner"]]["robots"][robot["robot"]]["secret_weapons"]
                assert sorted(up) == sorted(held) and down == 0, robot
            elif robot["owner"] == seat:
                assert sorted(up) == sorted(robot["secret_weapons"]) and down == 0, robot
            else:
                assert robot["secret_weapons"] is None, robot
                assert (up, down) == ([], robot["secret_weapon_count"]), (up, down)


def check_view(
    game: str, frames: list[dict], seat: int | None, drawn: list[dict], width: int, players: int
) -> None:
    assert len(drawn) == len(frames)
    for frame, shown in zip(frames, drawn, strict=True):
        view, where = frame["view"], (game, seat, width, frame["index"])
        assert shown["tag"].lower() == "svg" and shown["cls"] == f"board board-{game}", where
        assert shown["step"] == str(frame["index"]), where
        assert shown["width"] <= width + 0.5 and shown["overflow"] <= 0, (where, shown)
        assert shown["leaky"] == 0, where
        # Every face-up card is one the view names: nothing comes from elsewhere.
        unknown = set(shown["cards"]) - strings(view)
        assert not unknown, (where, unknown)
        check_hidden(game, view, seat, shown)
        assert set(shown["events"]) <= EVENTS[game], (where, shown["events"])
        series = shown["series"]
        assert len(series["values"]) == players, where
        if game == "moonrakers":
            assert series["label"] == "Prestige", where
            assert series["values"] == [p["prestige"] for p in view["players"]], where
            if "overload" in shown["events"]:
                assert shown["overload"], where  # Overload cards on the table at that step
        else:
            assert series["label"] == "Energy", where
            out = {r["robot"] for r in view["robots"] if not r["alive"]}
            assert sorted(shown["eliminated"]) == sorted(view["eliminated_robots"]), where
            assert out == set(view["eliminated_robots"]), where
            decision = view.get("decision")
            kind = decision["kind"] if decision else None
            assert shown["windows"] == ([kind] if kind in WINDOWS else []), where


def busy(game: str, frame: dict, shown: dict) -> bool:
    """A moment worth a picture: a contract attempt under way, a reaction window open."""
    if game == "moonrakers":
        return bool((frame["view"].get("contract") or {}).get("execution"))
    return bool(shown["windows"])


def screenshot(page, frames: list[dict], drawn: list[dict], ctx: dict, game: str) -> list[Path]:
    """The board at the start, in the middle (the first busy step from half way) and at
    the end of the match."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    half = len(frames) // 2
    middle = next((i for i in range(half, len(frames)) if busy(game, frames[i], drawn[i])), half)
    saved = []
    for moment, index in (("start", 0), ("middle", middle), ("end", len(frames) - 1)):
        page.evaluate(
            "([frame, ctx]) => document.getElementById('board').replaceChildren("
            "window.MoonBoards[ctx.game].draw(frame, ctx))",
            [frames[index], ctx],
        )
        path = SHOTS / f"{game}-{moment}.png"
        page.locator("#board svg").screenshot(path=str(path))
        assert path.stat().st_size < 150_000, (path, path.stat().st_size)
        saved.append(path)
    return saved


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_boards_draw_every_frame_of_real_matches_in_every_view(live_server, settings):
    settings.ARENA_BOT_ISOLATION = "process"
    matches = play_matches()
    base = live_server.url
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": WIDTHS[0], "height": 900})
        watch = Watch(page)
        page.set_content(HARNESS)
        page.add_script_tag(path=str(BOARDS / "common.js"))
        for game in GAMES:
            page.add_script_tag(path=str(BOARDS / f"{game}.js"))
        for game in GAMES:
            match_id = matches[game]
            api = page.request.get(f"{base}/api/matches/{match_id}/").json()
            names = [s["bot"] for s in sorted(api["seats"], key=lambda s: s["seat"])]
            seen_events: Counter[str] = Counter()
            views = [("spectator", None), ("seat:0", 0), ("seat:1", 1), ("revealed", None)]
            for view_name, seat in views:
                reply = page.request.get(f"{base}/api/matches/{match_id}/frames/?view={view_name}")
                assert reply.ok, reply.status
                frames = reply.json()["frames"]
                assert frames[-1]["result"] is not None
                ctx = {
                    "game": game,
                    "players": 2,
                    "names": names,
                    "view": view_name,
                    "seat": seat,
                }
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 900})
                    drawn = page.evaluate(PROBE, [frames, ctx])
                    check_view(game, frames, seat, drawn, width, players=2)
                    assert watch.take() == [], (game, view_name, width)
                for shown in drawn:
                    seen_events.update(shown["events"])
                check_moments(game, frames, drawn)
                if view_name == "spectator":
                    page.set_viewport_size({"width": 400, "height": 900})  # a phone, about
                    screenshot(page, frames, drawn, ctx, game)
            # The match shows the moments its seed was chosen for, in every view alike.
            wanted = {"moonrakers": {"overload", "roll", "purchase", "contract"}}.get(
                game, {"attack", "reaction", "weapon", "elimination"}
            )
            assert wanted <= set(seen_events), (game, seen_events)
        assert watch.take() == []
        browser.close()


def check_moments(game: str, frames: list[dict], drawn: list[dict]) -> None:
    """The match's unusual moments are on the board at their steps."""
    if game == "moonrakers":
        steps = [i for i, shown in enumerate(drawn) if "overload" in shown["events"]]
        assert steps, "no Overload card played, bought or used"
        # At some of them the very card of the action is drawn face up, marked Overload.
        named = [
            i
            for i in steps
            if any(isinstance(a, str) and a in drawn[i]["overload"] for a in frames[i]["action"])
        ]
        assert named, steps
    else:
        steps = [i for i, shown in enumerate(drawn) if "elimination" in shown["events"]]
        assert steps, "no elimination"
        for i in steps:
            newly = set(frames[i]["view"]["eliminated_robots"])
            newly -= set(frames[i - 1]["view"]["eliminated_robots"])
            assert newly and newly <= set(drawn[i]["eliminated"]), (i, newly)
            assert not newly & set(drawn[i - 1]["eliminated"]), i
        assert any(shown["windows"] for shown in drawn), "no reaction window drawn"


def board_data(name: str) -> dict[str, Any]:
    """One table of the card data copied into moonrakers.js (JSON between its markers)."""
    source = (BOARDS / "moonrakers.js").read_text()
    block = source.split("// BEGIN DATA", 1)[1].split("// END DATA", 1)[0]
    found = re.search(rf"var {name} = (\{{.*?\n  \}});", block, re.S)
    assert found is not None, name
    table: dict[str, Any] = json.loads(found.group(1))
    return table


def test_the_moonrakers_board_carries_the_engines_card_data():
    """The board's copy of the public card data is the engine's (names, sets, contracts)."""
    folder = ROOT / "engine" / "games" / "moonrakers" / "data"
    contracts = json.loads((folder / "contracts.json").read_text())["contracts"]
    assert board_data("CONTRACTS") == {
        c["id"]: [
            c["name"],
            c["type"],
            c["mode"],
            c["prestige"],
            c["credits"],
            c["bonus"],
            c["req"],
            c["hazard_dice"],
            int(c["set"] == "overload"),
            c.get("counts", []),
            c.get("second_credits", 0),
        ]
        for c in contracts
    }
    for table, file in (("CREW", "crew"), ("PARTS", "parts"), ("OBJECTIVES", "objectives")):
        cards = json.loads((folder / f"{file}.json").read_text())[file]
        assert board_data(table) == {
            c["id"]: [c["name"], int(c["set"] == "overload")] for c in cards
        }
    actions = json.loads((folder / "action_cards.json").read_text())["cards"]
    assert board_data("ACTIONS") == {
        c["id"]: [c["name"], c["cat"], int(not c["basic"])] for c in actions
    }
