"""The conformance suite: every registered game, every player count, same checks.

A new game under engine/games/ is picked up here with no edit.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.core.state import same_json

MAX_DECISIONS = 50_000
SEEDS_PER_COUNT = 12

BAD_ACTIONS = [
    None,
    True,
    -987654321,
    "certainly-not-an-action",
    [],
    {"no": "such action"},
    [["deeply", ["nested"]], 1.5],
    float("nan"),
]


def _configs():
    configs = []
    for name in engine.game_names():
        game = engine.get_game(name)
        option_sets = [None]
        for option in game.options:
            if option.subset_of is not None:
                option_sets.append({option.name: []})
            for choice in option.choices or ():
                if choice != option.default:
                    option_sets.append({option.name: choice})
        for players in range(game.min_players, game.max_players + 1):
            for options in option_sets:
                label = f"{name}-{players}p" + ("" if options is None else f"-{options}")
                configs.append(pytest.param(name, players, options, id=label))
    return configs


CONFIGS = _configs()


def random_playout(state, rng, on_step=None):
    steps = 0
    while not state.is_terminal():
        assert steps < MAX_DECISIONS, "game did not finish"
        if on_step is not None:
            on_step(state, steps)
        legal = state.legal_actions()
        assert legal, "a non-terminal state must offer at least one action"
        state.apply(rng.choice(legal))
        steps += 1
    return steps


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_random_playouts_finish_with_a_well_formed_result(name, players, options):
    game = engine.get_game(name)
    for seed in range(SEEDS_PER_COUNT):
        state = game.new_state(players, seed, options)

        def check(state, step):
            seat = state.to_move()
            assert isinstance(seat, int) and 0 <= seat < players
            json.dumps(state.legal_actions())
            if step % 7 == 0:
                for other in range(players):
                    json.dumps(state.observation(other))

        random_playout(state, random.Random(seed * 7919 + players), check)
        assert state.to_move() is None
        assert state.legal_actions() == []
        result = state.result()
        json.dumps(result)
        assert len(result["ranks"]) == players
        assert len(result["scores"]) == players
        assert min(result["ranks"]) == 1
        assert all(1 <= rank <= players for rank in result["ranks"])
        if game.cooperative:
            assert len(set(result["ranks"])) == 1, "a cooperative table shares one rank"
            assert result["outcome"] in ("success", "failure")


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_same_seed_and_actions_give_the_same_game(name, players, options):
    game = engine.get_game(name)
    for seed in (3, 1234567):
        first = game.new_state(players, seed, options)
        random_playout(first, random.Random(seed))
        second = game.new_state(players, seed, options)
        for action in first.actions:
            second.apply(action)
        assert second.is_terminal()
        assert same_json(first.record(), second.record())
        for seat in range(players):
            assert first.observation(seat) == second.observation(seat)


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_replay_reproduces_and_detects_tampering(name, players, options):
    game = engine.get_game(name)
    state = game.new_state(players, 99, options)
    random_playout(state, random.Random(5))
    record = json.loads(json.dumps(state.record()))
    replayed = engine.replay(record)
    assert replayed.result() == state.result()

    tampered = json.loads(json.dumps(record))
    tampered["result"]["scores"][0] += 1000
    with pytest.raises(engine.ReplayMismatch):
        engine.replay(tampered)

    truncated = json.loads(json.dumps(record))
    truncated["actions"] = truncated["actions"][: len(truncated["actions"]) // 2]
    with pytest.raises(engine.ReplayMismatch):
        engine.replay(truncated)


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_illegal_and_malformed_actions_are_rejected_without_changing_state(name, players, options):
    game = engine.get_game(name)
    state = game.new_state(players, 7, options)
    rng = random.Random(11)

    def probe(state, step):
        if step % 5:
            return
        before = json.dumps(state.record(), sort_keys=True)
        seen_before = [state.observation(seat) for seat in range(players)]
        for bad in BAD_ACTIONS:
            with pytest.raises(engine.IllegalAction) as error:
                state.apply(bad)
            assert str(error.value)
        assert json.dumps(state.record(), sort_keys=True) == before
        assert [state.observation(seat) for seat in range(players)] == seen_before

    random_playout(state, rng, probe)
    with pytest.raises(engine.IllegalAction):
        state.apply(rng.choice([None, "stop", 0]))


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_observation_does_not_depend_on_what_the_seat_cannot_see(name, players, options):
    """Two states that differ only in what `seat` cannot see look the same to it.

    The resampled copy must also really differ somewhere: played forward with the
    same actions, some observation eventually tells the two worlds apart.
    """
    game = engine.get_game(name)
    worlds_differed = 0
    for seed in range(6):
        state = game.new_state(players, seed, options)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal() and steps < MAX_DECISIONS:
            if steps % 9 == 0:
                seat = steps // 9 % players
                other = state.resample_hidden(seat, random.Random(steps + seed))
                assert other.observation(seat) == state.observation(seat)
                assert other.to_move() == state.to_move()
                if state.to_move() == seat:
                    assert other.legal_actions() == state.legal_actions()
                worlds_differed += _diverges(state, other, random.Random(steps), players)
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    assert worlds_differed, "resample_hidden never changed anything observable later"


def _diverges(state, other, rng, players, horizon=60):
    state, other = state.clone(), other.clone()
    for _ in range(horizon):
        if any(state.observation(s) != other.observation(s) for s in range(players)):
            return 1
        if state.is_terminal() or other.is_terminal():
            return int(state.is_terminal() != other.is_terminal())
        legal = state.legal_actions()
        action = rng.choice(legal)
        if action not in other.legal_actions():
            return 1
        state.apply(action)
        other.apply(action)
    return 0


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_clone_is_independent(name, players, options):
    state = engine.get_game(name).new_state(players, 21, options)
    copy = state.clone()
    random_playout(copy, random.Random(2))
    assert state.actions == []
    assert not state.is_terminal()
