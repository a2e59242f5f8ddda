"""The `arena` command against a real Moon Arena over HTTP (pytest-django's live server):
each mistake a user can make ends in one line on stderr and a non-zero exit code, and the
kept token is readable by its owner only.
"""

from __future__ import annotations

import http.server
import json
import socket
import stat
import threading
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from arena.api.views import accounts
from bots.sdk.client import PROTOCOL_VERSION, SDK_VERSION
from workers.cli import main

pytestmark = pytest.mark.django_db(transaction=True)

GOOD_BOT = b"import random\ndef act(observation, legal_actions):\n    return legal_actions[0]\n"


@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv("ARENA_CONFIG_DIR", str(folder))
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    monkeypatch.delenv("ARENA_URL", raising=False)
    return folder


def arena(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("arena: error: "), err
    return lines[0].removeprefix("arena: error: ")


def logged_in(live_server, capsys, monkeypatch, username: str = "ada") -> None:
    User.objects.create_user(username, password="moon-rover-42")
    code, out, err = arena(
        capsys,
        "login",
        live_server.url,
        "--username",
        username,
        "--password-stdin",
        stdin="moon-rover-42\n",
        monkeypatch=monkeypatch,
    )
    assert code == 0, err
    assert f"as {username}" in out


def test_the_service_and_the_sdk_agree_on_the_protocol():
    assert accounts.PROTOCOL_VERSION == PROTOCOL_VERSION
    assert tuple(map(int, accounts.OLDEST_SDK.split("."))) <= tuple(
        map(int, SDK_VERSION.split("."))
    )


def test_login_keeps_the_token_for_its_owner_only(live_server, config, capsys, monkeypatch):
    logged_in(live_server, capsys, monkeypatch)
    kept = config / "credentials.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert json.loads(kept.read_text())["url"] == live_server.url
    code, out, err = arena(capsys, "bots")
    assert code == 0 and "no bots yet" in out


def test_a_wrong_password_is_one_line(live_server, config, capsys, monkeypatch):
    User.objects.create_user("ada", password="moon-rover-42")
    code, _, err = arena(
        capsys,
        "login",
        live_server.url,
        "--username",
        "ada",
        "--password-stdin",
        stdin="wrong\n",
        monkeypatch=monkeypatch,
    )
    assert code == 1
    assert one_line_error(err).startswith("login refused: ")
    assert not (config / "credentials.json").exists()


def test_an_unreachable_server_is_one_line(config, capsys, monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    code, _, err = arena(
        capsys,
        "login",
        f"http://127.0.0.1:{port}",
        "--username",
        "ada",
        "--password-stdin",
        stdin="x\n",
        monkeypatch=monkeypatch,
    )
    assert code == 1
    assert one_line_error(err).startswith(f"cannot reach the arena at http://127.0.0.1:{port}")


def test_a_server_that_is_not_an_arena_is_one_line(config, capsys, monkeypatch):
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the handler's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html>hello</html>")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        code, _, err = arena(
            capsys, "login", url, "--username", "a", "--password-stdin", stdin="x\n",
            monkeypatch=monkeypatch,
        )  # fmt: skip
    finally:
        server.shutdown()
    assert code == 1
    assert "did not answer like a Moon Arena" in one_line_error(err)


def test_a_bad_token_is_one_line(live_server, config, capsys, monkeypatch):
    monkeypatch.setenv("ARENA_URL", live_server.url)
    monkeypatch.setenv("ARENA_TOKEN", "not-a-token")
    code, _, err = arena(capsys, "bots")
    assert code == 1
    assert one_line_error(err) == "the arena refused the token: run `arena login URL` again"


def test_not_logged_in_is_a_usage_error(config, capsys):
    code, _, err = arena(capsys, "status")
    assert code == 2
    assert one_line_error(err) == "not logged in: run `arena login URL` first"


def test_an_unknown_game_is_one_line(live_server, config, capsys, monkeypatch, tmp_path):
    logged_in(live_server, capsys, monkeypatch)
    bot = tmp_path / "bot.py"
    bot.write_bytes(GOOD_BOT)
    code, _, err = arena(capsys, "submit", str(bot), "--game", "chess")
    assert code == 2
    message = one_line_error(err)
    assert message.startswith("unknown game 'chess': choose one of ") and "moonrollers" in message


def test_a_file_the_arena_refuses_is_one_line(live_server, config, capsys, monkeypatch, tmp_path):
    logged_in(live_server, capsys, monkeypatch)
    bot = tmp_path / "bot.py"
    bot.write_bytes(b"def act(observation, legal_actions:\n")
    code, _, err = arena(capsys, "submit", str(bot), "--game", "moonrollers", "--no-wait")
    assert code == 1
    assert one_line_error(err) == ("the bot is not valid Python: '(' was never closed (line 1)")
    missing = tmp_path / "missing.py"
    code, _, err = arena(capsys, "submit", str(missing), "--game", "moonrollers")
    assert code == 2 and one_line_error(err).startswith(f"cannot read {missing}")


def test_an_sdk_older_than_the_arena_accepts_is_told_to_upgrade(
    live_server, config, capsys, monkeypatch
):
    monkeypatch.setattr(accounts, "OLDEST_SDK", "99.0.0")
    code, _, err = arena(
        capsys, "login", live_server.url, "--username", "a", "--password-stdin", stdin="x\n",
        monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 1
    assert one_line_error(err).endswith("pip install --upgrade moon-arena-sdk")


def test_submit_then_status_matches_and_bots_as_json(
    live_server, config, capsys, monkeypatch, tmp_path
):
    logged_in(live_server, capsys, monkeypatch)
    bot = tmp_path / "first.py"
    bot.write_bytes(GOOD_BOT)
    code, out, err = arena(
        capsys, "submit", str(bot), "--game", "moonrollers", "--no-wait", "--json"
    )
    assert code == 0, err
    submitted = json.loads(out)
    assert submitted["bot"] == "first" and submitted["version"]["number"] == 1
    code, out, err = arena(
        capsys, "submit", str(bot), "--game", "moonrollers", "--no-wait", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["version"]["number"] == 2  # the same name: a new version
    code, out, _ = arena(capsys, "status", "first", "--json")
    status = json.loads(out)
    assert [v["number"] for v in status["versions"]] == [1, 2]
    assert status["bot"]["ladder_status"] == "waiting"
    code, out, _ = arena(capsys, "bots", "--json")
    assert [b["name"] for b in json.loads(out)] == ["first"]
    code, out, _ = arena(capsys, "matches", "first", "--json")
    assert code == 0 and json.loads(out) == []
    code, _, err = arena(capsys, "submit", str(bot), "--game", "moon_adventure", "--no-wait")
    assert code == 2 and "plays moonrollers" in one_line_error(err)


def test_a_challenge_takes_its_test_settings_from_the_command_line(
    live_server, config, capsys, monkeypatch, settings
):
    from arena.models import Bot, Match

    settings.ARENA_ENQUEUE_MATCHES = "tests.arena.conftest.record_enqueue_matches"
    logged_in(live_server, capsys, monkeypatch)
    bot = Bot.objects.create(
        owner=User.objects.get(username="ada"), name="mine", game="moonrollers"
    )
    old = bot.add_version(GOOD_BOT, "bot.py")
    new = bot.add_version(GOOD_BOT.replace(b"[0]", b"[-1]"), "bot.py")
    code, out, err = arena(
        capsys, "challenge", str(new.pk), str(old.pk), "--elo1", "100", "--max-games", "40",
        "--batch-pairs", "3", "--batches-in-flight", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    made = json.loads(out)
    assert (made["game"], made["elo0"], made["elo1"], made["max_games"]) == (
        "moonrollers",
        0,
        100,
        40,
    )
    assert (made["batch_pairs"], made["batches_in_flight"]) == (3, 1)
    assert Match.objects.filter(challenge_id=made["id"]).count() == 6  # one batch of 3 pairs
    code, _, err = arena(capsys, "challenge", str(new.pk), str(old.pk), "--batches-in-flight", "0")
    assert code != 0 and "batches_in_flight must be 1-16" in one_line_error(err)
