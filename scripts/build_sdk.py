"""Build the bot authors' SDK wheel: `moon-arena-sdk`, without Django, Celery or PostgreSQL.

    python scripts/build_sdk.py [--out dist]      # `make sdk`

The wheel holds what a bot author runs on their own machine: the game engine (`engine`),
the bot runner, the reference bots and the service client (`bots`), and the `arena`
command with local play, the referee and the sandbox (the modules of `workers` that need
none of the service's packages, found by reading their imports). Its version is the
client's (`bots/sdk/client.py`, SDK_VERSION). The only dependency is `rich` (progress bars).
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the service needs and an author's machine does not have.
SERVICE_ONLY = ("django", "rest_framework", "celery", "kombu", "billiard", "redis", "psycopg")
SERVICE_ONLY += ("arena", "drf_spectacular", "prometheus_client", "numpy", "scipy")
WHOLE_PACKAGES = ("engine", "bots")
# Modules of the service's package that are pure standard library and that local play
# shares with the workers: how a bot's language, manifest and archive are read.
SHARED_MODULES = ("arena.languages", "arena.bot_archives")
DEPENDENCIES = ['"rich>=13"']
OPTIONAL = '{fast = ["orjson>=3.9"]}'


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module the file imports, at any depth of its code (lazy imports too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def sdk_worker_modules() -> dict[str, Path]:
    """The modules of `workers` whose imports, followed through the project, stay clear of
    the service's packages."""
    modules = {
        _module_name(path): path
        for path in sorted((ROOT / "workers").rglob("*.py"))
        if "management" not in path.parts  # Django's commands
    }
    imports = {name: _imports(path) for name, path in modules.items()}
    verdict: dict[str, bool] = {}

    def clean(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name in verdict:
            return verdict[name]
        if name in seen:
            return True  # a circle: decided by its other imports
        ok = True
        for target in imports[name]:
            shared = any(target == m or target.startswith(f"{m}.") for m in SHARED_MODULES)
            service = target.split(".")[0] in SERVICE_ONLY and not shared
            if service or (target in modules and not clean(target, seen | {name})):
                ok = False
                break
        verdict[name] = ok
        return ok

    chosen = {name: path for name, path in modules.items() if clean(name)}
    # A package's own __init__ comes along with any of its modules.
    for name in list(chosen):
        parts = name.split(".")
        for depth in range(1, len(parts)):
            package = ".".join(parts[:depth])
            if package in modules:
                chosen[package] = modules[package]
    return chosen


def _sdk_version() -> str:
    tree = ast.parse((ROOT / "bots" / "sdk" / "client.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SDK_VERSION":
            return str(ast.literal_eval(node.value))
    raise SystemExit("bots/sdk/client.py has no SDK_VERSION")


def stage(folder: Path) -> list[str]:
    """Copy the SDK's files into `folder` with their pyproject; the workers modules chosen."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in WHOLE_PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=ignore)
    workers = sdk_worker_modules()
    shared = [ROOT / "arena" / "__init__.py"]
    shared += [ROOT / f"{name.replace('.', '/')}.py" for name in SHARED_MODULES]
    for path in [*workers.values(), *shared]:
        target = folder / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    (folder / "README.md").write_text(
        "# moon-arena-sdk\n\nWrite, test and submit bots for Moon Arena: `arena new-bot`, "
        "`arena play`, `arena login`, `arena submit`. See the bot authors' guide.\n"
    )
    (folder / "pyproject.toml").write_text(
        f"""[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "moon-arena-sdk"
version = "{_sdk_version()}"
description = "Moon Arena's bot SDK: the game engine, local play and the arena client."
readme = "README.md"
requires-python = ">=3.11"
dependencies = [{", ".join(DEPENDENCIES)}]
optional-dependencies = {OPTIONAL}

[project.scripts]
arena = "workers.cli:main"

[tool.setuptools.packages.find]
include = ["engine*", "bots*", "workers*", "arena"]

[tool.setuptools.package-data]
"*" = ["*.json", "*.toml", "*.md", "*.txt"]
"bots.sdk.kits" = ["*/*.*", "*/lib/*.*"]
"""
    )
    return sorted(workers)


def build(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="arena-sdk-") as temp:
        folder = Path(temp) / "sdk"
        folder.mkdir()
        stage(folder)
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        command += ["--quiet", "--wheel-dir", str(out), str(folder)]
        subprocess.run(command, check=True)
    wheels = sorted(out.glob(f"moon_arena_sdk-{_sdk_version()}-*.whl"))
    if not wheels:
        raise SystemExit("pip wrote no wheel")
    return wheels[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "dist"))
    parser.add_argument("--list", action="store_true", help="list the workers modules taken")
    args = parser.parse_args()
    if args.list:
        print("\n".join(sorted(sdk_worker_modules())))
        return 0
    print(build(Path(args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
