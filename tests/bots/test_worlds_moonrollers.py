"""Moonrollers worlds from observations: consistent, drawn from the right distribution, seeded."""

from __future__ import annotations

import random

from scipy.stats import chisquare

from bots.sdk.worlds import world_from_observation
from engine.core.registry import get_game
from engine.games.moonrollers.cards import CREW, CREW_INDEX, HAZARD_KINDS, HAZARD_PRESTIGE

GAME = get_game("moonrollers")
SETUPS = [
    (2, {}),
    (3, {"variant": "long"}),
    (4, {"ability_wild_fills_wild_requirement": False}),
    (5, {}),
    (2, {"variant": "long"}),
]


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
    for _ in range(5000):
        if world.is_terminal():
            return
        world.apply(rng.choice(world.legal_actions()))
    raise AssertionError("a playout from the world did not end")


def test_worlds_match_the_observation_at_thousands_of_positions() -> None:
    checked = 0
    rng = random.Random(7)
    for state, options in _positions(games_per_setup=12, stride=3):
        mover = state.to_move()
        seats = {mover if mover is not None else 0, rng.randrange(state.num_players)}
        for seat in seats:
            observation = state.observation(seat)
            world = world_from_observation("moonrollers", observation, seat, rng, options=options)
            assert world.observation(seat) == observation
            assert world.to_move() == state.to_move()
            if seat == mover:
                assert world.legal_actions() == state.legal_actions()
            if checked % 10 == 0:
                _playout(world, rng)
            checked += 1
    assert checked > 3000


def _position_with_hidden_tokens():
    """A 3-player game some way in: the deck and other seats' tokens are hidden from seat 0."""
    for state, _ in _positions(games_per_setup=12, stride=1):
        others = sum(sum(state.hz[p]) for p in range(1, state.num_players))
        if state.num_players == 3 and not state.over and others >= 3 and len(state.deck) > 10:
            return state
    raise AssertionError("no such position")


def test_hidden_tokens_and_deck_follow_the_exact_distribution() -> None:
    state = _position_with_hidden_tokens()
    seat = 0
    observation = state.observation(seat)
    rng = random.Random(11)
    samples = 3000
    # The next crew card: every crew off the table equally likely.
    on_table = {CREW_INDEX[d["crew"]] for d in observation["display"]}
    for player in observation["players"]:
        for stack in player["crew"].values():
            on_table.update(CREW_INDEX[c] for c in stack)
    unseen_crew = [c.index for c in CREW if c.index not in on_table]
    # Seat 1's first token (smallest kind first): exact counts from the unseen tokens.
    unseen_tokens = [k.count for k in HAZARD_KINDS]
    for value in observation["my_hazard_tokens"]:
        unseen_tokens[HAZARD_PRESTIGE.index(value)] -= 1
    players = observation["players"]
    next_card = dict.fromkeys(unseen_crew, 0)
    token_kinds = [0] * len(HAZARD_KINDS)
    for _ in range(samples):
        world = world_from_observation("moonrollers", observation, seat, rng)
        next_card[world.deck[-1]] += 1
        holder = next(p for p in range(1, len(players)) if players[p]["hazard_tokens"])
        tokens = [k for k, n in enumerate(world.hz[holder]) for _ in range(n)]
        token_kinds[rng.choice(tokens)] += 1
    expected_card = [samples / len(unseen_crew)] * len(unseen_crew)
    assert chisquare(list(next_card.values()), expected_card).pvalue > 0.001
    total = sum(unseen_tokens)
    expected_tokens = [samples * n / total for n in unseen_tokens]
    assert chisquare(token_kinds, expected_tokens).pvalue > 0.001


def test_the_same_seed_gives_the_same_world() -> None:
    state = _position_with_hidden_tokens()
    observation = state.observation(0)

    def everything(world):
        seen = [world.observation(p) for p in range(world.num_players)]
        return seen, world.deck, world.pile, world.rng.random()

    first = world_from_observation("moonrollers", observation, 0, random.Random(5))
    again = world_from_observation("moonrollers", observation, 0, random.Random(5))
    other = world_from_observation("moonrollers", observation, 0, random.Random(6))
    assert everything(first) == everything(again)
    assert everything(first) != everything(other)
