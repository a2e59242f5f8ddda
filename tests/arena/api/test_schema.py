"""The OpenAPI schema and its interactive docs: errors documented as answered, constraints stated."""

from __future__ import annotations

import re
from datetime import timedelta

import jsonschema
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

import engine
from arena.models import Tournament
from arena.services.tournaments import MAX_GAMES_PER_PAIRING
from tests.arena.conftest import GOOD_BOT

pytestmark = pytest.mark.django_db


def test_the_schema_describes_every_endpoint(anonymous):
    reply = anonymous.get("/api/schema/?format=json")
    assert reply.status_code == 200
    paths = reply.json()["paths"]
    for path in [
        "/api/users/",
        "/api/token/",
        "/api/tokens/",
        "/api/tokens/{id}/",
        "/api/games/",
        "/api/bots/",
        "/api/bots/{id}/versions/",
        "/api/tournaments/",
        "/api/tournaments/{id}/start/",
        "/api/matches/",
        "/api/matches/{id}/replay/",
        "/api/leaderboards/{game}/",
    ]:
        assert path in paths, path


def test_the_interactive_docs_are_served(anonymous):
    reply = anonymous.get("/api/docs/")
    assert reply.status_code == 200 and b"swagger" in reply.content.lower()


def test_the_api_root_lists_the_resources(anonymous):
    assert {"games", "bots", "tournaments", "matches", "leaderboards"} <= set(
        anonymous.get("/api/").json()
    )


def test_the_schema_generates_without_warnings_and_validates(tmp_path):
    # The same check as `manage.py spectacular --validate --fail-on-warn` (it raises on either).
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


# --- error answers --------------------------------------------------------------------------


def schema(client) -> dict:
    return client.get("/api/schema/?format=json").json()


def documented(client, method: str, path: str) -> set[str]:
    return set(schema(client)["paths"][path][method.lower()]["responses"])


@pytest.mark.parametrize(
    ("method", "path", "codes"),
    [
        ("POST", "/api/bots/", {"201", "400", "401", "403", "409", "503", "429"}),
        (
            "GET",
            "/api/bots/",
            {"200", "400", "401", "404", "429"},
        ),  # bad filter; a page past the end
        ("GET", "/api/bots/{id}/", {"200", "401", "404", "429"}),
        ("PATCH", "/api/bots/{id}/", {"200", "400", "401", "403", "404", "409", "429"}),
        ("GET", "/api/bots/{id}/source/", {"200", "400", "401", "403", "404", "429"}),
        ("GET", "/api/bots/{id}/versions/", {"200", "401", "404", "429"}),
        ("POST", "/api/bots/{id}/versions/", {"201", "400", "401", "403", "404", "503", "429"}),
        ("GET", "/api/games/", {"200", "401", "429"}),
        ("POST", "/api/tournaments/", {"201", "400", "401", "403", "503", "429"}),
        (
            "POST",
            "/api/tournaments/{id}/start/",
            {"200", "400", "401", "403", "404", "409", "503", "429"},
        ),
        ("GET", "/api/leaderboards/{game}/", {"200", "400", "401", "404", "429"}),  # bad ?order=
        ("GET", "/api/bots/{id}/ratings/", {"200", "400", "401", "404", "429"}),
        ("GET", "/api/bots/{id}/anchors/", {"200", "401", "404", "429"}),
        ("POST", "/api/challenges/", {"201", "400", "401", "403", "409", "503", "429"}),
        ("GET", "/api/challenges/{id}/", {"200", "401", "404", "429"}),
        ("POST", "/api/challenges/{id}/cancel/", {"200", "401", "403", "404", "409", "429"}),
        ("POST", "/api/leaderboards/{game}/refit/", {"202", "401", "403", "404", "429"}),
        ("POST", "/api/users/", {"201", "400", "429"}),  # no authentication at all: never a 401
        ("POST", "/api/tokens/", {"201", "400", "401", "403", "429"}),  # 403: too many tokens
        ("DELETE", "/api/tokens/{id}/", {"204", "401", "403", "404", "429"}),
    ],
)
def test_each_operation_documents_the_errors_it_can_answer(anonymous, method, path, codes):
    # 429: every operation is rate limited (arena/api/throttling.py).
    assert documented(anonymous, method, path) == codes


def error_schema(client) -> dict:
    return schema(client)["components"]["schemas"]["Error"]


def test_the_error_schema_refuses_bodies_of_another_shape(anonymous):
    error = error_schema(anonymous)
    jsonschema.validate({"detail": "no", "code": "invalid", "name": ["bad"]}, error)
    for wrong in [{"detail": 5}, {"code": ["x"]}, {"name": "bad"}, ["bad"]]:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(wrong, error)


def bot_upload(name="alpha", game="duel"):
    file = SimpleUploadedFile("bot.py", GOOD_BOT, content_type="application/octet-stream")
    return {"name": name, "game": game, "file": file}


