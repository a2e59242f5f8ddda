"""Restocking the market: weapons on the bottom row go, cards slide down, the pile refills."""

from __future__ import annotations

import random

from engine.games.moon_bots.cards import KEY, SECRET_IDS, SECRET_KINDS
from engine.games.moon_bots.rules import PH_BUY
from tests.engine.moon_bots.support import at_assign, empty_market, new, place, take


def _keys(state):
    return [KEY[c] if c >= 0 else None for c in state.market]


def _market_with_a_gap(state):
    """Bottom row: weapon | P01; middle: P02 | (bought); top: P03 | P05."""
    empty_market(state)
    weapon = place(state, 0, "dodge")
    for slot, key in ((1, "P01"), (2, "P02"), (4, "P03"), (5, "P05")):
        place(state, slot, key)
    return weapon


def test_restock_discards_bottom_weapons_slides_down_and_refills_from_the_pile():
    state = new(4)
    weapon = _market_with_a_gap(state)
    while any(KEY[c] in SECRET_KINDS for c in state.deck[-2:]):
        state.deck.insert(0, state.deck.pop())  # refill with face-up cards only
    top, second = state.deck[-1], state.deck[-2]
    discarded = state.facedown_discard[:]
    state._restock()
    assert _keys(state)[:4] == ["P02", "P01", "P03", "P05"]
    assert state.market[4:] == [top, second]
    assert state.facedown_discard == [*discarded, weapon]
    seen = state.observation(1)
    assert seen["face_down_discards"] == len(discarded) + 1
    assert "dodge" not in str(seen)


def test_an_empty_pile_leaves_gaps():
    state = new(4)
    _market_with_a_gap(state)
    state.deck.clear()
    state._restock()
    assert _keys(state) == ["P02", "P01", "P03", "P05", None, None]
    assert state.observation(0)["market"][4] is None


def test_a_weapon_sliding_onto_the_bottom_row_is_discarded_in_the_same_restock():
    """Finding 16: secret weapons are never free, not even for one turn."""
    state = new(4)
    empty_market(state)
    weapon = place(state, 2, "rest")
    higher = place(state, 4, "dodge")  # slides down twice: discarded too
    place(state, 1, "P01")
    state.deck.extend(take(state, key) for key in ("P07", "P02", "P03", "P05", "P06"))
    state._restock()
    # Pass 1: Rest slides to the bottom (P06, P05, P03 refill); pass 2 discards it and
    # Dodge lands there (P02 refills); pass 3 discards Dodge (P07 refills).
    assert [KEY[c] for c in state.market] == ["P05", "P01", "P02", "P06", "P07", "P03"]
    assert state.facedown_discard[-2:] == [weapon, higher]
    assert state.observation(0)["market"][0]["cost"] == 0


def test_no_secret_weapon_is_ever_on_the_bottom_row_at_set_up():
    """Finding 16: at set-up too (before, 363 of 1,000 four-player set-ups had one)."""
    with_weapons_discarded = 0
    for seed in range(300):
        state = new(4, seed=seed)
        assert not any(c in SECRET_IDS for c in state.market[:2])
        assert len(state.market) == 6 and min(state.market) >= 0
        with_weapons_discarded += bool(state.facedown_discard)
    assert with_weapons_discarded > 50


def test_random_play_never_buys_a_secret_weapon_for_free():
    rng = random.Random(3)
    for seed in range(40):
        state = new(2 + seed % 3, seed=seed)
        while not state.is_terminal():
            if state.decision is None and state.phase == PH_BUY:
                assert not any(c >= 0 and c in SECRET_IDS for c in state.market[:2])
            state.apply(rng.choice(state.legal_actions()))


def test_the_market_is_restocked_at_the_end_of_every_turn():
    state = new(4)
    empty_market(state)
    place(state, 0, "P01")
    for slot, key in ((1, "P02"), (2, "P05"), (3, "P06"), (4, "P09"), (5, "P10")):
        place(state, slot, key)
    state.apply(["buy", 0])
    assert state.market[0] == -1
    top = state.deck[-1]
    at_assign(state, [3])
    state.apply("done")
    assert _keys(state)[:4] == ["P05", "P02", "P09", "P06"]
    assert state.market[4] == top
    assert _keys(state)[5] == "P10"
    assert state.active == 1
