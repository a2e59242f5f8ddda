"""A Moon Adventure world built from one seat's observation (bots/sdk/worlds/moon_adventure.py)."""

from __future__ import annotations

import random
from collections import Counter

from scipy.stats import chisquare

from bots.sdk.worlds.moon_adventure import world
from engine.core.registry import get_game
from engine.games.moon_adventure.data import RULES
from engine.games.moon_adventure.pieces import STORM

GAME = get_game("moon_adventure")
SAMPLES = 3000


def _games():
    """(seed, players, options): every player count and both variants of each option."""
    for seed in range(100):
        players = 2 + seed % 4
        options = {"roles": "chosen" if seed % 2 else "dealt", "beginner": seed % 3 == 0}
        yield seed, players, options


def test_world_shows_the_observation_and_plays_on() -> None:
    positions = playouts = 0
    for seed, players, options in _games():
        state = GAME.new_state(players, seed, options)
        play = random.Random(seed)
        step = 0
        while not state.is_terminal():
            for seat in range(players):
                observation = state.observation(seat)
                rng = random.Random(seed * 100_000 + step * 10 + seat)
                sampled = world(observation, seat, rng, options=options)
                positions += 1
                assert sampled.observation(seat) == observation
                assert sampled.to_move() == state.to_move()
                assert sampled.legal_actions() == state.legal_actions()
                if step % 10 == 0 and seat == 0:
                    playouts += 1
                    while not sampled.is_terminal():
                        sampled.apply(rng.choice(sampled.legal_actions()))
            state.apply(play.choice(state.legal_actions()))
            step += 1
        for seat in range(players):
            final = state.observation(seat)
            ended = world(final, seat, random.Random(seed), options=options)
            assert ended.is_terminal()
            assert ended.observation(seat) == final
    assert positions > 15000
    assert playouts > 300


def _position_with_draw_pile() -> tuple[dict, int]:
    """A position after a replenish reshuffled the discard into a draw pile."""
    for seed in range(1000):
        state = GAME.new_state(3, seed, {})
        play = random.Random(seed)
        while not state.is_terminal():
            seat = state.to_move()
            observation = state.observation(seat)
            if observation["draw_pile"]["size"] >= 4 and len(set(_composition(observation))) > 1:
                return observation, seat
            actions = state.legal_actions()
            # Lean on replenishing so draw piles appear.
            state.apply("draw" if "draw" in actions else play.choice(actions))
    raise AssertionError("no position with a draw pile")


def _composition(observation: dict) -> list[int]:
    pile = observation["draw_pile"]
    return [2] * pile["oxygen2"] + [3] * pile["oxygen3"] + [STORM] * pile["storms"]


def test_draw_pile_top_follows_the_public_composition() -> None:
    observation, seat = _position_with_draw_pile()
    counts = Counter(_composition(observation))
    rng = random.Random(3)
    tops = Counter(world(observation, seat, rng).draw[-1] for _ in range(SAMPLES))
    kinds = sorted(counts)
    total = sum(counts.values())
    expected = [SAMPLES * counts[k] / total for k in kinds]
    assert set(tops) <= set(kinds)
    assert chisquare([tops[k] for k in kinds], expected).pvalue > 0.001


def test_an_unseen_chip_is_broken_as_often_as_its_area_has_broken_chips_left() -> None:
    state = GAME.new_state(4, 1, {})
    seat = state.to_move()
    observation = state.observation(seat)
    area = 4
    # At the start every chip of the area is face down: 7 chips, `area` of them undamaged.
    first = next(i for i, s in enumerate(observation["track"]) if s.get("area") == area)
    rng = random.Random(9)
    flags: Counter[bool] = Counter()
    for _ in range(SAMPLES):
        sampled = world(observation, seat, rng)
        flags[sampled.broken[sampled.chip[first]]] += 1
    good = RULES.undamaged_per_area[area] / RULES.chips_per_area
    expected = [SAMPLES * good, SAMPLES * (1 - good)]
    assert chisquare([flags[False], flags[True]], expected).pvalue > 0.001


def test_same_seed_same_world_other_seed_other_world() -> None:
    state = GAME.new_state(3, 4, {})
    seat = state.to_move()
    observation = state.observation(seat)
    first = world(observation, seat, random.Random(5))
    again = world(observation, seat, random.Random(5))
    others = [world(observation, seat, random.Random(s)) for s in range(6, 12)]
    assert (first.broken, first.draw, first.rng.random()) == (
        again.broken,
        again.draw,
        again.rng.random(),
    )
    assert any((o.broken, o.draw) != (first.broken, first.draw) for o in others)
    assert all(o.observation(seat) == observation for o in others)
    # The world's dice come from `rng`, never from the real game's RNG.
    assert first.rng.getstate() != state.rng.getstate()
    assert len({o.rng.getstate() for o in others}) == len(others)
