"""A Python client generated from the served schema works as generated.

openapi-python-client builds a package from /api/schema/ of a live server; the test imports
it and runs a new author's flow with it, unmodified: register, get a token, list the games,
upload a bot, list its versions, read the leaderboard. (The token's prefix is the client's
`prefix` argument: the schema's Token scheme names it; generated clients default to Bearer.)
"""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
from pathlib import Path
from urllib.request import urlopen

import pytest

from tests.arena.conftest import GOOD_BOT

GENERATOR = Path(sys.executable).with_name("openapi-python-client")

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def client_package(live_server, tmp_path, monkeypatch):
    schema = json.load(urlopen(f"{live_server.url}/api/schema/?format=json"))
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    (tmp_path / "config.yaml").write_text("post_hooks: []\npackage_name_override: arena_client\n")
    subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--output-path",
            str(tmp_path / "arena_client"),
            "--meta",
            "none",
            "--config",
            str(tmp_path / "config.yaml"),
        ],
        check=True,
        capture_output=True,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "arena_client" or m.startswith("arena_client.")]:
        del sys.modules[name]
    return importlib.import_module("arena_client")


def test_a_generated_client_runs_a_new_authors_flow_unmodified(client_package, live_server):
    api = importlib.import_module("arena_client.api")
    for module in [
        "accounts.users_create",
        "accounts.token_create",
        "games.games_list",
        "bots.bots_create",
        "bots.bots_versions_list",
        "leaderboards.leaderboards_retrieve",
    ]:
        importlib.import_module(f"arena_client.api.{module}")
    models = importlib.import_module("arena_client.models")
    types = importlib.import_module("arena_client.types")
    anonymous = client_package.Client(base_url=live_server.url, raise_on_unexpected_status=True)

    user = api.accounts.users_create.sync(
        client=anonymous, body=models.UserCreateRequest(username="nova", password="moon-rover-42")
    )
    assert user.username == "nova"
    token = api.accounts.token_create.sync(
        client=anonymous, body=models.AuthTokenRequest(username="nova", password="moon-rover-42")
    )
    author = client_package.AuthenticatedClient(
        base_url=live_server.url, token=token.token, prefix="Token", raise_on_unexpected_status=True
    )
    games = api.games.games_list.sync(client=anonymous)
    assert "duel" in [game.name for game in games]

    upload = types.File(payload=io.BytesIO(GOOD_BOT), file_name="bot.py")
    bot = api.bots.bots_create.sync(
        client=author,
        body=models.BotCreateRequest(name="nova-bot", game=models.GameEnum("duel"), file=upload),
    )
    assert isinstance(bot, models.Bot) and bot.owner == "nova" and bot.version_count == 1

    versions = api.bots.bots_versions_list.sync(id=bot.id, client=author)
    assert [version.number for version in versions] == [1]
    board = api.leaderboards.leaderboards_retrieve.sync(game="duel", client=author)
    assert [entry.bot for entry in board.results] == ["nova-bot"]
