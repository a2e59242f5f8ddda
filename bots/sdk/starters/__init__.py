"""Starter bots, one per game, and `arena new-bot GAME [DIR]`, which writes one out.

Each `<game>.py` here is a complete bot file, standard library only (the Moonrakers one
also reads the engine's public card data), short and commented to show how to read its
game's observation and legal actions, and it beats random play. `write_starter` copies
one into a folder as `bot.py`, with a readme and a test (`templates.py`) beside it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import engine
from bots.sdk import kits
from bots.sdk.starters.templates import README, TEST, render

STARTERS_DIR = Path(__file__).resolve().parent
BOT_NAME, README_NAME, TEST_NAME = "bot.py", "README.md", "test_bot.py"


class StarterError(Exception):
    """A request `new-bot` cannot carry out (unknown game, files in the way); one line."""


def starter_path(game: str) -> Path:
    """The starter bot file of `game`; StarterError when the game has none."""
    path = STARTERS_DIR / f"{game}.py"
    if game not in engine.game_names() or not path.is_file():
        known = ", ".join(engine.game_names())
        raise StarterError(f"unknown game {game!r} (known: {known})")
    return path


def default_folder(game: str) -> Path:
    return Path(f"{game}_bot")


def write_starter(game: str, folder: str | Path) -> list[Path]:
    """Write `bot.py`, `README.md` and `test_bot.py` for `game` into `folder` (made if
    missing) and return their paths. Writes nothing, and raises StarterError, when any of
    the three already exists."""
    source = starter_path(game).read_text()
    info = engine.get_game(game).describe()
    texts = {
        BOT_NAME: source,
        README_NAME: render(README, game, info["title"], info["cooperative"]),
        TEST_NAME: render(TEST, game, info["title"], info["cooperative"]),
    }
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise StarterError(f"{folder} exists and is not a folder")
    taken = [name for name in texts if (folder / name).exists()]
    if taken:
        raise StarterError(
            f"{folder} already holds {', '.join(taken)}: not overwritten "
            "(choose another folder, or move those files away)"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (folder / name).write_text(text)
    except OSError as exc:
        raise StarterError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    return [folder / name for name in texts]


def command_new_bot(args: argparse.Namespace) -> int:
    folder = Path(args.dir) if args.dir else default_folder(args.game)
    language = getattr(args, "lang", "python") or "python"
    if language != "python":
        return _new_kit(args, language, folder)
    paths = write_starter(args.game, folder)
    if args.json:
        print(
            json.dumps({"game": args.game, "folder": str(folder), "files": list(map(str, paths))})
        )
        return 0
    for path in paths:
        print(f"wrote {path}")
    opponents = "bot.py bot.py" if engine.get_game(args.game).cooperative else "bot.py random"
    print(f"next: cd {folder} && pytest && arena play --game {args.game} --games 100 {opponents}")
    return 0


def _new_kit(args: argparse.Namespace, language: str, folder: Path) -> int:
    """A starter in another language: the kit's library, the game's bot and arena.toml."""
    try:
        paths = kits.write_kit(args.game, language, folder)
    except (kits.KitError, OSError) as exc:
        raise StarterError(str(exc)) from None
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "language": language,
                    "folder": str(folder),
                    "files": list(map(str, paths)),
                }
            )
        )
        return 0
    for path in paths:
        print(f"wrote {path}")
    opponents = "random random" if engine.get_game(args.game).cooperative else "random"
    print(f"next: arena play --game {args.game} --games 10 {folder} {opponents}")
    print(f"then: arena submit {folder} --game {args.game}")
    return 0


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `new-bot GAME [DIR] [--json]` on an `arena` subparsers object; its handler
    (`args.handler(args)`) returns the exit status and raises StarterError for the
    caller to print as one line."""
    parser = sub.add_parser(
        "new-bot",
        help="write a starter bot for a game, with a readme and a test",
        description="Write a starter bot (bot.py), a README.md and a test (test_bot.py) "
        "for GAME into DIR (default: GAME_bot). Existing files are never overwritten.",
    )
    parser.add_argument("game", metavar="GAME", help=", ".join(engine.game_names()))
    parser.add_argument("dir", metavar="DIR", nargs="?", help="the folder (made if missing)")
    parser.add_argument(
        "--lang",
        choices=sorted(kits.LANGUAGES),
        default="python",
        help="the bot's language (default python): other languages get the kit's protocol "
        "library and an arena.toml",
    )
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.set_defaults(handler=command_new_bot)


__all__ = ["StarterError", "add_command", "starter_path", "write_starter"]
