"""The replay viewer served for measurements and pictures: a recorded match stored with its
seats, and the site served from a thread (static files from the apps' folders, as the test
server does). Used by `manage.py replay_paint_bench` and `manage.py replay_screenshots`.
"""

from __future__ import annotations

import importlib.util
import json
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application

import engine
from arena.models import Bot, Match, MatchSeat
from arena.services.bots import Upload, create_bot

CHROMIUM = "/usr/bin/chromium"
BENCH_USER = "replay-bench"


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def heuristic(game: str) -> Callable[[dict[str, Any], list[Any]], Any] | None:
    """The reference heuristic's `act(observation, legal)` for the game, when it has one."""
    # Read as files: arena does not import bots/.
    path = settings.ARENA_REFERENCE_BOTS_DIR / f"{game}_heuristic.py"
    spec = importlib.util.spec_from_file_location(f"replay_bench_{game}", path)
    if not path.is_file() or spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    act = getattr(module, "act", None)
    return act if callable(act) else None


def play(game: str, players: int, seed: int, smart: bool = False) -> dict[str, Any]:
    """A finished game's record: random moves, or the reference heuristic's with `smart`."""
    state = engine.get_game(game).new_state(players, seed)
    act = heuristic(game) if smart else None
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        seat = state.to_move()
        assert seat is not None
        state.apply(act(state.observation(seat), legal) if act else rng.choice(legal))
    record: dict[str, Any] = json.loads(json.dumps(state.record()))
    return record


def store(record: dict[str, Any]) -> Match:
    """The record as a finished challenge match, each seat a bench user's bot (a random
    bot's file, named for its seat)."""
    game = str(record["game"])
    user, _ = User.objects.get_or_create(username=BENCH_USER)
    bots = []
    for seat in range(int(record["players"])):
        name = f"bench-{game}-{seat}"
        bot = Bot.objects.filter(owner=user, game=game, name=name).first()
        if bot is None:
            path = settings.ARENA_REFERENCE_BOTS_DIR / "random_bot.py"
            upload = Upload("bot.py", path.read_bytes())
            bot = create_bot(user, name, game, upload, smoke=False)
        bots.append(bot)
    match = Match.objects.create(
        game=game,
        rules_version=str(record["rules_version"]),
        players=int(record["players"]),
        seed=int(record["seed"]),
        status=Match.Status.FINISHED,
        purpose=Match.Purpose.CHALLENGE,
        record=record,
        result=record["result"],
        decisions=len(record["actions"]),
    )
    for seat, bot in enumerate(bots):
        MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
    return match


def forget() -> None:
    """Delete the bench user's matches, bots and the user."""
    user = User.objects.filter(username=BENCH_USER).first()
    if user is None:
        return
    Match.objects.filter(seats__bot__owner=user).delete()
    Bot.objects.filter(owner=user).delete()
    user.delete()


@contextmanager
def serving() -> Iterator[str]:
    """The site on a free local port, for the duration: its base URL."""
    server = ThreadedWSGIServer(("127.0.0.1", 0), _Quiet)
    server.set_app(StaticFilesHandler(get_wsgi_application()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
