"""The reference heuristic plays every seat legally and gathers far more than random play."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from tests.engine.moon_adventure.helpers import GAME

BOT_FILE = (
    Path(__file__).resolve().parents[3] / "bots" / "reference" / "moon_adventure_heuristic.py"
)


@pytest.fixture(scope="module")
def bot():
    spec = importlib.util.spec_from_file_location("moon_adventure_heuristic", BOT_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(players, seed, choose, options=None):
    state = GAME.new_state(players, seed, options)
    while not state.is_terminal():
        seat = state.to_move()
        legal = state.legal_actions()
        action = choose(state.observation(seat), legal)
        assert action in legal
        state.apply(action)
    return state.result()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_heuristic_plays_whole_games_at_every_table_size(bot, players):
    for seed in range(2):
        result = play(players, seed, bot.act)
        assert result["outcome"] in ("success", "failure")


def test_the_heuristic_chooses_roles_when_asked(bot):
    result = play(3, 4, bot.act, {"roles": "chosen", "beginner": False})
    assert result["outcome"] in ("success", "failure")


def test_the_heuristic_brings_back_more_supplies_than_random_play(bot):
    rng = random.Random(0)
    games = 12
    heuristic = sum(play(3, 100 + s, bot.act)["team_score"] for s in range(games))
    randomly = sum(
        play(3, 100 + s, lambda obs, legal: rng.choice(legal))["team_score"] for s in range(games)
    )
    assert heuristic >= randomly + games  # about 3 per game against about 0
