"""Loading the built-in reference bots and a demo tournament (idempotent).

Reference bots are files in bots/reference/: `<game>_<name>.py` is a bot for that game only
(e.g. moonrollers_heuristic.py -> bot "heuristic"), any other `<name>_bot.py` or `<name>.py`
(random_bot.py, first_bot.py) is loaded for every registered game. They belong to the user
"arena" and skip the smoke match: they ship with the arena. They are the anchors of their
games' ladders (`Bot.is_anchor`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

import engine
from arena.errors import ArenaError
from arena.models import Bot, Rating, Tournament
from arena.models.bots import ANCHOR_OWNER
from arena.services import bots as bot_service
from arena.services.tournaments import start_tournament

# The reference bots' owner: its bots are the ladders' anchors (Bot.is_anchor).
ARENA_USER = ANCHOR_OWNER
DEMO_TOURNAMENT = "Demo round robin"


@dataclass
class DemoReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    tournament: Tournament | None = None
    tournament_created: bool = False
    # {game: number of bots on its ladder} for the ladders that are running.
    ladders: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def reference_files(directory: Path, games: list[str]) -> dict[str, dict[str, Path]]:
    """{game: {bot name: file}} for the reference bots found in `directory`."""
    found: dict[str, dict[str, Path]] = {game: {} for game in games}
    if not directory.is_dir():
        return found
    # Longest game names first so "moon_bots_x" is not read as game "moon" + "bots_x".
    by_length = sorted(games, key=len, reverse=True)
    for path in sorted(directory.glob("*.py")):
        stem = path.stem
        if stem.startswith("_"):
            continue
        game = next((g for g in by_length if stem.startswith(g + "_")), None)
        if game is not None:
            found[game][_bot_name(stem[len(game) + 1 :])] = path
        else:
            for bots in found.values():
                bots.setdefault(_bot_name(stem), path)
    return found


def _bot_name(stem: str) -> str:
    return stem.removesuffix("_bot") or stem


def load_reference_bots(report: DemoReport) -> None:
    owner, created = User.objects.get_or_create(username=ARENA_USER)
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    files = reference_files(Path(settings.ARENA_REFERENCE_BOTS_DIR), engine.game_names())
    for game, bots in files.items():
        for name, path in sorted(bots.items()):
            _load_one(owner, game, name, path, report)


def _load_one(owner: User, game: str, name: str, path: Path, report: DemoReport) -> None:
    data = path.read_bytes()
    label = f"{game}/{name}"
    upload = bot_service.Upload(filename=path.name, data=data)
    bot = Bot.objects.filter(game=game, name=name).first()
    try:
        bot_service.check_upload(game, upload)
    except bot_service.InvalidUpload as exc:
        report.problems.append(f"{label}: {exc.message}")
        return
    if bot is None:
        with transaction.atomic():
            bot = Bot.objects.create(owner=owner, name=name, game=game)
            bot.add_version(data, path.name)
            Rating.objects.get_or_create(bot=bot, game=game)
        report.created.append(label)
        return
    if bot.owner_id != owner.pk:
        report.problems.append(f"{label}: the name is taken by {bot.owner.username}")
        return
    latest = bot.latest_version()
    if latest is not None and latest.sha256 == hashlib.sha256(data).hexdigest():
        report.unchanged.append(label)
        return
    bot.add_version(data, path.name)
    report.updated.append(label)


def demo_game(preferred: str | None = None) -> str | None:
    names = engine.game_names()
    if preferred:
        return engine.get_game(preferred).name
    for name in ("moonrollers", *names):
        if name in names:
            return name
    return None


def load_demo_tournament(report: DemoReport, game: str | None, start: bool) -> None:
    game = demo_game(game)
    if game is None:
        report.problems.append("no game is registered; no demo tournament")
        return
    spec = engine.get_game(game)
    name = f"{DEMO_TOURNAMENT} ({game})"
    existing = Tournament.objects.filter(name=name, game=game).first()
    if existing is not None:
        report.tournament = existing
        if start and existing.status == Tournament.Status.SCHEDULED:
            _try_start(existing, report)
        return
    owner = User.objects.get(username=ARENA_USER)
    bots = list(Bot.objects.filter(owner=owner, game=game, is_active=True).order_by("name"))
    players = max(spec.min_players, min(2, spec.max_players))
    if len(bots) < players:
        report.problems.append(f"{game} has {len(bots)} reference bots; a demo needs {players}")
        return
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            players_per_match=players,
            games_per_pairing=2 * players,
            created_by=owner,
        )
        tournament.bots.set(bots)
    report.tournament, report.tournament_created = tournament, True
    if start:
        _try_start(tournament, report)


def _try_start(tournament: Tournament, report: DemoReport) -> None:
    try:
        start_tournament(tournament)
    except ArenaError as exc:
        report.problems.append(f"the demo tournament was not started: {exc.message}")


def load_ladders(report: DemoReport) -> None:
    """Every game's ladder row (running unless an organiser paused it) and its entries.

    The beat's scheduler then plays the reference bots on every ladder with no further
    step (they need no organiser: the ladder enters every active bot by itself).
    """
    from arena.services.ladder import ladder_for, sync_entries

    for name in engine.game_names():
        if ladder_for(name).is_running():
            report.ladders[name] = len(sync_entries(name))


def load_demo(game: str | None = None, start: bool = True) -> DemoReport:
    report = DemoReport()
    load_reference_bots(report)
    load_demo_tournament(report, game, start)
    load_ladders(report)
    return report
