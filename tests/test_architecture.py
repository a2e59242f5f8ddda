"""The architecture kept so: no import circles, no import from a lower room to a higher
one, no module over the size limit without a recorded reason.

Every module under engine/, arena/, bots/ and workers/ is parsed (`ast`, nothing is
imported) and every import it makes is an arrow: at the top, inside functions and under
`if TYPE_CHECKING:` alike, because a circle a type checker needs is still a circle a
reader has to untangle. An import names the deepest module it reaches (`from a.b import c`
is an arrow to `a.b.c` when that is a module, else to `a.b`); the parent packages Python
runs on the way are not arrows, so a package's `__init__` may hand on its children's names.

Inside workers/ the same holds between its rooms (`sandbox/`, `queue/`, `play/`, `node/`,
the Celery app at the top, `bench/` and the CLI above it).

Run it alone with `pytest tests/test_architecture.py`; each failure names the modules and
the line of each import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("engine", "arena", "bots", "workers")

# Which room may import which: workers -> arena -> engine, workers -> bots -> engine.
MAY_IMPORT = {
    "engine": set(),
    "bots": {"engine"},
    "arena": {"engine"},
    "workers": {"arena", "bots", "engine"},
}

# Within workers/, its rooms (sub-packages; "app" is the Celery app, its tasks and the
# reaper at the top) import one way too: the sandbox and the queue know no other room.
WORKERS_MAY_IMPORT = {
    "sandbox": set(),
    "queue": set(),
    "play": {"sandbox"},
    "node": {"sandbox"},
    "app": {"play", "sandbox", "queue", "node"},
    "bench": {"app", "play", "sandbox", "queue", "node"},
    "cli": {"bench", "play", "sandbox", "node"},
    "management": {"bench", "app", "play", "sandbox", "queue", "node"},
}

MAX_LINES = 600

# Modules allowed past MAX_LINES, each with the reason it stays whole. Keep it short: a
# module here is one a reader should still be able to read top to bottom.
LONG_MODULES: dict[str, str] = {
    "bots.reference.moonrakers_heuristic": "a bot runs in the sandbox from its one file (the "
    "runner loads that file alone, beside the engine): one file in three marked parts, game "
    "knowledge, evaluation, move choice",
    "bots.reference.moon_adventure_heuristic": "a bot runs in the sandbox from its one file "
    "(the runner loads that file alone, beside the engine): one file in three marked parts, "
    "game knowledge, evaluation, move choice",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for room in ROOMS:
        for path in sorted((ROOT / room).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(imported module of this tree, line) for every import in the module."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _deepest(alias.name, modules)
                if target:
                    yield target, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                target = _deepest(f"{source}.{alias.name}", modules) or _deepest(source, modules)
                if target:
                    yield target, node.lineno


def _deepest(dotted: str, modules: dict[str, Path]) -> str | None:
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _graph() -> tuple[dict[str, Path], dict[str, dict[str, int]]]:
    modules = _modules()
    arrows: dict[str, dict[str, int]] = {name: {} for name in modules}
    for name, path in modules.items():
        for target, line in _imports(name, path, modules):
            if target != name:
                arrows[name].setdefault(target, line)
    return modules, arrows


def _circles(arrows: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(arrows):
        if start in index:
            continue
        work = [(start, iter(sorted(arrows[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(arrows[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _describe(circle: list[str], arrows: dict[str, dict[str, int]]) -> str:
    members = set(circle)
    ties = [
        f"    {name} -> {target} (line {line})"
        for name in circle
        for target, line in sorted(arrows[name].items())
        if target in members
    ]
    return f"  {len(circle)} modules:\n" + "\n".join(ties)


def test_no_import_circles():
    _, arrows = _graph()
    circles = _circles(arrows)
    assert not circles, "import circles:\n" + "\n".join(_describe(c, arrows) for c in circles)


def _upward(arrows: dict[str, dict[str, int]]) -> list[str]:
    """Imports from one room into another that MAY_IMPORT does not allow."""
    return [
        f"  {name} -> {target} (line {line})"
        for name, targets in sorted(arrows.items())
        for target, line in sorted(targets.items())
        if (room := name.split(".")[0]) != (to := target.split(".")[0])
        and to not in MAY_IMPORT[room]
    ]


def test_imports_run_only_down_between_rooms():
    _, arrows = _graph()
    upward = _upward(arrows)
    assert not upward, "imports against workers -> arena -> engine, bots -> engine:\n" + "\n".join(
        upward
    )


def _workers_room(name: str) -> str:
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in WORKERS_MAY_IMPORT:
        return parts[1]
    return "app"


def _upward_in_workers(arrows: dict[str, dict[str, int]]) -> list[str]:
    """Imports between workers' rooms that WORKERS_MAY_IMPORT does not allow."""
    return [
        f"  {name} -> {target} (line {line})"
        for name, targets in sorted(arrows.items())
        if name.startswith("workers.") or name == "workers"
        for target, line in sorted(targets.items())
        if target.startswith("workers.")
        and (room := _workers_room(name)) != (to := _workers_room(target))
        and to not in WORKERS_MAY_IMPORT[room]
    ]


def test_imports_run_only_down_between_the_rooms_of_workers():
    _, arrows = _graph()
    upward = _upward_in_workers(arrows)
    assert not upward, "imports against the rooms of workers/ (WORKERS_MAY_IMPORT):\n" + (
        "\n".join(upward)
    )


def test_modules_stay_under_the_size_limit():
    modules, _ = _graph()
    lines = {name: len(path.read_text().splitlines()) for name, path in modules.items()}
    too_long = [
        f"  {name}: {count} lines"
        for name, count in sorted(lines.items())
        if count > MAX_LINES and name not in LONG_MODULES
    ]
    assert not too_long, (
        f"modules over {MAX_LINES} lines (split them by meaning, or record why one stays "
        "whole in LONG_MODULES):\n" + "\n".join(too_long)
    )
    stale = sorted(name for name in LONG_MODULES if lines.get(name, 0) <= MAX_LINES)
    assert not stale, f"LONG_MODULES lists modules that are no longer long: {stale}"


def test_the_check_sees_a_circle_and_an_upward_import():
    # The check itself, on a made-up graph: a circle through three modules and an arrow
    # from arena up to workers are both found.
    arrows = {
        "engine.a": {"engine.b": 1},
        "engine.b": {"engine.c": 1},
        "engine.c": {"engine.a": 1},
        "arena.x": {"workers.y": 3},
        "workers.y": {},
    }
    assert _circles(arrows) == [["engine.a", "engine.b", "engine.c"]]
    assert _upward(arrows) == ["  arena.x -> workers.y (line 3)"]
    # And inside workers/: the sandbox importing the referee runs back up.
    arrows = {"workers.sandbox.a": {"workers.play.b": 7}, "workers.play.b": {}}
    assert _upward_in_workers(arrows) == ["  workers.sandbox.a -> workers.play.b (line 7)"]


def test_the_check_reads_imports_inside_functions_and_for_type_checking(tmp_path):
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from engine import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import f\n"
    )
    modules = {"engine": package / "__init__.py", "engine.a": package / "a.py"}
    modules["engine.b"] = package / "b.py"
    assert list(_imports("engine.a", modules["engine.a"], modules)) == [("engine.b", 2)]
    assert list(_imports("engine.b", modules["engine.b"], modules)) == [("engine.a", 3)]
