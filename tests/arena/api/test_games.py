"""GET /api/games/ and /api/games/{name}/: any registered game, no change needed."""

from __future__ import annotations

import pytest

import engine

pytestmark = pytest.mark.django_db


def test_games_lists_every_registered_game(anonymous):
    reply = anonymous.get("/api/games/")
    assert reply.status_code == 200
    by_name = {g["name"]: g for g in reply.json()}
    assert set(by_name) == set(engine.game_names())
    assert by_name["duel"] == {
        "name": "duel",
        "title": "Duel",
        "rules_version": "duel@1",
        "min_players": 2,
        "max_players": 4,
        "cooperative": False,
        "options": {"rounds": 1},
    }
    assert by_name["crew"]["cooperative"] is True


def test_one_game_by_name(author):
    assert author.get("/api/games/crew/").json()["min_players"] == 1


def test_an_unknown_game_is_a_404(anonymous):
    reply = anonymous.get("/api/games/chess/")
    assert reply.status_code == 404 and "unknown game" in reply.json()["detail"]
