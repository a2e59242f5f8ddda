"""`arena play` as an author uses it: the arena's sandbox on request, each bot's stderr shown
marked with its bot, each forfeit with its reason, and one's own versions from the arena.
"""

from __future__ import annotations

import json

import pytest

from workers.cli import main

TALKY = b"import random, sys\nprint('thinking hard', file=sys.stderr)\n" + (
    b"def act(observation, legal_actions):\n    return random.choice(legal_actions)\n"
)
CRASHY = b"def act(observation, legal_actions):\n    raise ValueError('boom')\n"


def test_sandboxed_play_shows_each_bots_stderr_and_forfeits(tmp_path, capsys):
    talky, crashy = tmp_path / "talky.py", tmp_path / "crashy.py"
    talky.write_bytes(TALKY)
    crashy.write_bytes(CRASHY)
    code = main(
        ["play", "--game", "moonrollers", "--games", "2", "--sandbox", "--json", str(talky),
         str(crashy)]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0
    assert "[talky.py] thinking hard" in err.splitlines()
    assert "[crashy.py] ValueError: boom" in err.splitlines()
    assert "game 0: crashy.py (seat 1) forfeits: bot raised ValueError: boom" in err
    assert "game 1: crashy.py (seat 0) forfeits: bot raised ValueError: boom" in err
    report = json.loads(out)
    assert {bot["name"]: bot["forfeits"] for bot in report["bots"]} == {
        "talky.py": 0,
        "crashy.py": 2,
    }


def test_hide_stderr_hides_it(tmp_path, capsys):
    talky = tmp_path / "talky.py"
    talky.write_bytes(TALKY)
    assert main(["play", "--game", "moonrollers", "--hide-stderr", str(talky), "random"]) == 0
    assert "thinking hard" not in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_play_against_ones_own_version_from_the_arena(live_server, tmp_path, monkeypatch, capsys):
    from tests.bots.test_arena_client import logged_in

    monkeypatch.setenv("ARENA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    logged_in(live_server, capsys, monkeypatch)
    talky = tmp_path / "talky.py"
    talky.write_bytes(TALKY)
    assert main(["submit", str(talky), "--game", "moonrollers", "--no-wait"]) == 0
    capsys.readouterr()
    code = main(["play", "--game", "moonrollers", "--json", "arena:talky@1", "random"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [bot["name"] for bot in json.loads(out)["bots"]] == ["talky v1", "random"]
    assert "[talky v1] thinking hard" in err
    cached = list((tmp_path / "cache" / "moon-arena" / "bots").iterdir())
    assert len(cached) == 1 and cached[0].read_bytes() == TALKY
    assert main(["play", "--game", "moonrollers", "arena:talky@7", "random"]) == 2
    assert capsys.readouterr().err.strip() == "arena: error: bot 'talky' has no version 7"
