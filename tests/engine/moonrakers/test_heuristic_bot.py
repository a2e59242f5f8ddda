"""The reference heuristic plays legal moves at every seat count and beats random play."""

import importlib.util
import random
from pathlib import Path

import pytest

import engine

BOT = Path(__file__).resolve().parents[3] / "bots" / "reference" / "moonrakers_heuristic.py"


def _load():
    spec = importlib.util.spec_from_file_location("moonrakers_heuristic", BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _play(players, seed, options, bot, heuristic_seats):
    state = engine.get_game("moonrakers").new_state(players, seed, options)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.to_move()
        legal = state.legal_actions()
        if seat in heuristic_seats:
            action = bot.act(state.observation(seat), legal)
            assert action in legal
        else:
            action = rng.choice(legal)
        state.apply(action)
    return state.result()


def test_heuristic_plays_every_seat_count_with_and_without_overload():
    bot = _load()
    for players in range(1, 6):
        for options in (None, {"expansions": []}):
            _play(players, players, options, bot, set(range(players)))


def test_heuristic_beats_random_two_players():
    bot = _load()
    better = 0
    for seed in range(12):
        result = _play(2, seed, None, bot, {seed % 2})
        scores = result["scores"]
        better += scores[seed % 2] > scores[1 - seed % 2]
    assert better >= 9


@pytest.mark.parametrize("players", [2, 3])
def test_heuristic_only_games_mostly_end_at_ten_prestige_not_at_the_round_cap(players):
    bot = _load()
    ended = 0
    for seed in range(8):
        result = _play(players, 100 + seed, None, bot, set(range(players)))
        ended += result["reason"] == "prestige" and max(result["scores"]) >= 10
    assert ended >= 5
