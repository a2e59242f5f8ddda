"""One test (at least) per crew ability of the Crew Ability Appendix, plus the general rules.

The display is `helpers.ABILITY_DISPLAY` unless said otherwise.
"""

from __future__ import annotations

from tests.engine.moonrollers.helpers import marks, play, pool, rolled_count, start

# ----- "each Extra Die may be locked as 2 X" (the starting crew) ----------------------


def test_ada_massa_locks_extra_dice_as_two_reactors_that_add_no_die():
    st = start("extra", "extra", "damage", "damage", "shield", crew=["ada_massa"])
    play(st, ["crew", "vila_noir"], ["commit", 0])
    assert ["lock", "extra", 2, "ada_massa"] in st.legal_actions()
    play(st, ["lock", "extra", 2, "ada_massa"])
    assert marks(st, "vila_noir")[0] == 0  # Reactor 4 from 2 dice
    play(st, "roll")
    assert rolled_count(st) == 3  # the locked Extra Dice added nothing


def test_dana_powalki_locks_an_extra_die_as_two_damage():
    st = start("extra", "shield", "shield", "reactor", "reactor", crew=["dana_powalki"])
    play(st, ["crew", "saghari"], ["commit", 0])
    assert st.legal_actions() == [["lock", "extra", 1, "dana_powalki"]]
    play(st, ["lock", "extra", 1, "dana_powalki"])
    assert st.need == 2


def test_nella_van_daval_locks_an_extra_die_as_two_thrusters_only_for_thrusters():
    st = start("extra", "thruster", "shield", "reactor", "reactor", crew=["nella_van_daval"])
    play(st, ["crew", "b3_ar"], ["commit", 0])
    assert ["lock", "extra", 1, "nella_van_daval"] in st.legal_actions()
    play(st, ["lock", "extra", 1, "nella_van_daval"], ["lock", "thruster", 1])
    assert st.need == 1
    other = start("extra", "damage", "shield", "reactor", "reactor", crew=["nella_van_daval"])
    play(other, ["crew", "saghari"], ["commit", 0])
    assert not any(a[-1] == "nella_van_daval" for a in other.legal_actions())


def test_ryle_al_wren_locks_extra_dice_as_two_shields_never_past_the_need():
    st = start("extra", "extra", "extra", "reactor", "reactor", crew=["ryle_al_wren"])
    play(st, ["crew", "namari"], ["commit", 0])
    # Shield 4 needs 2 such dice at most (A-4: no die locked beyond the need).
    assert st.legal_actions()[:2] == [
        ["lock", "extra", 1, "ryle_al_wren"],
        ["lock", "extra", 2, "ryle_al_wren"],
    ]
    assert ["lock", "extra", 3, "ryle_al_wren"] not in st.legal_actions()


def test_sella_pelleon_locks_exactly_one_extra_die_as_a_wild_even_on_a_wild_requirement():
    st = start("extra", "damage", "shield", "reactor", "reactor", crew=["sella_pelleon"])
    play(st, ["crew", "aponi"], ["commit", 3])
    assert st.legal_actions() == [["lock", "extra", 1, "sella_pelleon"]]
    play(st, ["lock", "extra", 1, "sella_pelleon"])
    assert st.need == 1
    st.force_dice("wild", "wild", "wild", "wild")
    play(st, "roll")
    assert rolled_count(st) == 4  # the locked Extra Die adds nothing
    two = start("extra", "extra", "shield", "reactor", "reactor", crew=["sella_pelleon"])
    play(two, ["crew", "aponi"], ["commit", 3])
    assert two.cur == 1  # 2 Extra Dice: Sella Pelleon does not apply, so a bust


# ----- doubling when the rolling pool holds 1-3 dice ----------------------------------


def test_aponi_doubles_on_a_roll_of_three_dice():
    st = start("reactor", "reactor", "damage", "damage", "damage", crew=["aponi"])
    play(st, ["crew", "vila_noir"], ["commit", 0])
    assert not any(len(a) == 4 for a in st.legal_actions())  # 5 dice: no doubling
    play(st, ["lock", "reactor", 2])
    st.force_dice("reactor", "wild", "shield")
    play(st, "roll")
    legal = st.legal_actions()
    assert ["lock", "reactor", 1, "aponi"] in legal and ["lock", "wild", 1, "aponi"] in legal
    play(st, ["lock", "wild", 1, "aponi"])
    assert marks(st, "vila_noir")[0] == 0  # 2 + 2 = 4 Reactors


