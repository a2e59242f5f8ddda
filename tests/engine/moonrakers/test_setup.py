"""Set-up: decks, Armory, Dispatch, starting decks, objectives (base and Overload)."""

from collections import Counter

import pytest

from engine.games.moonrakers.cards import CONTRACTS, CREW, OBJECTIVES, PARTS, RULES
from tests.engine.moonrakers.helpers import GAME, new


def test_card_counts_match_the_data_and_the_rulebook():
    count = Counter((c.set, c.mode) for c in CONTRACTS.values())
    assert count[("base", "normal")] == 40
    assert count[("overload", "h2h")] == 10 and count[("overload", "flex")] == 10
    assert Counter(c.set for c in CREW.values()) == {"base": 20, "overload": 20}
    assert Counter(p.set for p in PARTS.values()) == {"base": 37, "overload": 37}
    assert Counter(o.set for o in OBJECTIVES.values()) == {"base": 23, "overload": 10}
    types = Counter(c.type for c in CONTRACTS.values() if c.set == "base")
    assert types == {"Kill": 10, "Explore": 10, "Rescue": 10, "Delivery": 10}


@pytest.mark.parametrize("overload", [True, False])
@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_starting_position(players, overload):
    st = GAME.new_state(players, 4, {"expansions": ["overload"] if overload else []})
    assert st.credits == [2] * players
    for seat in range(players):
        assert len(st.hand[seat]) == 5
        deck = Counter(st.hand[seat] + st.draw[seat])
        assert deck == Counter(RULES["starting_deck"]["value"])
        assert len(st.obj_pick[seat]) == 3
    assert len([c for c in st.row if c]) == 8
    for cid in st.row:
        assert CONTRACTS[cid].mode != "h2h" and CONTRACTS[cid].hazard_dice <= 2
    assert len(st.armory_crew) == 3 and len(st.armory_parts) == 6
    sets = {"base", "overload"} if overload else {"base"}
    every_card = st.cdeck + st.row
    assert all(CONTRACTS[c].set in sets for c in every_card)
    assert all(CREW[c].set in sets for c in st.crew_deck + st.armory_crew)
    assert all(PARTS[p].set in sets for p in st.part_deck + st.armory_parts)
    if overload:
        assert st.adv == {k: 10 for k in ("R+", "Rx", "T+", "Tx", "S+", "Sx", "D+")}
    else:
        assert st.adv is None


def test_objectives_dealt_three_keep_two_third_to_the_bottom():
    st = GAME.new_state(3, 8)
    dealt = list(st.obj_pick[st.to_move()])
    seat = st.to_move()
    st.apply(["drop", dealt[1]])
    assert st.objs[seat] == [dealt[0], dealt[2]]
    assert st.obj_deck[0] == dealt[1]
    assert st.obj_mask[0] == 1 << seat  # only that seat knows the bottom card


def test_one_and_two_players_remove_head_to_head_and_use_a_merc_deck_without_io_crew():
    for players in (1, 2):
        for seed in range(5):
            st = new(players, seed)
            every = st.cdeck + [c for c in st.row if c]
            assert not any(CONTRACTS[c].mode == "h2h" for c in every)
            mercs = st.merc_deck + [m for m in st.merc_row if m]
            crew = [m for m in mercs if m in CREW]
            assert len(crew) == 3 and not any(CREW[c].io for c in crew)
            basics = Counter(m for m in mercs if m not in CREW)
            assert basics == Counter(RULES["merc_deck"]["basic"])
    st = new(3, 0)
    assert any(CONTRACTS[c].mode == "h2h" for c in st.cdeck)
    assert st.merc_deck == [] and st.merc_row == []


def test_high_hazard_and_head_to_head_contracts_are_set_aside_then_shuffled_back():
    for seed in range(20):
        st = GAME.new_state(4, seed)
        assert len(st.row) == 8
        total = len(st.cdeck) + len(st.row)
        assert total == 60


def test_the_game_is_registered_with_its_facts_and_options():
    assert GAME.name == "moonrakers" and GAME.rules_version == "moonrakers@2"
    assert (GAME.min_players, GAME.max_players) == (1, 5) and not GAME.cooperative
    assert GAME.default_options() == {"expansions": ["overload"], "max_rounds": 20}
    assert GAME.check_options({"expansions": []})["expansions"] == []
