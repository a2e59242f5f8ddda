"""Starter kits for bots in other languages: C++, Rust, Go, Java and JavaScript.

Each language's folder holds its protocol library (`<lang>/lib/`: a JSON value with its
parser and writer where the language has none, the loop that answers the arena, a log
helper) and one starter bot per game (`<lang>/<game>.<ext>`: a seeded random legal move,
and one look at game-specific fields of the observation, logged on a match's first
move). A bot folder is the library, one game's bot under the entry name the arena builds
from, and `arena.toml` naming the language and the entry. Python's kit is the starter
of `bots/sdk/starters/`. Everything is standard library only: the arena builds offline.

The arena's default builds, run in the bot folder:
    cpp:  g++ -O2 -std=c++17 -pipe -o bot *.cpp          run ./bot
    rust: rustc -O --edition 2021 -o bot main.rs          run ./bot   (Rust 1.63)
    go:   go build -o bot *.go  (GO111MODULE=off)         run ./bot   (Go 1.19)
    java: javac -d . *.java                               run java -cp . Bot
    javascript: no build                                  run node bot.js
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import engine

KITS_DIR = Path(__file__).resolve().parent
STARTERS_DIR = KITS_DIR.parent / "starters"
MANIFEST_NAME = "arena.toml"


@dataclass(frozen=True)
class Language:
    name: str
    entry: str  # the file the build starts from, as the bot folder names it
    suffix: str  # of the starter bot files in this folder: "<game><suffix>"


LANGUAGES = {
    language.name: language
    for language in (
        Language("python", "bot.py", ".py"),
        Language("cpp", "bot.cpp", ".cpp"),
        Language("rust", "main.rs", ".rs"),
        Language("go", "main.go", ".go"),
        Language("java", "Bot.java", ".java"),
        Language("javascript", "bot.js", ".js"),
    )
}


class KitError(Exception):
    """A kit that cannot be written (unknown game or language, files in the way); one line."""


def manifest(language: str) -> str:
    entry = LANGUAGES[language].entry
    return (
        f'language = "{language}"  # python | cpp | rust | go | java | javascript\n'
        f'entry = "{entry}"  # the file the build starts from\n'
    )


def _starter_file(game: str, language: Language) -> Path:
    if language.name == "python":
        return STARTERS_DIR / f"{game}.py"
    return KITS_DIR / language.name / f"{game}{language.suffix}"


def kit_files(game: str, language: str) -> dict[str, bytes]:
    """The files of a `language` bot folder for `game`: relative name -> content."""
    if game not in engine.game_names():
        raise KitError(f"unknown game {game!r} (known: {', '.join(engine.game_names())})")
    if language not in LANGUAGES:
        raise KitError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    chosen = LANGUAGES[language]
    files: dict[str, bytes] = {}
    library = KITS_DIR / language / "lib"
    if library.is_dir():
        for path in sorted(library.iterdir()):
            if path.is_file():
                files[path.name] = path.read_bytes()
    files[chosen.entry] = _starter_file(game, chosen).read_bytes()
    files[MANIFEST_NAME] = manifest(language).encode()
    return files


def write_kit(game: str, language: str, folder: str | Path) -> list[Path]:
    """Write the kit of `game` in `language` into `folder` (made if missing) and return
    the paths written. Writes nothing, and raises KitError, when any of them exists."""
    files = kit_files(game, language)
    folder = Path(folder)
    paths = [folder / name for name in files]
    in_the_way = [path for path in paths if path.exists()]
    if in_the_way:
        names = ", ".join(str(path) for path in in_the_way)
        raise KitError(f"not overwriting existing files: {names}")
    folder.mkdir(parents=True, exist_ok=True)
    for path, content in zip(paths, files.values(), strict=True):
        path.write_bytes(content)
    return paths
