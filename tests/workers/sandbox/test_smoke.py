"""The upload smoke test runs the same hostile bots, sandboxed, and rejects or contains each."""

from __future__ import annotations

import re

import pytest

from tests.workers.sandbox.conftest import (
    CANARY,
    DAEMON_MARKER,
    FAST,
    RANDOM_BOT,
    assert_launcher_serves,
    marker_processes,
    prepare,
)
from tests.workers.sandbox.test_hostile_bots import FORFEITS
from workers.play.smoke import _safe_filename, smoke_test
from workers.sandbox.bubblewrap import BubblewrapLauncher, SandboxUnavailable


@pytest.mark.parametrize("name", sorted(FORFEITS))
def test_smoke_test_rejects_or_contains_hostile_upload(name, launcher, game, tmp_path):
    setup = prepare(name, tmp_path)
    verdict = smoke_test(game, setup.source, f"{name}.py", limits=FAST, launcher=launcher)
    expected = FORFEITS[name]
    if expected is None:
        assert verdict is None, verdict
    else:
        assert verdict is not None, f"{name} passed the smoke test"
        assert verdict.startswith("seat 0: ") or verdict.startswith("seat 1: ")
        assert re.search(expected, verdict), verdict
        assert CANARY not in verdict and "LEAK" not in verdict
    assert marker_processes(DAEMON_MARKER) == []
    assert_launcher_serves(launcher)


def test_smoke_test_accepts_a_legal_bot(launcher, game):
    assert smoke_test(game, RANDOM_BOT.read_bytes(), "random_bot.py", launcher=launcher) is None


def test_smoke_test_explains_a_broken_upload(launcher, game):
    verdict = smoke_test(game, b"def act(o, l):\n    return (\n", "bot.py", launcher=launcher)
    assert verdict is not None and "not valid Python" in verdict
    assert smoke_test(game, b"x = 1\n", "bot.py", launcher=launcher) is not None
    assert smoke_test(game, b"", "bot.py", launcher=launcher) == "the bot file is empty"
    assert "larger than 1 MiB" in (
        smoke_test(game, b"#" * ((1 << 20) + 1), "bot.py", launcher=launcher) or ""
    )


def test_smoke_test_shows_the_end_of_stderr_to_the_author(launcher, game):
    source = b"def act(o, l):\n    print('thinking hard')\n    raise ValueError('no idea')\n"
    verdict = smoke_test(game, source, "bot.py", limits=FAST, launcher=launcher)
    assert verdict is not None
    assert "bot raised ValueError: no idea" in verdict and "thinking hard" in verdict


def test_upload_names_cannot_escape_the_temp_folder():
    assert _safe_filename("../../etc/passwd") == "passwd.py"
    assert _safe_filename("my bot.zip") == "my_bot.zip"
    assert _safe_filename("") == "bot.py"


def test_smoke_test_never_runs_unsandboxed(game):
    missing = BubblewrapLauncher(bwrap="/nonexistent/bwrap")
    with pytest.raises(SandboxUnavailable, match="bubblewrap is not installed"):
        smoke_test(game, RANDOM_BOT.read_bytes(), "random_bot.py", launcher=missing)
