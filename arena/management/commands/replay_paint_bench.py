"""`python manage.py replay_paint_bench [--steps 1000] [--loads 9]`: the replay viewer's
first paint, measured in Chromium.

Plays a Moonrollers match of random moves with at least `--steps` decisions (the first seed
that makes one), stores it as a finished match with its seats (a bench user's bots) in the
configured database, serves the site from a thread and loads the match page `--loads` times
in Debian's Chromium, each in a fresh browser context (no browser cache). The figure is the
viewer's performance mark `replay-first-board`: milliseconds from the navigation's start to
the first board drawn (the page, its scripts, the frames' JSON, parsing and drawing). The
server's frames cache is warmed by one load first, as it is for any match watched before;
`--cold` clears it before each load instead (then the server replays the match first).
Prints the median, the fastest and slowest load, the frames' size and the load average.
The bench user, its bots and the match are deleted at the end.

Static files come from the apps' folders: run it with DEBUG=1, or after
`manage.py collectstatic` (the hashed names need their manifest).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.bench.replay_pages import CHROMIUM, forget, play, serving, store
from arena.services.frames import CACHE

GAME = "moonrollers"


def long_record(steps: int, players: int) -> dict[str, Any]:
    """A record of random play with at least `steps` decisions."""
    for seed in range(1, 500):
        record = play(GAME, players, seed)
        if len(record["actions"]) >= steps:
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

    def handle(self, *args, steps: int, players: int, loads: int, width: int, **options) -> None:
        if not os.access(CHROMIUM, os.X_OK):
            raise CommandError(f"{CHROMIUM} is missing (scripts/test.sh installs Chromium)")
        record = long_record(steps, players)
        match = store(record)
        try:
            with serving() as base:
                times, size = self._measure(
                    f"{base}/matches/{match.pk}/", loads, width, options["cold"]
                )
        finally:
            forget()
        load1, load5, load15 = os.getloadavg()
        self.stdout.write(
            f"replay first paint, {GAME} match of {len(record['actions'])} steps "
            f"({players} players), frames {size / 1e6:.2f} MB, {width} px, "
            f"{'cold' if options['cold'] else 'warm'} frames cache, {loads} loads:\n"
            f"  median {statistics.median(times):.0f} ms, fastest {min(times):.0f} ms, "
            f"slowest {max(times):.0f} ms\n"
            f"  load average {load1:.2f} {load5:.2f} {load15:.2f} ({os.cpu_count()} CPUs)"
        )

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
                with page.expect_response(lambda r: "/frames/" in r.url) as frames:
                    page.goto(url)
                page.wait_for_selector("#replay svg.board", timeout=60000)
                # The whole replay follows the first steps' answer: wait for it, so that it
                # does not compete with the next load (and fills the cache when warm).
                page.wait_for_selector('#replay[data-ready="1"]', timeout=120000)
                size = len(frames.value.body())
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
