"""Every Crew card's effect (base game and Overload). Seat 0 plays, usually solo."""

import pytest

from engine.games.moonrakers.cards import CREW
from tests.engine.moonrakers.helpers import act, new, pending, px, rig

FLAGSHIP = "admirals-flagship"  # R5 S5 D8, 4 hazard dice
BLACK_HOLE = "black-hole"  # R4 T4 C5, 4 hazard dice
FILL = ["R", "R"]


def crew(card, contract=FLAGSHIP, hand=(), dice=None, draws=None, players=3, **kw):
    st = new(players, 7)
    rig(
        st,
        contract,
        [0],
        {0: [card, *hand, *FILL]},
        dice={0: dice or []},
        draws={0: draws or ["M"] * 6},
        actions={0: 5},
        **kw,
    )
    act(st, ["play", card])
    return st


def test_every_crew_costs_an_action_and_fills_a_crew_requirement():
    for card in CREW:
        st = new(3, 7)
        rig(
            st,
            BLACK_HOLE,
            [0],
            {0: [card, *FILL]},
            actions={0: 5},
            draws={0: ["M"] * 6},
            dice={0: [0, 0, 0, 0]},
        )
        act(st, ["play", card])
        assert st.rem["C"] == (3 if card == "miska-rose" else 4), card
        assert card in px(st, 0).played + st.inplay[0] or card not in st.hand[0]


def test_ada_massa():
    st = crew("ada-massa", BLACK_HOLE)
    assert px(st, 0).actions == 4 + 3 and st.rem["R"] == 3


def test_at_0k_discards_your_best_die_as_damage():
    st = crew("at-0k", dice=[1, 2, 0, 0])
    assert px(st, 0).dice == [1, 0, 0] and st.rem["D"] == 6


def test_b3_ar_returns_a_crew_and_gives_an_action():
    st = new(3, 7)
    st.discard[0] = ["kal-damar"]
    rig(st, FLAGSHIP, [0], {0: ["moro-mada", "b3-ar", *FILL]}, actions={0: 5})
    act(st, ["play", "moro-mada"])
    act(st, st.legal_actions()[0])  # Moro Mada's requirement
    act(st, ["play", "b3-ar"])
    assert st.legal_actions() == [["return", "kal-damar"], ["return", "moro-mada"]]
    act(st, ["return", "moro-mada"])
    assert "moro-mada" in st.hand[0] and "moro-mada" in st.known[0]
    assert px(st, 0).actions == 5 - 2 + 1


def test_bill_bendo():
    st = crew("bill-bendo", dice=[2, 0, 0, 0])
    assert px(st, 0).blocked == 1 and st.rem["S"] == 4
    assert st.legal_actions() == [["opt", "draw"], ["opt", "act"]]
    act(st, ["opt", "act"])
    assert px(st, 0).actions == 5


def test_crusse_parke_deals_four_and_trashes_the_top_card():
    st = crew("crusse-parke", draws=["S", "M"])
    assert st.rem["D"] == 4
    assert "S" not in st.draw[0] + st.hand[0] + st.discard[0]
    assert px(st, 0).trashed == 1


def test_dana_powalki_is_a_damage_3_card():
    st = crew("dana-powalki")
    assert st.rem["D"] == 5 and px(st, 0).actions == 5 and "D3" in px(st, 0).dkinds


def test_kal_damar_draws_two_and_may_trash():
    st = crew("kal-damar", draws=["M", "T"])
    assert st.legal_actions()[0] == "none"
    act(st, ["trash", "M"])
    assert "T" in st.hand[0] and "M" not in st.hand[0] and px(st, 0).trashed == 1


def test_kary_powalk_adds_one_to_every_damage_card():
    st = crew("kary-powalk", hand=["D1"])
    assert px(st, 0).actions == 5
    act(st, ["play", "D1"])
    assert st.rem["D"] == 6


def test_lee_van_cribb_looks_at_three_plays_one_free():
    st = crew("lee-van-cribb", draws=["T", "D3", "M", "S"])
    assert sorted(st.legal_actions()) == [["play", "D3"], ["play", "M"], ["play", "T"]]
    assert st.observation(0)["looking"] == ["T", "D3", "M"]
    assert st.observation(1)["players"][0]["looking_size"] == 3
    act(st, ["play", "D3"])
    assert st.rem["D"] == 5 and sorted(st.discard[0]) == ["M", "T"]
    assert px(st, 0).actions == 5  # -1 for Lee, +1 from Lee, nothing for the Damage 3


def test_lila_al_bindar_must_trash_and_gains_a_reactor():
    st = crew("lila-al-bindar", hand=["M"])
    assert "none" not in st.legal_actions()
    act(st, ["trash", "M"])
    assert st.discard[0] == ["R"] and px(st, 0).actions == 5


