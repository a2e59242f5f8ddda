"""Replay frames and the spectator view, for every registered game (like the conformance suite).

A frame per position (decisions + 1), the last one's result the record's; the spectator
view shows only what every seat sees, so information hidden from all seats never shows.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.core.state import same_json
from tests.engine.test_conformance import CONFIGS, random_playout


def _played(name, players, options, seed):
    state = engine.get_game(name).new_state(players, seed, options)
    random_playout(state, random.Random(seed + 1))
    return state


def _leaves(view, path=()):
    if isinstance(view, dict):
        for key, value in view.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(view, list):
        for index, value in enumerate(view):
            yield from _leaves(value, (*path, index))
    else:
        yield path, view


def _at(view, path):
    for step in path:
        view = view[step]
    return view


def assert_seen_by_every_seat(spectator, observations):
    """Every value the spectator sees is the same value in each seat's observation."""
    for path, value in _leaves(spectator):
        if value is None or path == ("to_move",):
            continue
        for seat, obs in enumerate(observations):
            assert same_json(_at(obs, path), value), f"{path} is not what seat {seat} sees"


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_frames_are_decisions_plus_one_and_the_spectator_sees_what_every_seat_sees(
    name, players, options
):
    record = json.loads(json.dumps(_played(name, players, options, 4).record()))
    frames = list(engine.frames(record))
    assert len(frames) == len(record["actions"]) + 1
    assert frames[0]["actor"] is None and frames[0]["action"] is None
    for before, after in zip(frames, frames[1:], strict=False):
        assert after["actor"] == before["to_move"]
        assert after["index"] == before["index"] + 1
    for index, action in enumerate(record["actions"]):
        assert same_json(frames[index + 1]["action"], action)
    assert same_json(frames[-1]["result"], record["result"])
    assert all(frame["result"] is None for frame in frames[:-1])
    assert all(len(frame["observations"]) == players for frame in frames)
    json.dumps(frames)
    for frame in frames[::3]:
        assert_seen_by_every_seat(frame["spectator"], frame["observations"])
        assert frame["spectator"]["to_move"] == frame["to_move"]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_spectator_view_does_not_depend_on_what_no_seat_sees(name, players, options):
    """Two states that differ only in hidden information give the same spectator view.

    `resample_hidden(seat)` redraws what `seat` cannot see; the spectator view of the copy
    agrees with the original wherever both show a value, and is identical whenever the
    redraw touched only what every seat is denied (all observations unchanged).
    """
    game = engine.get_game(name)
    for seed in range(2):
        state = game.new_state(players, seed, options)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            if steps % 23 == 0:
                seat = steps // 23 % players
                other = state.resample_hidden(seat, random.Random(steps))
                mine, theirs = state.spectator_view(), other.spectator_view()
                for path, value in _leaves(mine):
                    if value is None:
                        continue
                    try:
                        shown = _at(theirs, path)
                    except (KeyError, IndexError, TypeError):
                        continue  # absent in the copy: it shows less, never more
                    assert shown is None or same_json(shown, value), path
                if all(
                    same_json(state.observation(s), other.observation(s)) for s in range(players)
                ):
                    assert same_json(mine, theirs)
            state.apply(rng.choice(state.legal_actions()))
            steps += 1


def test_a_broken_record_is_a_replay_mismatch():
    state = _played("moon_adventure", 2, None, 1)
    record = json.loads(json.dumps(state.record()))
    record["result"]["scores"][0] += 5
    with pytest.raises(engine.ReplayMismatch):
        list(engine.frames(record))
    record["rules_version"] = "moon_adventure@0"
    with pytest.raises(engine.ReplayMismatch):
        list(engine.frames(record))
