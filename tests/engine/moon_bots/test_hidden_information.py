"""Observations hide secret weapons; resample_hidden redraws only what a seat cannot see."""

from __future__ import annotations

import json
import random

from engine.games.moon_bots.cards import KEY
from tests.engine.moon_bots.support import give, new, place


def test_face_down_market_cards_show_no_identity():
    state = new(4)
    place(state, 3, "energy_pump")
    cell = state.observation(0)["market"][3]
    assert cell == {"category": "secret", "face_down": True, "cost": 1, "slot": 3, "row": 1}


def test_observation_is_json_and_names_no_hidden_weapon():
    state = new(4)
    give(state, 2, "computer_virus")
    text = json.dumps(state.observation(0))
    assert "computer_virus" not in text
    assert "computer_virus" in json.dumps(state.observation(2))


def test_resample_keeps_own_weapons_and_redraws_the_others():
    state = new(2, seed=4)
    give(state, 0, "dodge")  # robot 0 belongs to seat 0
    give(state, 2, "rest")  # robot 2 belongs to seat 1
    kinds = set()
    for i in range(40):
        world = state.resample_hidden(0, random.Random(i))
        assert world.observation(0) == state.observation(0)
        assert [KEY[c] for c in world.robots[0].secrets] == ["dodge"]
        assert len(world.robots[2].secrets) == 1
        kinds.add(KEY[world.robots[2].secrets[0]])
        assert sorted(c for c in world.deck if KEY[c][0] == "P") == sorted(
            c for c in state.deck if KEY[c][0] == "P"
        )  # parts in the pile are known by elimination: only their order changes
    assert len(kinds) > 3


def test_resample_conserves_every_card():
    state = new(3, seed=9)
    give(state, 1, "stronger", "dodge")
    world = state.resample_hidden(0, random.Random(1))

    def cards(s):
        held = [c for rb in s.robots for c in rb.secrets + rb.upgrades + rb.parts if c >= 0]
        market = [c for c in s.market if c >= 0]
        return sorted(s.deck + market + held + s.removed_unseen + s.facedown_discard + s.used)

    assert cards(world) == cards(state)
