"""Moon-Bots worlds from observations: consistent, drawn from the right distribution, seeded."""

from __future__ import annotations

import random
from collections import Counter

from scipy.stats import chisquare

from bots.sdk.worlds import world_from_observation
from engine.core.registry import get_game
from engine.games.moon_bots.cards import CARDS, KEY, SECRET_KINDS

GAME = get_game("moon_bots")
SETUPS = [(2, {}), (3, {}), (4, {}), (2, {"max_rounds": 3}), (4, {"max_rounds": 2})]


def _positions(games_per_setup: int, stride: int):
    """(state, options) at every `stride`-th decision of random games."""
    for index, (players, options) in enumerate(SETUPS):
        for game in range(games_per_setup):
            seed = 1000 * index + game
            chooser = random.Random(seed)
            state = GAME.new_state(players, seed, options)
            step = 0
            while True:
                if step % stride == 0 or state.is_terminal():
                    yield state, options
                if state.is_terminal():
                    break
                state.apply(chooser.choice(state.legal_actions()))
                step += 1


def _playout(world, rng: random.Random) -> None:
    for _ in range(20000):
        if world.is_terminal():
            return
        world.apply(rng.choice(world.legal_actions()))
    raise AssertionError("a playout from the world did not end")


def test_worlds_match_the_observation_at_thousands_of_positions() -> None:
    checked = 0
    rng = random.Random(7)
    for state, options in _positions(games_per_setup=10, stride=3):
        mover = state.to_move()
        seats = {mover if mover is not None else 0, rng.randrange(state.num_players)}
        for seat in seats:
            observation = state.observation(seat)
            world = world_from_observation("moon_bots", observation, seat, rng, options=options)
            assert world.observation(seat) == observation
            assert world.to_move() == state.to_move()
            if seat == mover:
                assert world.legal_actions() == state.legal_actions()
            if checked % 10 == 0:
                _playout(world, rng)
            checked += 1
    assert checked > 3000


def _position_with_hidden_weapons():
    """A 3-player game some way in: seat 1 holds weapons seat 0 cannot see."""
    for state, _ in _positions(games_per_setup=8, stride=1):
        if (
            state.num_players == 3
            and not state.over
            and len(state.robots[1].secrets) >= 1
            and not state.searches
        ):
            return state
    raise AssertionError("no such position")


def _unseen_weapon_kinds(observation: dict) -> Counter:
    """Every weapon of the table less the seat's own and those played: what it has not seen."""
    three = len(observation["robots"]) == 3 and not observation["two_player"]
    unseen = Counter(
        c.key for c in CARDS if c.key in SECRET_KINDS and not (three and c.three_player)
    )
    for robot in observation["robots"]:
        unseen.subtract(robot["secret_weapons"] or [])
    unseen.subtract(observation["used_secret_weapons"])
    return +unseen


def test_an_opponents_hidden_weapon_follows_the_exact_distribution() -> None:
    state = _position_with_hidden_weapons()
    observation = state.observation(0)
    unseen = _unseen_weapon_kinds(observation)
    kinds = sorted(unseen)
    rng = random.Random(11)
    samples = 3000
    drawn = Counter()
    for _ in range(samples):
        world = world_from_observation("moon_bots", observation, 0, rng)
        drawn[KEY[world.robots[1].secrets[0]]] += 1
    total = sum(unseen.values())
    expected = [samples * unseen[k] / total for k in kinds]
    assert chisquare([drawn[k] for k in kinds], expected).pvalue > 0.001


def test_the_same_seed_gives_the_same_world() -> None:
    state = _position_with_hidden_weapons()
    observation = state.observation(0)

    def everything(world):
        seen = [world.observation(p) for p in range(world.num_players)]
        hands = [rb.secrets for rb in world.robots]
        return seen, hands, world.deck, world.removed_unseen, world.rng.random()

    first = world_from_observation("moon_bots", observation, 0, random.Random(5))
    again = world_from_observation("moon_bots", observation, 0, random.Random(5))
    other = world_from_observation("moon_bots", observation, 0, random.Random(6))
    assert everything(first) == everything(again)
    assert everything(first) != everything(other)
