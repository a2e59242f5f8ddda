"""Rebuilding a state from one seat's observation shows that seat the same table."""

from __future__ import annotations

import random

from engine.games.moon_adventure.data import RULES
from engine.games.moon_adventure.state import CHIP, MoonAdventureState
from tests.engine.moon_adventure.helpers import GAME


def positions(players, seed, steps_between=7):
    """States met along a random game (several phases, after gathers and draws)."""
    rng = random.Random(seed)
    state = GAME.new_state(players, seed, {"roles": "chosen"} if seed % 2 else None)
    while not state.is_terminal():
        if len(state.actions) % steps_between == 0:
            yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


def test_the_rebuilt_state_shows_its_seat_the_same_observation():
    checked = 0
    for seed in range(12):
        for state in positions(2 + seed % 4, seed):
            seat = state.to_move() if not state.is_terminal() else 0
            shown = state.observation(seat)
            rebuilt = MoonAdventureState.from_observation(GAME, shown, random.Random(seed))
            assert rebuilt.observation(seat) == shown
            if not state.is_terminal():
                assert rebuilt.legal_actions() == state.legal_actions()
            checked += 1
    assert checked > 50


def test_the_rebuilt_state_does_not_depend_on_hidden_information():
    for seed in range(8):
        for state in positions(3, seed):
            if state.is_terminal():
                continue
            seat = state.to_move()
            other = state.resample_hidden(seat, random.Random(seed + 99))
            a = MoonAdventureState.from_observation(GAME, state.observation(seat), random.Random(5))
            b = MoonAdventureState.from_observation(GAME, other.observation(seat), random.Random(5))
            assert a.broken == b.broken
            assert a.draw == b.draw


def test_hidden_flags_keep_each_areas_count_of_undamaged_chips():
    for seed in range(6):
        for state in positions(3, seed):
            shown = state.observation(state.to_move() if not state.is_terminal() else 0)
            for draw in range(3):
                rebuilt = MoonAdventureState.from_observation(GAME, shown, random.Random(draw))
                for area in RULES.areas:
                    good = sum(
                        1
                        for cid, a in enumerate(rebuilt.area)
                        if a == area and not rebuilt.broken[cid]
                    )
                    assert good == RULES.undamaged_per_area[area]
                assert sorted(rebuilt.draw) == sorted(state.draw)
                held = [i for slots in rebuilt.slots for i in slots if i >= CHIP]
                assert len(held) == sum(1 for slots in state.slots for i in slots if i >= CHIP)


def test_a_rebuilt_state_plays_on_to_the_end():
    state = next(iter(positions(3, 3, steps_between=40)))
    for _ in range(60):
        state.apply(random.Random(1).choice(state.legal_actions()))
        if state.is_terminal():
            break
    rebuilt = MoonAdventureState.from_observation(
        GAME, state.observation(state.to_move() or 0), random.Random(2)
    )
    rng = random.Random(3)
    while not rebuilt.is_terminal():
        rebuilt.apply(rng.choice(rebuilt.legal_actions()))
    assert rebuilt.result()["outcome"] in ("success", "failure")