def test_meg_gallak():
    st = crew("meg-gallak", hand=["M"])
    act(st, ["trash", "M"])
    assert st.legal_actions() == [["req", "R"], ["req", "S"], ["req", "D"]]
    act(st, ["req", "D"])
    assert st.rem["D"] == 6 and px(st, 0).actions == 5


def test_moro_mada():
    st = crew("moro-mada")
    act(st, ["req", "S"])
    assert st.rem["S"] == 3


def test_myla_dystra_swaps_any_number_of_cards():
    st = crew("myla-dystra", hand=["M", "M"], draws=["T", "S", "D1"])
    act(st, ["discard", "M"])
    act(st, ["discard", "M"])
    act(st, "done")
    assert sorted(st.hand[0]) == ["R", "R", "S", "T"] and px(st, 0).actions == 5


def test_nella_van_daval():
    st = crew("nella-van-daval", BLACK_HOLE)
    assert len(st.hand[0]) == 2 + 3 and st.rem["T"] == 3


def test_redacted_is_a_shield_and_rerolls_dice():
    st = crew("redacted", dice=[2, 2, 0, 0])
    assert px(st, 0).blocked == 1 and st.rem["S"] == 4
    assert st.legal_actions() == ["done", ["reroll", 2]]
    act(st, ["reroll", 2])  # the rigged dice are used up: re-rolls show 0
    act(st, ["reroll", 2])
    assert px(st, 0).dice == [0, 0, 0, 0] and px(st, 0).rolled == 4


def test_ryan_rogal_plays_a_drawn_damage_card_as_damage_5():
    st = crew("ryan-rogal", draws=["D1", "T"])
    assert st.rem["D"] == 3 and "D1" in px(st, 0).played and "T" in st.hand[0]


def test_ryle_al_wren_either_ignores_two_or_reduces_shields():
    st = crew("ryle-al-wren", dice=[2, 2, 0, 0])
    act(st, ["opt", "block"])
    assert px(st, 0).blocked == 2
    st = crew("ryle-al-wren")
    act(st, ["opt", "shield"])
    assert st.rem["S"] == 3


def test_sella_pelleon():
    st = crew("sella-pelleon")
    act(st, ["req", "R"])
    assert st.rem["R"] == 4 and len(st.hand[0]) == 3 and px(st, 0).actions == 5


def test_tantin_al_vale_is_a_damage_2_or_a_shield():
    st = crew("tantin-al-vale")
    act(st, ["opt", "D2"])
    assert st.rem["D"] == 6
    st = crew("tantin-al-vale", dice=[1, 0, 0, 0])
    act(st, ["opt", "S"])
    assert st.rem["S"] == 4 and px(st, 0).blocked == 1


def test_zek_zarag_plays_any_card_from_the_draw_pile():
    st = crew("zek-zarag", draws=["M", "D3", "T"])
    assert st.legal_actions() == [["take", "D3"], ["take", "M"], ["take", "T"]]
    act(st, ["take", "D3"])
    assert st.rem["D"] == 5 and sorted(st.draw[0]) == ["M", "T"]


def test_anka_kramer_draws_four_then_discards_three():
    st = crew("anka-kramer", draws=["T", "S", "D1", "M"])
    for _ in range(3):
        act(st, st.legal_actions()[0])
    assert len(st.hand[0]) == 2 + 4 - 3 and len(st.discard[0]) == 3


def test_armitage_is_a_shield_plus_action_or_trashes_itself_for_three():
    st = crew("armitage", dice=[1, 0, 0, 0])
    act(st, ["opt", "shield"])
    assert st.rem["S"] == 4 and px(st, 0).blocked == 1 and px(st, 0).actions == 5
    st = crew("armitage")
    act(st, ["opt", "trash"])
    assert st.rem["S"] == 2 and "armitage" not in px(st, 0).played


def test_dae_arum():
    st = new(3, 7)
    st.prestige[0] = 0
    rig(st, FLAGSHIP, [0], {0: ["dae-arum", *FILL]}, actions={0: 5})
    act(st, ["play", "dae-arum"])
    act(st, ["req", "D"])
    assert st.rem["D"] == 5 and st.prestige[0] == 0


def test_domi_adds_or_removes_an_iosphere_on_a_part():
    st = crew("domi", parts={0: ["io-buffer-2050"]}, io={0: {"io-buffer-2050": 1}})
    assert st.legal_actions() == [["io", "io-buffer-2050", 1], ["io", "io-buffer-2050", -1]]
    act(st, ["io", "io-buffer-2050", 1])
    assert st.io[0]["io-buffer-2050"] == 2 and px(st, 0).actions == 5


