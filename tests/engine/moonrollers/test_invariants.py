"""Properties that hold at every decision of random games (a few seeds, kept fast)."""

from __future__ import annotations

import random

import pytest

from tests.engine.moonrollers.helpers import GAME


@pytest.mark.parametrize(("players", "variant"), [(2, "long"), (3, "long"), (4, "standard")])
def test_dice_tokens_and_cards_are_conserved_in_random_games(players, variant):
    for seed in range(3):
        st = GAME.new_state(players, seed, {"variant": variant})
        rng = random.Random(seed)
        while not st.is_terminal():
            dice = sum(st.pool) + st.conv + st.saved + st.locked + st.supply
            assert dice == 12
            assert min(st.pool) >= 0 and st.supply >= 0
            tokens = [sum(h[k] for h in st.hz) + st.pile[k] + st.drawn.count(k) for k in range(3)]
            assert tokens == [20, 15, 10]
            cards = st.display + st.deck + [c for s in st.stacks for f in s for c in f]
            # While a hire is being placed (or a token returned) the card is still
            # in the display slot it leaves; once in a stack it is there twice.
            twice = 1 if st.phase == 7 else 0
            assert sorted(set(cards)) == list(range(30)) and len(cards) == 30 + twice
            st.apply(rng.choice(st.legal_actions()))
        assert st.result()["end_reason"] in (
            "one_of_each_faction",
            "three_of_one_faction",
            "crew_deck_exhausted",
        )
