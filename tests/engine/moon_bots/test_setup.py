"""Set-up by player count, card data, market costs."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.games.moon_bots.cards import CARDS, PART, SECRET, SLOTS, UPGRADE
from tests.engine.moon_bots.support import GAME, new, place


def test_game_is_registered_with_its_facts():
    assert GAME.rules_version == "moon_bots@2"
    assert (GAME.min_players, GAME.max_players, GAME.cooperative) == (2, 4, False)
    assert "moon_bots" in engine.game_names()


@pytest.mark.parametrize(("players", "energy"), [(3, [15, 16, 17]), (4, [15, 16, 17, 18])])
def test_starting_energy_follows_turn_order(players, energy):
    state = new(players)
    assert [rb.energy for rb in state.robots] == energy
    assert [rb.owner for rb in state.robots] == list(range(players))
    assert state.robots[0].dice_count == 1


def test_two_players_get_two_robots_each_with_15_and_16_energy():
    state = new(2)
    assert [rb.owner for rb in state.robots] == [0, 0, 1, 1]
    assert [rb.energy for rb in state.robots] == [15, 15, 16, 16]
    assert [rb.board for rb in state.robots] == [1, 2, 3, 4]


def test_card_list_has_65_cards_in_the_rulebook_split():
    counts = Counter(c.category for c in CARDS)
    assert counts == {PART: 24, UPGRADE: 24, SECRET: 17}
    assert Counter(c.ability.slot for c in CARDS if c.category == PART) == {s: 4 for s in SLOTS}
    assert all(c.assumption in ("A-20", "A-21", "A-22") for c in CARDS)
    assert sum(c.cost_mark for c in CARDS) == 15
    marked = [c for c in CARDS if c.three_player]
    assert Counter(c.category for c in marked) == {PART: 6, UPGRADE: 6}
    assert {c.ability.slot for c in marked if c.category == PART} == set(SLOTS)


def test_three_players_remove_the_twelve_marked_cards():
    state = new(3)
    assert len(state.removed_marked) == 12
    in_game = set(state.deck) | set(state.market) | set(state.removed_unseen)
    assert not in_game & set(state.removed_marked)
    assert len(in_game) == 65 - 12


@pytest.mark.parametrize("players", [2, 3, 4])
def test_five_secret_weapons_are_removed_unseen(players):
    state = new(players, seed=5)
    assert len(state.removed_unseen) == 5
    assert all(CARDS[c].category == SECRET for c in state.removed_unseen)
    assert len(state.deck) + 6 + len(state.facedown_discard) == (65 if players != 3 else 53) - 5
    seen = state.observation(0)
    assert seen["removed_unseen"] == 5
    assert "energy_stock" not in str(seen["removed_unseen"])


def test_market_costs_0_1_2_by_row_plus_the_cost_mark():
    state = new(4)
    place(state, 0, "P01")
    place(state, 1, "extra_die")  # +1 mark on the bottom row: 1
    place(state, 2, "P02")
    place(state, 3, "extra_die")  # rulebook example: second row + mark = 2
    place(state, 4, "P04")  # +1 mark on the top row: 3
    place(state, 5, "dodge")
    market = state.observation(0)["market"]
    assert [cell["cost"] for cell in market] == [0, 1, 1, 2, 3, 2]
    assert market[5] == {"category": "secret", "face_down": True, "cost": 2, "slot": 5, "row": 2}


def test_a_card_that_would_drop_energy_to_zero_cannot_be_bought():
    state = new(4)
    place(state, 4, "P01")  # cost 2
    state.robots[0].energy = 2
    assert ["buy", 4] not in state.legal_actions()
    state.robots[0].energy = 3
    state._legal_cache = None
    assert ["buy", 4] in state.legal_actions()
    state.apply(["buy", 4])
    assert state.robots[0].energy == 1
    assert state.robots[0].parts[0] >= 0


def test_turn_cap_must_be_positive():
    with pytest.raises(engine.InvalidSetup):
        GAME.new_state(2, 1, {"max_rounds": 0})


def test_a_record_of_the_previous_rules_version_is_refused_naming_both_versions():
    state = new(2, seed=3)
    state.apply(state.legal_actions()[-1])
    record = state.record()
    engine.replay(record)
    record["rules_version"] = "moon_bots@1"
    with pytest.raises(engine.ReplayMismatch, match="moon_bots@1.*moon_bots@2"):
        engine.replay(record)
