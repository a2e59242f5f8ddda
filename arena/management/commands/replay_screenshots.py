"""`python manage.py replay_screenshots [--out docs/viewers/img]`: each drawn board at the
start, the middle and the end of a match, as small PNGs for the viewers' guide.

For every game with a board (arena/static/arena/boards/<game>.js) it plays a match in this
process (the reference heuristic where the game has one, so Moon Adventure's succeeds; else
random moves), stores it as a bench user's finished match, serves the site from a thread and
photographs the board (#replay-board) in Chromium at a phone's width. Files:
`board-<game>-start.png`, `-middle.png`, `-end.png`. The bench data is deleted at the end.
Static files come from the apps' folders: run it with DEBUG=1 (or after collectstatic).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

import engine
from arena.bench.replay_pages import CHROMIUM, forget, play, serving, store

BOARDS = Path(settings.BASE_DIR) / "arena" / "static" / "arena" / "boards"
# Matches worth looking at: (players, seed, heuristic play).
CHOSEN = {"moon_adventure": (2, 6, True)}


class Command(BaseCommand):
    help = "Screenshots of each game's replay board at three moments."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", default="docs/viewers/img")
        parser.add_argument("--width", type=int, default=380)

    def handle(self, *args, out: str, width: int, **options) -> None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        games = [g for g in engine.game_names() if (BOARDS / f"{g}.js").is_file()]
        matches = {}
        for game in games:
            spec = engine.get_game(game)
            players, seed, smart = CHOSEN.get(game, (max(3, spec.min_players), 5, True))
            players = min(players, spec.max_players)
            matches[game] = store(play(game, players, seed, smart))
        from playwright.sync_api import sync_playwright

        try:
            with serving() as base, sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": width, "height": 800})
                for game, match in matches.items():
                    steps = match.decisions
                    for name, step in (("start", 0), ("middle", steps // 2), ("end", steps)):
                        page.goto(f"{base}/matches/{match.pk}/#step={step}")
                        page.wait_for_selector(f"#replay svg.board[data-step='{step}']")
                        path = folder / f"board-{game}-{name}.png"
                        page.locator("#replay-board").screenshot(path=str(path))
                        self.stdout.write(f"{path} ({path.stat().st_size // 1024} KB)")
                browser.close()
        finally:
            forget()