def test_dr_umbrage_doubles_damage_on_small_pools():
    st = start("damage", "damage", "shield", "shield", "reactor", crew=["dr_umbrage"])
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 2])
    st.force_dice("damage", "shield", "thruster")
    play(st, "roll")
    play(st, ["lock", "damage", 1, "dr_umbrage"])
    assert marks(st, "saghari")[0] == 0


def test_sol_forst_doubles_thrusters_on_small_pools():
    st = start("thruster", "thruster", "shield", "shield", "reactor", crew=["sol_forst"])
    play(st, ["crew", "b3_ar"], ["commit", 0], ["lock", "thruster", 2])
    st.force_dice("wild", "shield")
    play(st, "roll")
    assert ["lock", "wild", 1, "sol_forst"] in st.legal_actions()
    play(st, ["lock", "wild", 1, "sol_forst"])
    assert marks(st, "b3_ar")[0] == 0


def test_redacted_doubles_shields_but_never_on_a_wild_requirement():
    st = start("shield", "shield", "damage", "damage", "reactor", crew=["redacted"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 2])
    st.force_dice("shield", "damage", "reactor")
    play(st, "roll")
    play(st, ["lock", "shield", 1, "redacted"])
    assert marks(st, "namari")[0] == 0
    wild = start("wild", "wild", "damage", "damage", "reactor", crew=["redacted"])
    play(wild, ["crew", "aponi"], ["commit", 3], ["lock", "wild", 1])
    wild.force_dice("wild", "damage", "reactor")
    play(wild, "roll")
    assert not any(len(a) == 4 for a in wild.legal_actions() if isinstance(a, list))


# ----- "exactly 1 X may be locked as a Wild" -----------------------------------------


def test_bill_bendo_locks_a_lone_shield_as_a_wild():
    st = start("shield", "damage", "damage", "thruster", "reactor", crew=["bill_bendo"])
    play(st, ["crew", "aponi"], ["commit", 3])
    assert st.legal_actions() == [["lock", "shield", 1, "bill_bendo"]]
    play(st, ["lock", "shield", 1, "bill_bendo"])
    assert st.need == 1
    two = start("shield", "shield", "damage", "thruster", "reactor", crew=["bill_bendo"])
    play(two, ["crew", "aponi"], ["commit", 3])
    assert ["lock", "shield", 1, "bill_bendo"] not in two.legal_actions()


def test_lee_van_cribb_locks_a_lone_reactor_as_a_wild():
    st = start("reactor", "damage", "damage", "thruster", "extra", crew=["lee_van_cribb"])
    play(st, ["crew", "namari"], ["commit", 0])
    assert st.legal_actions() == [["lock", "reactor", 1, "lee_van_cribb"]]


def test_tantin_al_vale_locks_a_lone_damage_as_a_wild():
    st = start("damage", "shield", "shield", "thruster", "extra", crew=["tantin_al_vale"])
    play(st, ["crew", "vila_noir"], ["commit", 0])
    assert st.legal_actions() == [["lock", "damage", 1, "tantin_al_vale"]]


def test_zek_zarag_locks_a_lone_thruster_as_a_wild():
    st = start("thruster", "shield", "shield", "damage", "extra", crew=["zek_zarag"])
    play(st, ["crew", "vila_noir"], ["commit", 0])
    assert st.legal_actions() == [["lock", "thruster", 1, "zek_zarag"]]
    play(st, ["lock", "thruster", 1, "zek_zarag"])
    assert st.need == 3


