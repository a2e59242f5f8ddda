"""The OpenAPI schema and its interactive docs."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_schema_describes_every_endpoint(anonymous):
    reply = anonymous.get("/api/schema/?format=json")
    assert reply.status_code == 200
    paths = reply.json()["paths"]
    for path in [
        "/api/users/",
        "/api/token/",
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
