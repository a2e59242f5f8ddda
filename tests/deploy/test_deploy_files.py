"""deploy/: the compose file and the systemd units are checked by the tools that read them.

`docker compose` is not installed on this machine (the docker CLI has no compose plugin),
so the compose file is validated against the Compose Specification's JSON schema
(vendored in check-jsonschema: no network), plus the facts the schema cannot know:
its paths exist and its settings are ones Moon Arena reads. The systemd units pass
`systemd-analyze verify` (scripts/bootstrap.sh installs it; missing is a failure).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "compose.yaml"
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))


def check_compose_schema(path: Path) -> subprocess.CompletedProcess[str]:
    tool = Path(sys.executable).with_name("check-jsonschema")
    return subprocess.run(
        [str(tool), "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_compose_file_follows_the_compose_specification():
    done = check_compose_schema(COMPOSE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_catches_a_broken_compose_file(tmp_path: Path):
    broken = yaml.safe_load(COMPOSE.read_text())
    broken["services"]["worker"]["stop_grace_perod"] = "15m"  # a misspelt key
    path = tmp_path / "compose.yaml"
    path.write_text(yaml.safe_dump(broken))
    done = check_compose_schema(path)
    assert done.returncode != 0 and "stop_grace_perod" in done.stdout + done.stderr


def test_compose_paths_and_settings_exist():
    compose = yaml.safe_load(COMPOSE.read_text())
    services = compose["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "flower"} <= set(services)
    settings = (ROOT / "arena" / "settings.py").read_text()
    for name, service in services.items():
        build = service.get("build")
        if build:
            context = (DEPLOY / build["context"]).resolve()
            assert (context / build["dockerfile"]).is_file(), name
        env_file = service.get("env_file")
        if env_file:
            for line in (DEPLOY / env_file).read_text().splitlines():
                if line and not line.startswith("#"):
                    variable = line.split("=", 1)[0]
                    assert f'"{variable}"' in settings, f"{env_file}: {variable} is not read"
    worker = services["worker"]
    assert worker["stop_signal"] == "SIGTERM" and worker["stop_grace_period"]
    assert "--task-events" in worker["command"]  # Flower sees the tasks
    assert "/api/health/" in " ".join(services["web"]["healthcheck"]["test"])


def verify_units(units: list[Path], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` on copies installed at this checkout instead of /opt."""
    tool = shutil.which("systemd-analyze")
    assert tool, "systemd-analyze is missing: scripts/bootstrap.sh installs Debian's systemd"
    env = tmp_path / "env"
    env.write_text((DEPLOY / "env.example").read_text())
    copies = []
    for unit in units:
        text = unit.read_text().replace("/opt/moon-arena", str(ROOT))
        text = text.replace("/etc/moon-arena/env", str(env))
        copy = tmp_path / unit.name
        copy.write_text(text)
        copies.append(str(copy))
    return subprocess.run(
        [tool, "verify", *copies], capture_output=True, text=True, check=False, cwd=tmp_path
    )


def test_systemd_units_verify(tmp_path: Path):
    names = {unit.name for unit in UNITS}
    assert names == {
        "arena-web.service",
        "arena-worker.service",
        "arena-beat.service",
        "arena-flower.service",
    }
    done = verify_units(UNITS, tmp_path)
    assert done.returncode == 0 and not done.stderr.strip(), done.stdout + done.stderr
    worker = (DEPLOY / "systemd" / "arena-worker.service").read_text()
    # A drain is Celery's warm shutdown: SIGTERM to the main process only.
    assert re.search(r"^KillMode=mixed$", worker, re.M)
    assert re.search(r"^KillSignal=SIGTERM$", worker, re.M)


def test_systemd_verify_catches_a_broken_unit(tmp_path: Path):
    source = tmp_path / "src"
    source.mkdir()
    broken = source / "arena-worker.service"
    text = (DEPLOY / "systemd" / "arena-worker.service").read_text()
    broken.write_text(text.replace("/.venv/bin/celery", "/.venv/bin/no-such-celery"))
    done = verify_units([broken], tmp_path)
    assert done.returncode != 0 and "no-such-celery" in done.stderr