def test_vanta_sae_locks_any_one_die_as_a_wild_when_no_extra_die_is_rolled():
    st = start("damage", "shield", "thruster", "thruster", "reactor", crew=["vanta_sae"])
    play(st, ["crew", "aponi"], ["commit", 3])
    legal = st.legal_actions()
    assert ["lock", "damage", 1, "vanta_sae"] in legal
    assert ["lock", "thruster", 1, "vanta_sae"] in legal
    play(st, ["lock", "thruster", 1, "vanta_sae"])
    assert not any(a[-1:] == ["vanta_sae"] for a in st.legal_actions() if isinstance(a, list))
    with_extra = start("damage", "extra", "thruster", "thruster", "reactor", crew=["vanta_sae"])
    play(with_extra, ["crew", "aponi"], ["commit", 3])
    assert not any(a[-1:] == ["vanta_sae"] for a in with_extra.legal_actions())


# ----- dice that become Extra Dice ---------------------------------------------------


def test_ft_1000_turns_a_lone_wild_into_an_extra_die():
    st = start("wild", "damage", "damage", "shield", "thruster", crew=["ft_1000"])
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 2])
    play(st, ["use", "ft_1000"])
    assert not any(a[:2] == ["lock", "wild"] for a in st.legal_actions() if isinstance(a, list))
    st.force_dice("damage", "damage", "damage", "damage")
    play(st, "roll")
    assert rolled_count(st) == 4  # wild, shield, thruster + 1 for the would-be Extra Die


def test_kary_powalk_turns_first_roll_damage_into_extra_dice():
    st = start("damage", "damage", "shield", "shield", "reactor", crew=["kary_powalk"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 2])
    play(st, ["use", "kary_powalk"], ["use", "kary_powalk"])
    assert pool(st)["damage"] == 0
    st.force_dice("shield", "damage", "damage", "reactor", "reactor")
    play(st, "roll")
    assert rolled_count(st) == 5  # 3 dice + 2 added
    play(st, ["lock", "shield", 1])
    assert ["use", "kary_powalk"] not in st.legal_actions()  # first roll only


def test_myla_dystra_makes_one_die_an_extra_die_after_two_thrusters():
    st = start("thruster", "thruster", "damage", "shield", "reactor", crew=["myla_dystra"])
    play(st, ["crew", "b3_ar"], ["commit", 0], ["lock", "thruster", 2])
    legal = st.legal_actions()
    assert ["use", "myla_dystra", "damage"] in legal and ["use", "myla_dystra", "reactor"] in legal
    play(st, ["use", "myla_dystra", "damage"])
    assert not any(a[:2] == ["use", "myla_dystra"] for a in st.legal_actions())  # one die
    st.force_dice("thruster", "thruster", "thruster", "thruster")
    play(st, "roll")
    assert rolled_count(st) == 4


# ----- re-roll abilities -------------------------------------------------------------


def test_salatar_rerolls_the_whole_first_roll_before_anything_else():
    st = start("damage", "damage", "damage", "damage", "damage", crew=["salatar"])
    assert ["use", "salatar"] in st.legal_actions()
    st.force_dice("reactor", "reactor", "reactor", "reactor", "wild")
    play(st, ["use", "salatar"])
    assert pool(st) == {
        "damage": 0,
        "shield": 0,
        "thruster": 0,
        "reactor": 4,
        "wild": 1,
        "extra": 0,
    }
    assert ["use", "salatar"] not in st.legal_actions()
    play(st, ["crew", "vila_noir"], ["commit", 0], ["lock", "reactor", 1])
    st.force_dice("reactor", "damage", "damage", "damage")
    play(st, "roll")
    assert st.cur == 0 and ["use", "salatar"] not in st.legal_actions()  # first roll only


def test_lila_al_bindar_rerolls_chosen_dice_after_two_reactors():
    st = start("reactor", "reactor", "damage", "damage", "shield", crew=["lila_al_bindar"])
    play(st, ["crew", "saghari"], ["commit", 0])
    play(
        st, ["use", "lila_al_bindar"], ["pick", "reactor"], ["pick", "reactor"], ["pick", "shield"]
    )
    assert st.legal_actions()[-1] == "reroll"
    st.force_dice("damage", "damage", "wild")
    play(st, "reroll")
    assert pool(st) == {
        "damage": 4,
        "shield": 0,
        "thruster": 0,
        "reactor": 0,
        "wild": 1,
        "extra": 0,
    }
    play(st, ["lock", "damage", 4])
    assert marks(st, "saghari")[0] == 0


