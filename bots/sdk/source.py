"""Checking a bot file without running it: read, parse, look for `act` or `Bot`.

The `arena` command uses this before it plays a bot file, so that none of the file's
code runs in the caller's process: the bot runs only in its sandbox. The checks match
the ones an upload passes (arena/services/bots.py), so a file that passes here is not
refused there for its shape.
"""

from __future__ import annotations

import ast

from bots.sdk.runner import BotLoadError, _read_source

ENTRY_POINTS = frozenset({"act", "Bot"})


def check_bot_file(path: str) -> None:
    """Raise BotLoadError, with the reason, unless the file (a .py, or a zip holding
    bot.py) is readable UTF-8 Python of at most 1 MiB that binds `act` or `Bot` at its
    top level. Parses only: the bot's code never runs here."""
    source, filename = _read_source(path)
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        where = f" (line {exc.lineno})" if exc.lineno else ""
        raise BotLoadError(f"not valid Python: {exc.msg}{where}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise BotLoadError(f"not valid Python: {exc}") from None
    if not ENTRY_POINTS & top_level_names(tree):
        raise BotLoadError("the bot defines neither act(observation, legal_actions) nor class Bot")


def top_level_names(tree: ast.Module) -> set[str]:
    """The names a module's top-level statements bind (definitions, assignments, imports)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


__all__ = ["ENTRY_POINTS", "check_bot_file", "top_level_names"]
