"""Hidden information: other seats' hazard tokens, drawn tokens, the pile and the deck."""

from __future__ import annotations

import json
import random

from tests.engine.moonrollers.helpers import GAME, play, table


def test_other_seats_hazard_tokens_are_hidden_but_counted():
    a = table(hazards={0: [5, 5], 1: [1]})
    b = table(hazards={0: [1, 2], 1: [1]})
    assert a.observation(1) == b.observation(1)
    assert a.observation(1)["players"][0]["hazard_tokens"] == 2
    assert a.observation(0)["my_hazard_tokens"] == [5, 5]
    assert b.observation(0)["my_hazard_tokens"] == [1, 2]
    assert a.observation(0) != b.observation(0)


def test_the_drawn_pair_is_seen_only_by_the_drawing_seat():
    st = table("reactor", "damage", "damage", "shield", "shield", players=3,
               display=["namari", "saghari", "vila_noir", "aponi", "b3_ar"])  # fmt: skip
    st.force_tokens(2, 5)
    play(st, ["crew", "namari"], ["commit", 3], ["lock", "reactor", 1])
    assert st.observation(0)["turn"]["drawn"] == [2, 5]
    for seat in (1, 2):
        turn = st.observation(seat)["turn"]
        assert "drawn" not in turn and turn["drawn_count"] == 2
    text = json.dumps(st.observation(1))
    assert "pile_order" not in text and st.observation(1)["hazard_pile"] == 43


def test_resampling_keeps_what_the_seat_knows_and_redraws_the_rest():
    st = GAME.new_state(3, 4)
    rng = random.Random(0)
    while not st.is_terminal() and sum(sum(h) for h in st.hz) < 4:
        st.apply(rng.choice(st.legal_actions()))
    for seat in range(3):
        other = st.resample_hidden(seat, random.Random(seat))
        assert other.observation(seat) == st.observation(seat)
        assert other.hz[seat] == st.hz[seat]
        for p in range(3):
            assert sum(other.hz[p]) == sum(st.hz[p])
        counts = [
            sum(other.hz[p][k] for p in range(3)) + other.pile[k] + other.drawn.count(k)
            for k in range(3)
        ]
        assert counts == [20, 15, 10]  # the same 45 tokens, redistributed
        assert sorted(other.deck) == sorted(st.deck)


def test_clone_copies_everything_that_changes():
    st = GAME.new_state(2, 8)
    copy = st.clone()
    rng = random.Random(1)
    while not copy.is_terminal():
        copy.apply(rng.choice(copy.legal_actions()))
    assert st.actions == [] and st.prestige == [0, 0] and sum(st.pile) == 45
    again = GAME.new_state(2, 8)
    assert again.observation(0) == st.observation(0)