def test_vila_noir_rerolls_two_dice_when_no_reactor_is_rolled():
    st = start("damage", "damage", "shield", "thruster", "extra", crew=["vila_noir"])
    assert ["use", "vila_noir"] in st.legal_actions()  # before choosing the crew, like Salatar
    play(st, ["use", "vila_noir"], ["pick", "damage"], ["pick", "extra"])
    assert st.legal_actions() == ["reroll"]  # at most 2 dice
    st.force_dice("reactor", "wild")
    play(st, "reroll")
    assert pool(st)["reactor"] == 1 and pool(st)["wild"] == 1
    assert ["use", "vila_noir"] not in st.legal_actions()


def test_reroll_abilities_come_before_other_abilities_and_locks():
    st = start(
        "reactor", "reactor", "damage", "damage", "shield", crew=["lila_al_bindar", "ryan_rogal"]
    )
    play(st, ["crew", "saghari"], ["commit", 0])
    assert ["use", "lila_al_bindar"] in st.legal_actions()
    st.force_dice("shield", "thruster")
    play(st, ["use", "ryan_rogal"])
    assert ["use", "lila_al_bindar"] not in st.legal_actions()


# ----- dice from the supply ----------------------------------------------------------


def test_ryan_rogal_adds_rolled_wilds_from_the_supply():
    st = start("damage", "damage", "shield", "shield", "reactor", crew=["ryan_rogal"])
    play(st, ["crew", "b3_ar"], ["commit", 0])
    assert st.legal_actions() == [["use", "ryan_rogal"], "bust"]  # bust only if declined
    st.force_dice("wild", "shield")
    play(st, ["use", "ryan_rogal"])
    assert pool(st)["wild"] == 1 and st.supply == 6
    play(st, ["lock", "wild", 1])
    assert st.need == 3


def test_saghari_adds_a_rolled_wild_or_extra_die_from_the_supply():
    st = start("shield", "shield", "thruster", "reactor", "reactor", crew=["saghari"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 2])
    st.force_dice("extra")
    play(st, ["use", "saghari"])
    assert pool(st)["extra"] == 1 and st.supply == 6
    miss = start("shield", "shield", "thruster", "reactor", "reactor", crew=["saghari"])
    play(miss, ["crew", "namari"], ["commit", 0], ["lock", "shield", 2])
    miss.force_dice("thruster")
    play(miss, ["use", "saghari"])
    assert pool(miss)["thruster"] == 1 and miss.supply == 7


def test_kal_damar_starts_the_turn_with_six_dice_if_wanted():
    st = start(crew=["kal_damar"])
    assert st.legal_actions() == ["roll", ["use", "kal_damar"]]
    play(st, ["use", "kal_damar"])
    assert sum(pool(st).values()) == 6 and st.supply == 6
    five = start(crew=["kal_damar"])
    play(five, "roll")
    assert sum(pool(five).values()) == 5


def test_avari_adds_three_supply_dice_after_a_roll_of_all_wilds():
    st = start("wild", "wild", "wild", "wild", "wild", crew=["avari"])
    play(st, ["crew", "namari"], ["commit", 2], ["lock", "wild", 1])
    play(st, ["use", "avari"])
    st.force_dice(*["thruster"] * 7)
    play(st, "roll")
    assert rolled_count(st) == 7  # 4 left + 3


def test_meg_gallak_saves_a_first_roll_wild_for_the_next_roll():
    st = start("wild", "shield", "shield", "damage", "damage", crew=["meg_gallak"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 2])
    play(st, ["use", "meg_gallak"])
    assert pool(st)["wild"] == 0
    st.force_dice("reactor", "reactor")
    play(st, "roll")  # the 2 Damage are rolled, the Wild comes back as it was
    assert pool(st) == {
        "damage": 0,
        "shield": 0,
        "thruster": 0,
        "reactor": 2,
        "wild": 1,
        "extra": 0,
    }
    play(st, ["lock", "wild", 1])
    assert st.need == 1


# ----- safety from busting -----------------------------------------------------------


