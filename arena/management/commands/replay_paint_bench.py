"""`python manage.py replay_paint_bench [--steps 1000] [--loads 9]`: the replay viewer's
first paint, measured in Chromium.

Plays a Moonrollers match of random moves with at least `--steps` decisions (the first seed
that makes one), stores it as a finished match with its seats (a bench user's bots) in the
configured database, serves the site from a thread (static files from the apps' folders, as
the test server does) and loads the match page `--loads` times in Debian's Chromium, each
in a fresh browser context (no browser cache). The figure is the viewer's performance mark
`replay-first-board`: milliseconds from the navigation's start to the first board drawn
(the page, its scripts, the frames' JSON, parsing and drawing). The server's frames cache is
warmed by one load first, as it is for any match watched before; `--cold` clears it before
each load instead. Prints the median, the fastest and slowest load, the frames' size and
the load average. The bench user, its bots and the match are deleted at the end (`--keep`
keeps them). Static files come from the apps' folders: run it with DEBUG=1, or after
`manage.py collectstatic` (the hashed names need their manifest).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import threading
import time

from django.contrib.auth.models import User
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application

import engine
from arena.models import Bot, Match, MatchSeat
from arena.services.bots import Upload, create_bot
from arena.services.frames import CACHE
from bots.reference import builtin_path

CHROMIUM = "/usr/bin/chromium"
GAME = "moonrollers"
BENCH_USER = "replay-paint-bench"


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def long_record(steps: int, players: int) -> dict[str, object]:
    """A record of random play with at least `steps` decisions."""
    game = engine.get_game(GAME)
    for seed in range(1, 500):
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if len(state.actions) >= steps:
            record: dict[str, object] = json.loads(json.dumps(state.record()))
            return record
    raise CommandError(f"no seed under 500 gives {steps} decisions")


class Command(BaseCommand):
    help = "First paint of the replay viewer for a long match, in Chromium."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--steps", type=int, default=1000)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--loads", type=int, default=9)
        parser.add_argument("--width", type=int, default=1280)
        parser.add_argument("--cold", action="store_true", help="clear the frames cache first")
        parser.add_argument("--keep", action="store_true", help="keep the bench match")

    def handle(self, *args, steps: int, players: int, loads: int, width: int, **options) -> None:
        if not os.access(CHROMIUM, os.X_OK):
            raise CommandError(f"{CHROMIUM} is missing (scripts/test.sh installs Chromium)")
        record = long_record(steps, players)
        user, _ = User.objects.get_or_create(username=BENCH_USER)
        match = self._match(user, record, players)
        server = ThreadedWSGIServer(("127.0.0.1", 0), _Quiet)
        server.set_app(StaticFilesHandler(get_wsgi_application()))
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_address[1]}/matches/{match.pk}/"
        try:
            times, size = self._measure(url, loads, width, options["cold"])
        finally:
            server.shutdown()
            if not options["keep"]:
                Match.objects.filter(pk=match.pk).delete()
                Bot.objects.filter(owner=user).delete()
                user.delete()
        load1, load5, load15 = os.getloadavg()
        self.stdout.write(
            f"replay first paint, {GAME} match of {len(record['actions'])} steps "  # type: ignore[arg-type]
            f"({players} players), frames {size / 1e6:.2f} MB, {width} px, "
            f"{'cold' if options['cold'] else 'warm'} frames cache, {loads} loads:\n"
            f"  median {statistics.median(times):.0f} ms, fastest {min(times):.0f} ms, "
            f"slowest {max(times):.0f} ms\n"
            f"  load average {load1:.2f} {load5:.2f} {load15:.2f} ({os.cpu_count()} CPUs)"
        )

    def _match(self, user: User, record: dict[str, object], players: int) -> Match:
        path = builtin_path("random", GAME)
        assert path is not None
        bot = Bot.objects.filter(owner=user, game=GAME).first()
        if bot is None:
            bot = create_bot(
                user, "paint-bench-random", GAME, Upload("bot.py", path.read_bytes()), smoke=False
            )
        match = Match.objects.create(
            game=GAME,
            rules_version=str(record["rules_version"]),
            players=players,
            seed=int(record["seed"]),  # type: ignore[call-overload]
            status=Match.Status.FINISHED,
            purpose=Match.Purpose.CHALLENGE,
            record=record,
            result=record["result"],
            decisions=len(record["actions"]),  # type: ignore[arg-type]
        )
        version = bot.latest_version()
        for seat in range(players):
            MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=version)
        return match

    def _measure(self, url: str, loads: int, width: int, cold: bool) -> tuple[list[float], int]:
        from playwright.sync_api import sync_playwright

        times: list[float] = []
        size = 0
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for index in range(loads + 1):
                if cold:
                    caches[CACHE].clear()
                context = browser.new_context(viewport={"width": width, "height": 900})
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))

                def sized(response, page=page) -> None:
                    nonlocal size
                    if "/frames/" in response.url:
                        size = len(response.body())

                page.on("response", sized)
                page.goto(url)
                page.wait_for_selector("#replay svg.board", timeout=60000)
                mark = page.evaluate(
                    "performance.getEntriesByName('replay-first-board')[0].startTime"
                )
                context.close()
                if errors:
                    raise CommandError(f"the page failed: {errors}")
                if index or cold:  # the first warm-up load fills the server's frames cache
                    times.append(float(mark))
                time.sleep(0.2)
            browser.close()
        return times[:loads], size