def test_ft_1000_adds_a_miss_to_the_hand():
    st = crew("ft-1000")
    act(st, ["req", "R"])
    assert st.rem["R"] == 3 and "M" in st.hand[0] and st.known[0] == ["M"]


def test_grinar_flok_is_a_damage_4_and_rolls_a_die():
    st = crew("grinar-flok", dice=[0, 0, 0, 0, 2])
    assert st.rem["D"] == 4 and px(st, 0).dice[-1] == 2 and px(st, 0).rolled == 5


def test_ha_kun_takes_a_cheap_crew_from_the_armory():
    st = new(3, 7)
    st.armory_crew[0] = "zek-zarag"
    rig(st, FLAGSHIP, [0], {0: ["ha-kun", *FILL]}, actions={0: 5})
    act(st, ["play", "ha-kun"])
    assert ["take", "zek-zarag"] in st.legal_actions()
    act(st, ["take", "zek-zarag"])
    assert st.discard[0] == ["zek-zarag"] and "zek-zarag" not in st.armory_crew


@pytest.mark.parametrize(
    ("card", "check"),
    [
        ("io-l1-on", lambda st: len(st.hand[0]) == 3),
        ("io-mk8", lambda st: px(st, 0).actions == 5),
        ("io-wraith-3000", lambda st: px(st, 0).blocked == 1),
        ("io-mg21", lambda st: st.rem["D"] == 6),
    ],
)
def test_io_crew_abilities(card, check):
    st = crew(card)
    assert st.io[0][card] == 3
    act(st, ["ability", card])
    assert st.io[0][card] == 2 and check(st)


def test_io_mirage_moves_an_iosphere():
    st = crew("io-mirage", parts={0: ["io-cache-3050"]})
    act(st, ["ability", "io-mirage"])
    assert st.io[0] == {"io-cache-3050": 1, "io-mirage": 2}


@pytest.mark.parametrize("card", ["ivan-guyril", "lyntoba-ga"])
def test_cards_that_go_to_another_players_discard(card):
    st = crew(card, dice=[2, 2, 0, 0])
    if card == "ivan-guyril":
        act(st, ["req", "R"])
        assert st.rem["R"] == 3
    else:
        assert px(st, 0).blocked == 3
    assert st.legal_actions() == [["give", 1], ["give", 2]]
    act(st, ["give", 2])
    assert card in st.discard[2] and card not in px(st, 0).played


def test_kin_tobor():
    st = crew("kin-tobor", hand=["M"])
    credits = st.credits[0]
    act(st, ["trash", "M"])
    assert st.credits[0] == credits + 1


def test_kurt_bilar_draws_after_two_basic_reactors():
    st = crew("kurt-bilar")
    assert len(st.hand[0]) == 2 and px(st, 0).actions == 6
    st = new(3, 7)
    rig(
        st, FLAGSHIP, [0], {0: ["R", "R", "kurt-bilar", "M"]}, actions={0: 3}, draws={0: ["T", "S"]}
    )
    act(st, ["play", "R"])
    act(st, ["play", "R"])
    act(st, ["play", "kurt-bilar"])
    assert sorted(st.hand[0]) == ["M", "S", "T"]


def test_letyba_upgrades_a_basic_card_in_hand():
    st = crew("letyba", hand=["M", "T"])
    assert ["letyba", "R", "Rx"] in st.legal_actions()
    assert not any(a[1] == "M" for a in st.legal_actions())
    act(st, ["letyba", "T", "Tx"])
    assert "Tx" in st.hand[0] and "T" not in st.hand[0] and st.adv["Tx"] == 9


def test_miska_rose():
    st = crew("miska-rose", BLACK_HOLE)
    assert st.rem["C"] == 3 and px(st, 0).actions == 5


def test_oleg_ali_also_feeds_players_outside_the_contract():
    st = new(3, 7)
    sizes = [len(st.hand[1]), len(st.hand[2])]
    rig(st, FLAGSHIP, [0], {0: ["oleg-ali", *FILL]}, actions={0: 5}, draws={0: ["M"] * 3})
    act(st, ["play", "oleg-ali"])
    assert len(st.hand[0]) == 5
    assert [len(st.hand[1]), len(st.hand[2])] == [sizes[0] + 1, sizes[1] + 1]


def test_pat_nungar_picks_two_different_options():
    st = crew("pat-nungar", dice=[1, 0, 0, 0])
    assert len(st.legal_actions()) == 6
    act(st, ["pat", "act", "block"])
    assert px(st, 0).actions == 5 and px(st, 0).blocked == 1
    assert pending(st) == "step"
