"""Restocking the market: weapons on the bottom row go, cards slide down, the pile refills."""

from __future__ import annotations

from engine.games.moon_bots.cards import KEY
from tests.engine.moon_bots.support import at_assign, empty_market, new, place


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
    top, second = state.deck[-1], state.deck[-2]
    state._restock()
    assert _keys(state)[:4] == ["P02", "P01", "P03", "P05"]
    assert state.market[4:] == [top, second]
    assert state.facedown_discard == [weapon]
    seen = state.observation(1)
    assert seen["face_down_discards"] == 1
    assert "dodge" not in str(seen)


def test_an_empty_pile_leaves_gaps():
    state = new(4)
    _market_with_a_gap(state)
    state.deck.clear()
    state._restock()
    assert _keys(state) == ["P02", "P01", "P03", "P05", None, None]
    assert state.observation(0)["market"][4] is None


def test_a_weapon_sliding_onto_the_bottom_row_stays_until_the_next_restock():
    state = new(4)
    empty_market(state)
    weapon = place(state, 2, "rest")
    place(state, 1, "P01")
    state._restock()
    assert state.market[0] == weapon
    state._restock()
    assert weapon in state.facedown_discard


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
