"""Built-in reference bots, each a standalone file that runs like an author's upload.

`random` plays every game; `heuristic` and `search` resolve to `<game>_heuristic.py` and
`<game>_search.py` when that game has one.
"""

from __future__ import annotations

from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parent
GENERIC = {"random": "random_bot.py", "first": "first_bot.py"}
PER_GAME = ("heuristic", "search")


def builtin_names(game: str) -> list[str]:
    names = sorted(GENERIC)
    names += [name for name in PER_GAME if (REFERENCE_DIR / f"{game}_{name}.py").is_file()]
    return names


def builtin_path(name: str, game: str) -> Path | None:
    """The file of built-in bot `name` for `game`, or None when there is none."""
    if name in GENERIC:
        return REFERENCE_DIR / GENERIC[name]
    if name in PER_GAME:
        path = REFERENCE_DIR / f"{game}_{name}.py"
        return path if path.is_file() else None
    return None
