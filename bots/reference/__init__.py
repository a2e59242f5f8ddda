"""Built-in reference bots, each a standalone file that runs like an author's upload.

`random` plays every game; `heuristic` resolves to `<game>_heuristic.py` when that
game has one.
"""

from __future__ import annotations

from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parent
GENERIC = {"random": "random_bot.py", "first": "first_bot.py"}


def builtin_names(game: str) -> list[str]:
    names = sorted(GENERIC)
    if (REFERENCE_DIR / f"{game}_heuristic.py").is_file():
        names.append("heuristic")
    return names


def builtin_path(name: str, game: str) -> Path | None:
    """The file of built-in bot `name` for `game`, or None when there is none."""
    if name in GENERIC:
        return REFERENCE_DIR / GENERIC[name]
    if name == "heuristic":
        path = REFERENCE_DIR / f"{game}_heuristic.py"
        return path if path.is_file() else None
    return None
