"""The project's `scripts/` files, loaded as modules by the tests that check them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """`scripts/<name>.py` as a module (its `main` not run)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(name: str, *arguments: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`python scripts/<name>.py arguments...` from the project's root, its output captured."""
    return subprocess.run(
        [sys.executable, str(SCRIPTS / f"{name}.py"), *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=SCRIPTS.parent,
    )


def assert_refused(name: str, arguments: list[str], said: str) -> None:
    """`scripts/<name>.py arguments...` ends with a usage error (exit 2) that says `said`,
    not a traceback."""
    done = run_script(name, *arguments)
    assert done.returncode == 2, done.stdout
    assert said in done.stderr and "Traceback" not in done.stderr
