"""Face-down supply chips stay hidden; resample_hidden re-draws only what nobody has seen."""

from __future__ import annotations

import json
import random

from tests.engine.moon_adventure.helpers import GAME, fill, new, place, set_turn


def test_observations_show_areas_but_never_whether_a_face_down_chip_is_broken():
    state = GAME.new_state(3, 5)
    obs = state.observation(1)
    supplies = [space for space in obs["track"] if space["kind"] == "supply"]
    assert [space["area"] for space in supplies] == [3] * 7 + [4] * 7 + [5] * 7
    assert all(space["broken"] is None for space in supplies)
    assert "broken" not in json.dumps(obs).replace('"broken": null', "")


def test_gathered_chips_stay_face_down_in_containers():
    state = new(["carrier", "rookie"])
    place(state, s0=4, s1=0)
    set_turn(state, 0, 4)
    state.apply("gather+")
    for seat in (0, 1):
        assert state.observation(seat)["containers"][0][3] == {"area": 3, "broken": None}


def test_two_worlds_differing_only_in_unseen_chips_look_the_same():
    state = GAME.new_state(4, 2)
    other = GAME.new_state(4, 2)
    other.broken = list(reversed(other.broken[0:7])) + other.broken[7:]
    for seat in range(4):
        assert state.observation(seat) == other.observation(seat)


def test_resample_redraws_which_unseen_chips_are_broken_within_each_area():
    state = new(["inspector", "rookie", "carrier"])
    place(state, s0=4, s1=0, s2=0)
    fill(state, 0, 2, ("chip", 16))
    state.revealed[16] = True
    changed = False
    for seed in range(20):
        other = state.resample_hidden(1, random.Random(seed))
        assert other.observation(1) == state.observation(1)
        assert other.broken[16] == state.broken[16]  # seen by everyone
        for area, good in ((3, 3), (4, 4), (5, 5)):
            flags = [other.broken[c] for c in range(21) if other.area[c] == area]
            assert flags.count(False) == good
        changed |= other.broken != state.broken
    assert changed


def test_resample_reshuffles_the_draw_pile_and_reseeds_the_dice():
    state = new(["carrier", "rookie"])
    state.draw = [2, 3, 2, 2, 3, 1, 2, 2]
    orders = {tuple(state.resample_hidden(0, random.Random(s)).draw) for s in range(10)}
    assert len(orders) > 1
    assert all(sorted(o) == sorted(state.draw) for o in orders)
    assert state.observation(0)["draw_pile"] == {
        "size": 8,
        "oxygen2": 5,
        "oxygen3": 2,
        "storms": 1,
    }


def test_all_supplies_are_turned_face_up_when_the_mission_ends():
    state = new(["carrier", "rookie"])
    place(state, s0=1, s1=0)
    state.returned[1] = True
    fill(state, 0, 2, ("chip", 20))
    set_turn(state, 0, 1)
    state.apply("move-")
    assert state.is_terminal()
    assert state.observation(1)["containers"][0][1] == {"area": 5, "broken": state.broken[20]}


def test_clone_is_a_deep_independent_copy():
    state = GAME.new_state(3, 9)
    copy = state.clone()
    rng = random.Random(3)
    while not copy.is_terminal():
        copy.apply(rng.choice(copy.legal_actions()))
    fresh = GAME.new_state(3, 9)
    assert state.observation(0) == fresh.observation(0)
    assert state.slots == fresh.slots and state.kind == fresh.kind
