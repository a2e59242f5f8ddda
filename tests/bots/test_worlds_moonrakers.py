"""A Moonrakers world built from one seat's observation (bots/sdk/worlds/moonrakers.py)."""

from __future__ import annotations

import random
from collections import Counter

from scipy.stats import chisquare

from bots.sdk.worlds.moonrakers import world
from engine.core.registry import get_game
from engine.games.moonrakers.cards import CREW, OBJECTIVES, ids_for

GAME = get_game("moonrakers")
SAMPLES = 3000


def _sorted(actions: list) -> list[str]:
    # A hand's order is not in the observation (it is shown sorted), and "play" actions
    # follow the hand's order: compare the sets of actions.
    return sorted(map(repr, actions))


def _games():
    """(seed, players, options) for the consistency games: every player count, with
    and without the Overload expansion."""
    for seed in range(10):
        players = 1 + seed % 5
        expansions = ["overload"] if seed % 2 else []
        yield seed, players, {"expansions": expansions}


def test_world_shows_the_observation_and_plays_on() -> None:
    positions = playouts = 0
    for seed, players, options in _games():
        state = GAME.new_state(players, seed, options)
        play = random.Random(seed)
        history: list[list[dict]] = [[] for _ in range(players)]
        step = 0
        while not state.is_terminal():
            mover = state.to_move()
            seats = [mover] if step % 3 else [mover, (mover + 1) % players]
            for seat in seats:
                observation = state.observation(seat)
                rng = random.Random(seed * 100_000 + step * 10 + seat)
                sampled = world(observation, seat, rng, options=options, history=history[seat])
                history[seat].append(observation)
                positions += 1
                assert sampled.observation(seat) == observation
                assert sampled.to_move() == state.to_move()
                # Zek Zarag's options name the cards of one's own draw pile, which no
                # observation shows (its size only).
                if seat == mover and observation["pending"][0] != "zek":
                    assert _sorted(sampled.legal_actions()) == _sorted(state.legal_actions())
                if step % 40 == 0:
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
    assert positions > 8000
    assert playouts > 200


def _game_at(seed: int = 3, players: int = 3, moves: int = 60, seen: list | None = None):
    """The game after `moves` random moves; `seen` gets every observation seat 0 had."""
    state = GAME.new_state(players, seed, {"expansions": ["overload"]})
    play = random.Random(seed)
    for _ in range(moves):
        if seen is not None:
            seen.append(state.observation(0))
        state.apply(play.choice(state.legal_actions()))
    return state


def _position() -> tuple[dict, int]:
    state = _game_at()
    seat = state.to_move()
    return state.observation(seat), seat


def _chi_square(observed: Counter, pool: list[str]) -> float:
    """p of `observed` against every card of `pool` equally likely."""
    total = sum(observed.values())
    expected = [total / len(pool)] * len(pool)
    return float(chisquare([observed[c] for c in pool], expected).pvalue)


def test_crew_deck_top_is_uniform_over_unseen_crew() -> None:
    observation, seat = _position()
    seen = set(observation["armory_crew"]) | set(observation["hand"])
    seen |= set(observation["discard"]) | set(observation["draw_top"])
    for p in observation["players"]:
        seen |= set(p["known_hand"]) | set(p["draw_top_known"]) | {p["discard_top"]}
        seen |= {c for c, _ in p["in_play"]}
    unseen = [c for c in ids_for(("base", "overload"), CREW) if c not in seen]
    assert observation["crew_deck"] < len(unseen) + 1
    rng = random.Random(7)
    tops = Counter(world(observation, seat, rng).crew_deck[-1] for _ in range(SAMPLES))
    assert set(tops) <= set(unseen)
    assert _chi_square(tops, unseen) > 0.001


def test_an_opponents_objective_is_uniform_over_unknown_objectives() -> None:
    history: list[dict] = []
    state = _game_at(seen=history)
    seat = 0
    observation = state.observation(seat)
    known = set(observation["objectives"]) | set(observation["objective_choices"])
    for p in observation["players"]:
        known |= set(p["claimed"])
    # The objectives seat 0 was dealt and gave back lie under the deck: it knows them.
    dealt = {o for earlier in history for o in earlier["objective_choices"]}
    put_back = dealt - known
    assert put_back
    unknown = [o for o in ids_for(("base", "overload"), OBJECTIVES) if o not in known | put_back]
    opponent = 1
    assert observation["players"][opponent]["objectives_held"] >= 1
    rng = random.Random(11)
    held: Counter[str] = Counter()
    for _ in range(SAMPLES):
        sampled = world(observation, seat, rng, history=history)
        assert set(put_back) <= set(sampled.obj_deck[: len(put_back)])
        # Every objective the opponent holds, so no slot of its hand escapes the test
        # (two cards of one hand are never alike: the test errs on the safe side).
        held.update(sampled.objs[opponent])
    assert set(held) <= set(unknown)
    assert _chi_square(held, unknown) > 0.001


def _hidden_parts(state) -> tuple:
    return (
        state.cdeck,
        state.crew_deck,
        state.part_deck,
        state.obj_deck,
        state.objs,
        state.hand,
        state.draw,
        state.discard,
        state.rng.random(),
    )


def test_same_seed_same_world_other_seed_other_world() -> None:
    state = _game_at()
    seat = state.to_move()
    observation = state.observation(seat)
    first = world(observation, seat, random.Random(5))
    again = world(observation, seat, random.Random(5))
    other = world(observation, seat, random.Random(6))
    assert _hidden_parts(first) == _hidden_parts(again)
    assert first.observation(seat) == other.observation(seat) == observation
    assert first.crew_deck != other.crew_deck
    assert first.obj_deck != other.obj_deck
    # The world's dice and shuffles come from `rng`, never from the real game's RNG.
    assert first.rng.getstate() != other.rng.getstate()
    assert first.rng.getstate() != state.rng.getstate()
