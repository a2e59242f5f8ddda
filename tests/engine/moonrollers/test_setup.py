"""Table setup: display per player count, starting crew, the long variant, the pools."""

from __future__ import annotations

import pytest

from engine.games.moonrollers.cards import CREW, CREW_INDEX, FACTIONS, STARTERS
from tests.engine.moonrollers.helpers import GAME


def factions(state):
    return [CREW[c].faction for c in state.display]


@pytest.mark.parametrize(("players", "size"), [(2, 4), (3, 5)])
def test_small_tables_show_a_display_with_no_duplicate_faction(players, size):
    for seed in range(40):
        state = GAME.new_state(players, seed)
        assert len(state.display) == size
        assert len(set(factions(state))) == size


@pytest.mark.parametrize("players", [4, 5])
def test_big_tables_show_six_crew_with_every_faction(players):
    for seed in range(40):
        state = GAME.new_state(players, seed)
        assert len(state.display) == 6
        assert set(factions(state)) == set(range(len(FACTIONS)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_gets_a_different_starting_crew_and_the_rest_join_the_deck(players):
    state = GAME.new_state(players, 11)
    starters = []
    for seat in range(players):
        hired = [c for stack in state.stacks[seat] for c in stack]
        assert len(hired) == 1 and CREW[hired[0]].starter
        starters += hired
    assert len(set(starters)) == players
    all_cards = starters + state.display + state.deck
    assert sorted(all_cards) == list(range(30))
    unused = set(STARTERS) - set(starters)
    assert unused <= set(state.deck) | set(state.display)


def test_the_long_variant_deals_no_starting_crew():
    state = GAME.new_state(2, 5, {"variant": "long"})
    assert all(not any(st) for st in state.stacks)
    assert len(state.deck) == 30 - 4
    assert all(p["crew"] == {} for p in state.observation(0)["players"])


def test_unknown_variant_is_refused():
    with pytest.raises(Exception, match="variant"):
        GAME.new_state(2, 1, {"variant": "short"})


def test_a_turn_starts_with_five_rolled_dice_and_seven_in_the_supply():
    state = GAME.new_state(3, 2)
    obs = state.observation(state.cur)
    if "kal_damar" in state.abil[state.cur]:  # pragma: no cover - not this seed
        pytest.skip("Kal Damar")
    assert sum(obs["turn"]["pool"].values()) == 5
    assert obs["supply"] == 7
    assert obs["hazard_pile"] == 45
    assert obs["turn"]["phase"] == "crew"
    assert state.legal_actions()[: len(state.display)] == [
        ["crew", CREW[c].id] for c in state.display
    ]


def test_data_matches_data_md_totals():
    requirements = [r for c in CREW for r in c.requirements]
    assert len(requirements) == 115
    assert sum(r.hazard for r in requirements) == 46
    assert sum(r.face == 4 for r in requirements) == 7
    assert [CREW[i].id for i in STARTERS] == [
        "ada_massa",
        "ryle_al_wren",
        "dana_powalki",
        "sella_pelleon",
        "nella_van_daval",
    ]
    assert CREW[CREW_INDEX["namari"]].requirements[1].hazard
