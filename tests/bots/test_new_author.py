"""A new bot author's first half hour, scripted: only the SDK wheel in a fresh virtual
environment (no Django, no Celery) and the `arena` command, against a real service (the
web app over HTTP, a Celery worker with beat, the sandbox, PostgreSQL and Redis).

    new-bot -> local play -> login -> submit (validation followed) -> status (games and a
    skill) -> matches -> replay download and local replay -> logs (its own stderr)

Each step's wall-clock time goes to var/bench/new_author.json and the test's output: the
benchmark is `make bench-new-author`, not a timing assertion.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from tests.workers.pipeline.test_ladder_end_to_end import reference_bot

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "var" / "bench" / "new_author.json"
RATED_GAMES = 10
STDERR_LINE = "ada's bot thinks out loud"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(scope="module")
def sdk(tmp_path_factory) -> Path:
    """A virtual environment holding the SDK wheel and what it depends on, nothing else."""
    folder = tmp_path_factory.mktemp("sdk")
    built = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_sdk.py"), "--out", str(folder / "dist")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    wheel = built.stdout.strip().splitlines()[-1]
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", wheel],
        check=True,
    )
    return venv


def run(sdk: Path, *argv: str, cwd: Path, env: dict[str, str], stdin: str | None = None):
    completed = subprocess.run(
        [str(sdk / "bin" / "arena"), *argv],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return completed


def test_the_sdk_installs_alone_and_plays_a_local_match(sdk, tmp_path):
    python = str(sdk / "bin" / "python")
    for service_package in ("django", "celery", "psycopg", "redis"):
        probe = subprocess.run([python, "-c", f"import {service_package}"], capture_output=True)
        assert probe.returncode != 0, f"{service_package} is installed in the SDK's venv"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    played = run(
        sdk, "play", "--game", "moonrakers", "--games", "4", "--json", "heuristic", "random",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    report = json.loads(played.stdout)
    assert report["games"] == 4 and len(report["bots"]) == 2


def test_a_new_author_goes_from_an_empty_folder_to_a_rated_bot(
    sdk, tmp_path, live_server, start_worker, settings
):
    settings.ARENA_ENQUEUE_VALIDATION = "workers.tasks.enqueue_validation"
    settings.ARENA_SMOKE_TEST = "workers.play.smoke.smoke_test"
    house = User.objects.create_user("arena")
    reference_bot(house, "first")
    reference_bot(house, "random")
    worker = start_worker(
        concurrency=2,
        isolation="sandbox",
        beat=True,
        extra_env={"ARENA_LADDER_TICK_SECONDS": "1", "ARENA_SKILL_REFIT_EVERY": "10"},
    )
    User.objects.create_user("ada", password="moon-rover-42")
    home = tmp_path / "ada"
    home.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "ARENA_CONFIG_DIR": str(home / ".config" / "moon-arena"),
        "ARENA_SANDBOX_UID_BASE": os.environ.get("ARENA_SANDBOX_UID_BASE", "63000"),
    }
    times: dict[str, float] = {}
    started = time.monotonic()

    def step(name: str, *argv: str, stdin: str | None = None, ok: bool = True):
        begun = time.monotonic()
        done = run(sdk, *argv, cwd=home, env=env, stdin=stdin)
        times[name] = round(time.monotonic() - begun, 2)
        if ok:
            assert done.returncode == 0, f"{name}: {done.stdout}\n{done.stderr}"
        return done

    step("new-bot", "new-bot", "moonrollers", "mybot")
    bot_file = home / "mybot" / "bot.py"
    assert bot_file.exists()
    # The author makes it talk on stderr, to read it back from an arena match.
    bot_file.write_text(
        bot_file.read_text() + f"\nimport sys as _sys\nprint({STDERR_LINE!r}, file=_sys.stderr)\n"
    )
    played = step("local play", "play", "--game", "moonrollers", "--games", "4", str(bot_file),
                  "random", "--json")  # fmt: skip
    assert json.loads(played.stdout)["games"] == 4
    step("login", "login", live_server.url, "--username", "ada", "--password-stdin",
         stdin="moon-rover-42\n")  # fmt: skip
    submitted = step("submit", "submit", str(bot_file), "--game", "moonrollers", "--name",
                     "ada-bot", "--json")  # fmt: skip
    assert json.loads(submitted.stdout)["version"]["validation"] == "ready"

    begun = time.monotonic()
    status: dict = {}
    while time.monotonic() - begun < 300:
        status = json.loads(step("status", "status", "ada-bot", "--json").stdout)
        row = status["leaderboard"] or {}
        if row.get("games", 0) >= RATED_GAMES and row.get("skill") is not None:
            break
        time.sleep(2)
    else:
        raise AssertionError(f"no skill after 300 s: {status}\n{worker.text()[-3000:]}")
    times["rated"] = round(time.monotonic() - begun, 2)
    low, high = row["skill_low"], row["skill_high"]
    assert low <= row["skill"] <= high

    # The ladder keeps about two matches a worker slot in flight, so the last few can all be
    # queued or running; ten reach back past them to finished ones.
    matches = json.loads(step("matches", "matches", "ada-bot", "--last", "10", "--json").stdout)
    assert matches and all(
        any(seat["bot"] == "ada-bot" for seat in match["seats"]) for match in matches
    )
    finished = next(m for m in matches if m["status"] == "finished")
    step("replay download", "replay", "download", str(finished["id"]))
    replayed = step("replay", "replay", f"match-{finished['id']}.json", "--steps")
    assert "reproduces" in replayed.stdout and "step 0: seat" in replayed.stdout
    logs = step("logs", "logs", str(finished["id"]))
    assert STDERR_LINE in logs.stdout

    times["total"] = round(time.monotonic() - started, 2)
    BENCH.parent.mkdir(parents=True, exist_ok=True)
    BENCH.write_text(json.dumps(times, indent=2) + "\n")
    print("new author, seconds per step:", json.dumps(times))

    # Beyond the first afternoon: version 2 against version 1, followed to its verdict.
    step("submit v2", "submit", str(bot_file), "--game", "moonrollers", "--name", "ada-bot")
    versions = json.loads(step("status v2", "status", "ada-bot", "--json").stdout)["versions"]
    first, second = sorted(versions, key=lambda v: v["number"])
    verdict = json.loads(
        step("challenge", "challenge", str(second["id"]), str(first["id"]), "--max-games", "8",
             "--follow", "--json").stdout
    )  # fmt: skip
    assert verdict["status"] in ("accepted", "rejected", "inconclusive")
    assert verdict["games"] >= 2

    # An organiser runs a small tournament from the command line and follows it.
    User.objects.create_user("olga", password="moon-rover-42", is_staff=True)
    env["ARENA_CONFIG_DIR"] = str(home / "olga")
    step("organiser login", "login", live_server.url, "--username", "olga", "--password-stdin",
         stdin="moon-rover-42\n")  # fmt: skip
    bot_ids = [str(b.pk) for b in house.bots.all()] + [str(status["bot"]["id"])]
    created = json.loads(
        step("tournament", "tournament", "create", "--name", "Cup", "--game", "moonrollers",
             "--bots", *bot_ids, "--json").stdout
    )  # fmt: skip
    followed = step("tournament follow", "tournament", "follow", str(created["id"]))
    assert "finished" in followed.stdout and "rank" in followed.stdout
    with urllib.request.urlopen(f"{live_server.url}/api/tournaments/{created['id']}/") as reply:
        assert json.loads(reply.read())["status"] == "finished"
