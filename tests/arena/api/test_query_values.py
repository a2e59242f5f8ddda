"""Empty query values are refused with a 400 naming the parameter; unknown addresses under
/api/ (malformed ids included) answer the API's JSON 404, wrong methods its JSON 405."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/api/matches/?status=", "status"),
        ("/api/matches/?page=", "page"),
        ("/api/matches/?tournament=", "tournament"),
        ("/api/bots/?game=", "game"),
        ("/api/tournaments/?status=&game=duel", "status"),
        ("/api/leaderboards/duel/?page_size=", "page_size"),
        ("/api/games/?format=", "format"),
    ],
)
def test_an_empty_query_value_is_a_400_naming_the_parameter(anonymous, path, name):
    response = anonymous.get(path)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["detail"].startswith(f"{name}: ")
    assert name in body


def test_a_filled_query_value_still_filters(anonymous):
    assert anonymous.get("/api/matches/?status=finished").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/null,null/replay/",
        "/api/matches/1.5/",
        "/api/bots/abc/",
        "/api/bots/-1/versions/",
        "/api/tournaments/%00/",
        "/api/nothing-here/",
        "/api/bots/1/unknown/",
        "/api/matches/9999999999999999999999/",
    ],
)
def test_an_unknown_or_malformed_api_address_answers_json_404(anonymous, path):
    response = anonymous.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_pages_outside_the_api_keep_djangos_404(anonymous):
    response = anonymous.get("/nothing-here/")
    assert response.status_code == 404
    assert "json" not in response["Content-Type"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", "/api/games/"),
        ("put", "/api/matches/1/"),
        ("delete", "/api/matches/1/"),
        ("post", "/api/leaderboards/duel/"),
        ("patch", "/api/token/"),
    ],
)
def test_a_method_not_allowed_answers_json_405(anonymous, method, path):
    response = getattr(anonymous, method)(path)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "method_not_allowed"