def test_at_0k_makes_the_next_roll_safe_after_two_shields():
    st = start("shield", "shield", "reactor", "reactor", "reactor", crew=["at_0k"],
               display=["ryle_al_wren", "namari", "saghari", "aponi"])  # fmt: skip
    play(st, ["crew", "ryle_al_wren"], ["commit", 0], ["lock", "shield", 2])
    play(st, ["use", "at_0k"])
    st.force_dice("reactor", "reactor", "reactor")
    play(st, "roll", ["commit", 1])  # Damage 2: nothing to lock, but safe
    assert st.legal_actions() == ["roll", "stop"]
    play(st, "stop")
    assert marks(st, "ryle_al_wren") == [0, None, None]


def test_moro_mada_is_safe_with_a_small_pool_and_an_extra_die():
    st = start("shield", "shield", "shield", "damage", "damage", crew=["moro_mada"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 3])
    st.force_dice("extra", "damage")
    play(st, "roll")
    assert st.legal_actions() == [["use", "moro_mada"], "bust"]
    play(st, ["use", "moro_mada"])
    assert st.legal_actions() == ["roll", "stop"]
    st.force_dice("shield", "damage", "damage")
    play(st, "roll")
    assert st.cur == 0 and rolled_count(st) == 3  # Extra Dice still add a die


def test_b3_ar_completes_the_committed_requirement_on_three_thrusters():
    st = start("thruster", "thruster", "thruster", "shield", "damage", crew=["b3_ar"])
    play(st, ["crew", "namari"], ["commit", 0])
    assert ["use", "b3_ar"] not in st.legal_actions()  # lock 1 die first when just committed
    play(st, ["lock", "shield", 1], ["use", "b3_ar"])
    assert marks(st, "namari")[0] == 0
    assert sum(pool(st).values()) == 4  # no dice were needed for the rest
    # Committed on an earlier roll: no lock is needed, and it is not a bust.
    st2 = start("shield", "damage", "damage", "reactor", "reactor", crew=["b3_ar"])
    play(st2, ["crew", "namari"], ["commit", 0], ["lock", "shield", 1])
    st2.force_dice("thruster", "thruster", "thruster", "damage")
    play(st2, "roll")
    assert st2.legal_actions() == [["use", "b3_ar"], "bust"]
    play(st2, ["use", "b3_ar"])
    assert marks(st2, "namari")[0] == 0


def test_imdar_shade_may_draw_a_hazard_token_when_no_shield_is_rolled():
    st = start("damage", "damage", "reactor", "reactor", "thruster", crew=["imdar_shade"])
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 1])
    st.force_tokens(5)
    play(st, ["use", "imdar_shade"])
    assert st.observation(0)["my_hazard_tokens"] == [5]
    assert sum(st.pile) == 44
    assert ["use", "imdar_shade"] not in st.legal_actions()


def test_namari_gains_two_prestige_after_a_bust():
    st = start("damage", "damage", "reactor", "reactor", "thruster", crew=["namari"],
               display=["aponi", "saghari", "vila_noir", "b3_ar"])  # fmt: skip
    play(st, ["crew", "aponi"], ["commit", 3])  # no Wild: bust
    assert st.legal_actions() == [["use", "namari"], "pass"]
    play(st, ["use", "namari"])
    assert st.prestige[0] == 2 and st.cur == 1


# ----- general ability rules ---------------------------------------------------------


def test_ability_made_wilds_are_not_real_wilds_for_other_abilities():
    # Aponi doubles "each Wild or Reactor"; Bill Bendo's Shield-as-Wild is not a real Wild.
    st = start("reactor", "reactor", "damage", "damage", "damage", crew=["aponi", "bill_bendo"])
    play(st, ["crew", "vila_noir"], ["commit", 0], ["lock", "reactor", 2])
    st.force_dice("shield", "damage", "thruster")
    play(st, "roll")
    assert st.legal_actions()[:1] == [["lock", "shield", 1, "bill_bendo"]]
    assert not any(a[1:2] == ["shield"] and a[-1] == "aponi" for a in st.legal_actions())


def test_abilities_are_offered_not_forced_and_a_bust_comes_only_after_them():
    st = start("damage", "damage", "shield", "shield", "reactor", crew=["ryan_rogal"])
    play(st, ["crew", "b3_ar"], ["commit", 0])  # no Thruster, no Wild
    assert "bust" in st.legal_actions()
    play(st, "bust")
    assert st.cur == 1