@pytest.mark.parametrize(
    ("persona", "method", "path", "url", "data", "code"),
    [
        # a domain error naming its field (arena.errors.InvalidInput)
        ("author", "POST", "/api/bots/", "/api/bots/", lambda: bot_upload("-x"), 400),
        # DRF's own validation errors: a list per field, or an object for a list field
        ("organiser", "POST", "/api/tournaments/", "/api/tournaments/", {"bots": "all"}, 400),
        ("organiser", "POST", "/api/tournaments/", "/api/tournaments/", {"bots": ["x"]}, 400),
        ("anonymous", "GET", "/api/matches/", "/api/matches/?status=exploded", None, 400),
        ("anonymous", "POST", "/api/bots/", "/api/bots/", lambda: bot_upload(), 401),
        ("author", "POST", "/api/tournaments/", "/api/tournaments/", {}, 403),
        ("other_author", "GET", "/api/bots/{id}/source/", "/api/bots/{bot}/source/", None, 403),
        ("anonymous", "GET", "/api/bots/{id}/", "/api/bots/999999/", None, 404),
        ("anonymous", "GET", "/api/bots/", "/api/bots/?page=9", None, 404),
        ("anonymous", "GET", "/api/games/{name}/", "/api/games/chess/", None, 404),
        ("author", "POST", "/api/bots/", "/api/bots/", lambda: bot_upload("taken"), 409),
    ],
)
def test_real_error_answers_are_documented_and_match_the_error_schema(
    request, make_bot, author_user, persona, method, path, url, data, code
):
    bot = make_bot(author_user, "taken")
    client = request.getfixturevalue(persona)
    data = data() if callable(data) else data
    send = client.post if method == "POST" else client.get
    reply = send(url.format(bot=bot.pk), data, **({"format": "multipart"} if data else {}))
    assert reply.status_code == code, reply.content
    assert str(code) in documented(client, method, path)
    jsonschema.validate(reply.json(), error_schema(client))


def test_a_tournament_started_twice_is_a_documented_conflict(
    organiser, make_bot, author_user, run_on_commit
):
    bots = [make_bot(author_user, name).pk for name in ("a1", "a2")]
    later = (timezone.now() + timedelta(days=1)).isoformat()
    data = {"name": "cup", "game": "duel", "bots": bots, "players_per_match": 2, "start_at": later}
    created = run_on_commit(organiser.post, "/api/tournaments/", data, format="json").json()
    url = f"/api/tournaments/{created['id']}/start/"
    assert run_on_commit(organiser.post, url).status_code == 200
    reply = run_on_commit(organiser.post, url)
    assert reply.status_code == 409
    assert "409" in documented(organiser, "POST", "/api/tournaments/{id}/start/")
    jsonschema.validate(reply.json(), error_schema(organiser))


# --- constraints the services check ----------------------------------------------------------


def request_schema(client, name: str) -> dict:
    return schema(client)["components"]["schemas"][name]


def test_games_are_an_enum_of_the_registered_games_even_one_registered_later(anonymous):
    # duel and crew are registered by the test fixtures, after the serializers were imported.
    games = schema(anonymous)["components"]["schemas"]["GameEnum"]["enum"]
    assert games == engine.game_names() and {"duel", "crew"} <= set(games)
    for name in ["BotCreateRequest", "TournamentCreateRequest"]:
        game = request_schema(anonymous, name)["properties"]["game"]
        assert game["allOf"] == [{"$ref": "#/components/schemas/GameEnum"}]


@pytest.mark.parametrize("name", ["alpha", "a.b-c_1", "Z" * 64])
def test_a_name_the_schema_allows_is_accepted(author, name):
    rule = request_schema(author, "BotCreateRequest")["properties"]["name"]
    assert re.fullmatch(rule["pattern"], name) and len(name) <= rule["maxLength"]
    assert author.post("/api/bots/", bot_upload(name), format="multipart").status_code == 201


@pytest.mark.parametrize("name", ["has space", "-dash-first", "x" * 65, "emoji✨", ".dot"])
def test_a_name_the_schema_refuses_is_refused(author, name):
    for schema_name in ["BotCreateRequest", "PatchedBotUpdateRequest"]:
        rule = request_schema(author, schema_name)["properties"]["name"]
        assert not re.fullmatch(rule["pattern"], name) or len(name) > rule["maxLength"]
    assert author.post("/api/bots/", bot_upload(name), format="multipart").status_code == 400


def test_tournament_numbers_and_format_have_the_services_bounds(anonymous):
    properties = request_schema(anonymous, "TournamentCreateRequest")["properties"]
    games = [engine.get_game(name) for name in engine.game_names()]
    assert properties["players_per_match"]["minimum"] == min(g.min_players for g in games)
    assert properties["players_per_match"]["maximum"] == max(g.max_players for g in games)
    assert properties["games_per_pairing"]["minimum"] == 1
    assert properties["games_per_pairing"]["maximum"] == MAX_GAMES_PER_PAIRING
    assert properties["format"]["allOf"] == [{"$ref": "#/components/schemas/FormatEnum"}]
    formats = schema(anonymous)["components"]["schemas"]["FormatEnum"]["enum"]
    assert formats == Tournament.Format.values


def test_a_password_shorter_than_the_validators_allow_is_documented_and_refused(anonymous):
    password = request_schema(anonymous, "UserCreateRequest")["properties"]["password"]
    assert password["minLength"] == 8  # Django's MinimumLengthValidator default
    reply = anonymous.post("/api/users/", {"username": "ada", "password": "Xq7#pz"})
    assert reply.status_code == 400 and "password" in reply.json()
