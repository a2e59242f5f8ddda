"""The reference heuristic: legal at every seat count, answers every window, keeps the market moving."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.engine.moon_bots.support import give, new, place, start_turn

BOT = Path(__file__).resolve().parents[3] / "bots" / "reference" / "moon_bots_heuristic.py"


def _load():
    spec = importlib.util.spec_from_file_location("moon_bots_heuristic", BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_heuristic_tables_finish_by_the_rules_not_the_turn_cap():
    bot = _load()
    capped = 0
    for players in (2, 3, 4):
        for seed in range(12):
            state = new(players, seed=seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                action = bot.act(state.observation(state.to_move()), legal)
                assert action in legal
                state.apply(action)
            capped += state.result()["turn_cap_reached"]
    assert capped <= 1


def test_heuristic_buys_a_free_fitting_card_rather_than_leave_the_market_frozen():
    """Stalled games came from markets of two-dice parts nobody with one die would buy."""
    bot = _load()
    state = new(4)
    for slot, key in enumerate(("P23", "reroll", "P19", "fist_bonus", "P10", "P07")):
        place(state, slot, key)
    start_turn(state, 0)
    assert bot.act(state.observation(0), state.legal_actions()) == ["buy", 0]


def test_heuristic_rests_an_opponent_after_seeing_the_roll_when_it_is_a_target():
    bot = _load()
    state = new(4)
    give(state, 0, "stronger")
    give(state, 1, "rest")
    start_turn(state, 0)
    state.apply("roll")
    seen = state.observation(1)
    assert seen["decision"]["kind"] == "after_roll"
    assert bot.act(seen, state.legal_actions()) == ["sw", "rest"]
