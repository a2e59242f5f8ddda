"""Every Ship Part's effect (base game and Overload)."""

from pathlib import Path

import pytest

from engine.games.moonrakers.cards import PARTS
from tests.engine.moonrakers.helpers import act, finish_execution, new, pending, px, rig

FLAGSHIP = "admirals-flagship"  # R5 S5 D8, 4 hazard dice
FILL = ["M", "M", "zek-zarag"]  # a playable crew keeps the step open


def solo(parts, hand=(), contract=FLAGSHIP, dice=None, draws=None, actions=5, io=None):
    st = new(3, 11)
    rig(
        st,
        contract,
        [0],
        {0: [*hand, *FILL]},
        parts={0: parts},
        dice={0: dice or []},
        draws={0: draws or ["T"] * 8},
        actions={0: actions} if actions is not None else None,
        io={0: io} if io else None,
    )
    return st


def team(parts, hands, contract=FLAGSHIP, deals=None, dice=None, actions=None, draws=None):
    """Seat 0 (ML) with seats 1 (and 2) as Allies; parts = {seat: [...]}."""
    st = new(3, 11)
    seats = sorted(hands)
    rig(
        st,
        contract,
        seats,
        hands,
        parts=parts,
        deals=deals or {s: (0, 0, 0, 0) for s in seats[1:]},
        dice=dice,
        actions=actions,
        draws=draws or {s: ["T"] * 8 for s in seats},
    )
    return st


# ----- contract-start effects -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("part", "hand", "drawn"),
    [
        ("absorption-k2", [], 1),
        ("absorption-k2", ["Rx"], 0),  # any Reactor card counts (category)
        ("barrier-a3", [], 1),
        ("barrier-a3", ["S+"], 0),
        ("escape-jets-e1", [], 1),
        ("escape-jets-e1", ["Tx"], 0),
        ("mg2-quad-laser", [], 2),
        ("mg2-quad-laser", ["D+"], 0),
        ("mg-raid", [], 0),
        ("vector-jets-e3", [], 1),
    ],
)
def test_start_of_contract_draws(part, hand, drawn):
    st = solo([part], hand)
    if part == "mg-raid":
        assert len(st.hand[0]) == len(hand) + 3 + 2  # a Miss in hand: draw 2
    else:
        assert len(st.hand[0]) == len(hand) + 3 + drawn


def test_mg_raid_needs_a_miss_in_hand():
    st = new(3, 11)
    rig(st, FLAGSHIP, [0], {0: ["R", "R"]}, parts={0: ["mg-raid"]}, actions={0: 5})
    assert len(st.hand[0]) == 2


def test_vector_jets_only_as_mission_leader():
    st = team({1: ["vector-jets-e3"]}, {0: ["R"], 1: ["R"]})
    assert len(st.hand[1]) == 1


@pytest.mark.parametrize(
    ("part", "cat"),
    [("sapphire-mk2", "R"), ("titan-3000", "S"), ("twin-jets-e4", "T"), ("gatling-laser", "D")],
)
def test_passive_requirement_reductions(part, cat):
    st = solo([part], contract="emergency-meds" if cat != "S" else "cryogenic-pods")
    from engine.games.moonrakers.cards import CONTRACTS

    assert st.rem[cat] == CONTRACTS[st.contract].req[cat] - 1


def test_daburu_gives_an_extra_action():
    st = solo(["daburu-mk1"], ["R"], actions=None)
    assert px(st, 0).actions == 2


def test_projector_draws_per_die_and_precari_pays_for_two_dice():
    st = solo(["projector-s2", "precari-4050"], dice=[0, 1, 2, 0])
    assert len(st.hand[0]) == 3 + 4
    credits_before = 2
    assert st.credits[0] == credits_before + 1


def test_mg_reformer_trash_or_gain_a_miss_at_contract_start():
    st = new(3, 11)
    rig(st, FLAGSHIP, [0], {0: ["R", "T"]}, parts={0: ["mg-reformer"]})
    assert pending(st) == "reformer"
    assert st.legal_actions() == [
        ["reformer", "miss"],
        ["reformer", "trash", "R"],
        ["reformer", "trash", "T"],
    ]
    act(st, ["reformer", "miss"])
    assert st.discard[0] == ["M"]


def test_jump_jets_pulsor_and_leech_help_allies():
    st = team(
        {0: ["jump-jets-e2", "pulsor-mk1"], 1: ["leech"]},
        {0: ["R"], 1: ["R"], 2: ["R"]},
        deals={1: (0, 0, 0, 0), 2: (0, 0, 0, 0)},
    )
    assert len(st.hand[0]) == 1 and len(st.hand[1]) == 2 and len(st.hand[2]) == 2
    assert px(st, 0).actions == 1
    assert px(st, 2).actions == 2
    assert px(st, 1).actions == 1 + 1 + 2  # Pulsor + Leech (2 Allies: seats 1 and 2)


# ----- passive rules ---------------------------------------------------------------------------


def test_accelerator_first_reactor_gives_an_extra_action():
    st = solo(["accelerator-mk3"], ["R+", "R"], actions=1)
    act(st, ["play", "R+"])
    assert px(st, 0).actions == 1 - 1 + 2 + 1
    act(st, ["play", "R"])
    assert px(st, 0).actions == 3 - 1 + 2


def test_dauntless_shields_also_reduce_damage():
    st = solo(["dauntless"], ["S", "S"])
    act(st, ["play", "S"])
    act(st, ["play", "S"])
    assert st.rem["D"] == 6


def test_mg_phase_core_two_reactors_reduce_damage():
    st = solo(["mg-phase-core"], ["R", "Rx"])
    act(st, ["play", "R"])
    assert st.rem["D"] == 8
    act(st, ["play", "Rx"])
    assert st.rem["D"] == 7


def test_mg_support_core_first_damage_card_is_free():
    st = solo(["mg-support-core"], ["D2", "D1"], actions=0)
    assert st.legal_actions() == ["pass", ["play", "D2"], ["play", "D1"]]
    st = solo(["mg-support-core"], ["D2", "D1"], actions=1)
    act(st, ["play", "D2"])
    assert px(st, 0).actions == 1 and st.rem["D"] == 6


def test_mg_warp_draws_two_on_the_first_damage_card():
    st = solo(["mg-warp"], ["D1", "D1"])
    act(st, ["play", "D1"])
    assert len(st.hand[0]) == 1 + 3 + 2
    act(st, ["play", "D1"])
    assert len(st.hand[0]) == 5


def test_mg1_kinetic_trashing_a_damage_1_from_hand_deals_three():
    st = new(3, 11)
    rig(
        st,
        FLAGSHIP,
        [0],
        {0: ["kal-damar", "D1", "R"]},
        parts={0: ["mg1-kinetic"]},
        actions={0: 3},
        draws={0: ["M", "M"]},
    )
    act(st, ["play", "kal-damar"])
    act(st, ["trash", "D1"])
    assert st.rem["D"] == 5


def test_mg1_rail_gun_reduces_damage_at_the_end_without_shields():
    st = solo(["mg1-rail-gun"], ["D3", "D3"], contract="core-world-ace", actions=2)
    act(st, ["play", "D3"])
    finish_execution(st)
    assert st.last["success"]  # 5 needed: 3 played + 2 from the Rail Gun
    st = solo(["mg1-rail-gun"], ["D3", "S"], contract="core-world-ace", actions=2)
    act(st, ["play", "D3"])
    act(st, ["play", "S"])
    finish_execution(st)
    assert not st.last["success"]


def test_predator_makes_damage_1_free_for_every_player():
    st = team({1: ["predator-mk1"]}, {0: ["D1", "D2"], 1: ["R"]}, actions={0: 0})
    assert ["play", "D1"] in st.legal_actions() and ["play", "D2"] not in st.legal_actions()


def test_swarm_discarding_a_damage_1_gives_two_actions():
    st = solo(["swarm-mk1", "mg2-laser-turrets"], ["D1", "D1"], actions=1)
    act(st, ["ability", "mg2-laser-turrets"])
    assert px(st, 0).actions == 1 - 1 + 4 and st.rem["D"] == 4


def test_catalyzer_two_reactors_in_a_row_draw_two():
    st = solo(["catalyzer-mk2"], ["R", "D1", "R", "R"])
    act(st, ["play", "R"])
    act(st, ["play", "D1"])
    act(st, ["play", "R"])
    assert len(st.hand[0]) == 4
    act(st, ["play", "R"])
    assert len(st.hand[0]) == 5


def test_io_gen_and_io_pivot_gain_after_a_completed_contract():
    st = solo(["io-gen-mk1", "io-pivot-h2"], ["T"], contract="kill-slavers", actions=2)
    st.rem = {"T": 1, "D": 0}
    st.px[0].dice = [2, 1]
    act(st, ["play", "T"])
    finish_execution(st)
    assert st.io[0] == {"io-gen-mk1": 1, "io-pivot-h2": 3}


def test_mg_io_charge_gains_per_blocked_icon_and_spends_two_for_a_damage():
    st = solo(["mg-io-charge"], ["Sx", "S"], dice=[2, 1, 0, 0])
    act(st, ["play", "Sx"])
    act(st, ["play", "S"])
    assert st.io[0]["mg-io-charge"] == 3  # 4 blocks, but only 3 icons were rolled
    act(st, ["ability", "mg-io-charge", "spend"])
    assert st.io[0]["mg-io-charge"] == 1 and st.rem["D"] == 7


def test_mg_io_overkill_gains_per_damage_2_and_doubles_played_damage():
    st = solo(["mg-io-overkill"], ["D2", "D3"], io={"mg-io-overkill": 3})
    act(st, ["play", "D2"])
    act(st, ["play", "D3"])
    assert st.io[0]["mg-io-overkill"] == 4
    act(st, ["ability", "mg-io-overkill", "spend"])
    assert st.rem["D"] == 0 and px(st, 0).dmg == 10  # 5 played, doubled


def test_mg_overcharger_doubles_a_damage_card_for_an_extra_action():
    st = solo(["mg-overcharger"], ["D3", "D3"], actions=3)
    assert ["play", "D3", "x2"] in st.legal_actions()
    act(st, ["play", "D3", "x2"])
    assert st.rem["D"] == 2 and px(st, 0).actions == 1
    assert ["play", "D3", "x2"] not in st.legal_actions()  # once per contract


def test_mg_tractor_beam_may_take_a_trashed_card():
    st = new(3, 11)
    st.parts[2] = ["mg-tractor-beam"]
    rig(st, FLAGSHIP, [0], {0: ["kin-tobor", "D3", "R"]}, actions={0: 3})
    act(st, ["play", "kin-tobor"])
    act(st, ["trash", "D3"])
    assert pending(st) == "tractor" and st.to_move() == 2
    act(st, ["tractor", "take"])
    assert st.discard[2] == ["D3"]


def test_the_reclaimer_pays_two_per_trashed_card():
    st = solo(["reclaimer", "symbiote-9000"], ["R"], dice=[1, 0, 0, 0])
    credits = st.credits[0]
    act(st, ["ability", "symbiote-9000", "M"])
    assert st.credits[0] == credits + 2 and px(st, 0).blocked == 1


def test_tesselator_puts_a_discarded_card_on_top_for_the_next_hand():
    st = solo(["tesselator-mk1"], ["D3"], contract="kill-slavers", actions=1)
    act(st, ["play", "D3"])
    assert pending(st) == "tesselator"
    act(st, ["top", "D3"])
    assert "D3" in st.hand[0] and "D3" in st.known[0]


def test_thrust_tuner_may_redraw_the_first_card():
    st = solo(["thrust-tuner-e2"], ["T"], draws=["M", "S", "D1"])
    act(st, ["play", "T"])
    assert pending(st) == "tuner_pick" and st.looking[0] == ["M"]
    act(st, "redraw")
    assert sorted(st.hand[0]) == ["D1", "M", "M", "S", "zek-zarag"] and st.discard[0] == ["M"]


def test_underwriter_pays_three_on_failure():
    st = solo(["underwriter-1050"], [], contract="kill-slavers")
    credits = st.credits[0]
    finish_execution(st)
    assert st.credits[0] == credits + 3


# ----- activated abilities -------------------------------------------------------------------


def test_clone_bay_plays_a_crew_a_second_time():
    st = solo(["clone-bay"], ["miska-rose"], contract="black-hole")
    act(st, ["play", "miska-rose"])
    assert st.rem["C"] == 3
    act(st, ["ability", "clone-bay", "miska-rose"])
    assert st.rem["C"] == 1 and px(st, 0).actions == 5 - 1 + 1 - 1 + 1


def test_dark_matter():
    st = solo(["dark-matter-mk3"], ["D1", "D2"])
    act(st, ["ability", "dark-matter-mk3"])
    assert st.rem["D"] == 3 and sorted(st.discard[0]) == ["D1", "D2"]


def test_defender_5000_discards_two_non_shields_as_a_shield():
    st = solo(["defender-5000"], ["S", "R"], dice=[1, 0, 0, 0])
    assert ["ability", "defender-5000", "M", "R"] in st.legal_actions()
    assert not any(
        a[0] == "ability" and "S" in a[2:] for a in st.legal_actions() if isinstance(a, list)
    )
    act(st, ["ability", "defender-5000", "M", "M"])
    assert st.rem["S"] == 4 and px(st, 0).blocked == 1


def test_mg_charge_core_plays_a_damage_1_as_3_and_adds_a_miss():
    st = solo(["mg-charge-core"], ["D1"])
    act(st, ["ability", "mg-charge-core"])
    assert st.rem["D"] == 5 and st.discard[0] == ["M"] and px(st, 0).actions == 4


def test_multi_stage_discards_up_to_three_and_allies_draw_that_many():
    st = team({0: ["multi-stage-m1"]}, {0: ["M", "M", "R"], 1: ["R"]}, actions={0: 2})
    act(st, ["ability", "multi-stage-m1"])
    act(st, ["discard", "M"])
    act(st, ["discard", "M"])
    act(st, "done")
    assert len(st.hand[1]) == 3


def test_the_pursuer_discards_and_draws():
    st = solo(["pursuer"], ["R"])
    act(st, ["ability", "pursuer"])
    act(st, ["discard", "M"])
    act(st, "done")
    assert sorted(st.hand[0]) == ["M", "R", "T", "zek-zarag"]


def test_quantum_driver_once_per_contract():
    st = solo(["quantum-driver"], ["D1", "D1"])
    act(st, ["ability", "quantum-driver"])
    assert st.rem["D"] == 5 and px(st, 0).actions == 4
    assert ["ability", "quantum-driver"] not in st.legal_actions()


def test_replicator_discards_two_identical_cards_to_play_a_basic_card():
    st = solo(["replicator-mk1"], [], dice=[1, 0, 0, 0])
    act(st, ["ability", "replicator-mk1", "M", "S"])
    assert st.rem["S"] == 4 and px(st, 0).blocked == 1


def test_symbiote_only_when_a_hazard_is_uncovered():
    st = solo(["symbiote-9000"], ["R"])
    assert not any(isinstance(a, list) and a[0] == "ability" for a in st.legal_actions())


def test_aclimator_moves_a_requirement_onto_shields():
    st = solo(["aclimator-6050"], ["R"])
    act(st, ["ability", "aclimator-6050", "D"])
    assert st.rem == {"R": 5, "S": 13, "D": 0}


def test_the_arbiter_charges_with_two_cards_and_copies_a_card():
    st = solo(["arbiter"], ["R"], io={"arbiter": 2})
    act(st, ["ability", "arbiter", "M", "M"])
    assert st.io[0]["arbiter"] == 3
    act(st, ["ability", "arbiter", "copy", "R"])
    assert st.io[0]["arbiter"] == 0 and st.discard[0][-1] == "R"


@pytest.mark.parametrize(
    ("part", "basic", "advanced"),
    [("augmentor-2050", "S", "S+"), ("inverter-mk2", "R", "R+"), ("staged-burst-e3", "T", "T+")],
)
def test_upgrading_a_basic_card(part, basic, advanced):
    st = solo([part], [basic, "R"])
    act(st, ["ability", part])
    assert basic not in st.hand[0] or basic == "R"
    assert st.discard[0][-1] == advanced


def test_contributor_gives_an_ally_a_basic_card_from_the_supply():
    st = team({0: ["contributor-mk2"]}, {0: ["R"], 1: ["R"]})
    act(st, ["ability", "contributor-mk2", 1, "T"])
    assert "T" in st.hand[1] and st.known[1] == ["T"]


def test_the_eternal_trashes_for_iospheres_and_spends_four_for_prestige():
    st = solo(["eternal"], ["R"], io={"eternal": 3})
    prestige = st.prestige[0]
    act(st, ["ability", "eternal", "M"])
    act(st, ["ability", "eternal", "spend"])
    assert st.io[0]["eternal"] == 0 and st.prestige[0] == prestige + 1


@pytest.mark.parametrize(
    ("part", "card", "cost", "check"),
    [
        ("io-buffer-2050", "S", 1, lambda st: st.rem["S"] == 4),
        ("io-hub-mk2", "R", 3, lambda st: st.discard[0][-1] == "R+"),
        ("io-spark-mk1", "R", 1, lambda st: px(st, 0).actions == 6),
        ("io-surge-e2", "T", 1, lambda st: len(st.hand[0]) == 4),
    ],
)
def test_io_parts_discard_a_basic_card_to_charge_and_spend(part, card, cost, check):
    st = solo([part], [card], io={part: cost - 1})
    act(st, ["ability", part, "charge"])
    assert st.io[0][part] == cost and card in st.discard[0]
    act(st, ["ability", part, "spend"])
    assert st.io[0][part] == 0 and check(st)


def test_io_cache_charges_with_two_cards_and_ignores_a_hazard():
    st = solo(["io-cache-3050"], ["R"], dice=[1, 0, 0, 0], io={"io-cache-3050": 1})
    act(st, ["ability", "io-cache-3050", "M", "M"])
    act(st, ["ability", "io-cache-3050", "spend"])
    assert px(st, 0).blocked == 1


def test_io_exhaust_draws_and_leaves_at_four_iospheres():
    st = solo(["io-exhaust-e1"], ["R"], io={"io-exhaust-e1": 3})
    act(st, ["ability", "io-exhaust-e1"])
    assert st.parts[0] == [] and st.part_deck[0] == "io-exhaust-e1" and len(st.hand[0]) == 5


def test_io_gen_plays_a_card_twice_for_one_action():
    st = solo(["io-gen-mk1"], ["D3"], io={"io-gen-mk1": 3})
    act(st, ["ability", "io-gen-mk1", "D3"])
    assert st.rem["D"] == 2 and px(st, 0).actions == 4


def test_io_hotshot_rolls_twice_per_contract_and_spends_for_any_requirement():
    st = solo(["io-hotshot-1050"], ["R"], dice=[0, 0, 0, 0, 2, 1])
    act(st, ["ability", "io-hotshot-1050", "roll"])
    act(st, ["ability", "io-hotshot-1050", "roll"])
    assert px(st, 0).dice[-2:] == [2, 1] and st.io[0]["io-hotshot-1050"] == 2
    assert ["ability", "io-hotshot-1050", "roll"] not in st.legal_actions()
    act(st, ["ability", "io-hotshot-1050", "S"])
    assert st.rem["S"] == 4


def test_io_pivot_rerolls_one_of_your_dice():
    st = solo(["io-pivot-h2"], ["R"], dice=[2, 0, 0, 0, 0], io={"io-pivot-h2": 1})
    act(st, ["ability", "io-pivot-h2", 2])
    assert sorted(px(st, 0).dice) == [0, 0, 0, 0]


def test_magnetite_allies_may_give_a_card():
    st = team({0: ["magnetite-m1"]}, {0: ["R"], 1: ["D3", "R"]})
    act(st, ["ability", "magnetite-m1"])
    assert st.to_move() == 1 and pending(st) == "magnet_give"
    act(st, ["give", "D3"])
    assert st.to_move() == 0
    act(st, "keep")
    assert "D3" in st.hand[0] and "D3" not in st.hand[1]


def test_mg_io_core_charges_with_two_damage_cards():
    st = solo(["mg-io-core"], ["D1", "D2"])
    act(st, ["ability", "mg-io-core", "D1", "D2"])
    act(st, ["ability", "mg-io-core", "spend"])
    assert st.rem["D"] == 7


def test_mg_upgrade_core_trashes_a_damage_card_for_a_damage_plus():
    st = solo(["mg-upgrade-core"], ["D1"])
    act(st, ["ability", "mg-upgrade-core", "D1"])
    assert st.discard[0] == ["D+"] and st.adv["D+"] == 9


def test_the_mill_discards_the_top_card_and_copies_it():
    st = solo(["mill"], ["R"], draws=["Tx", "M"])
    act(st, ["ability", "mill"])
    assert st.discard[0] == ["Tx", "Tx"] and st.adv["Tx"] == 9


def test_modulator_trades_a_card_with_an_ally():
    st = team({0: ["modulator-t3"]}, {0: ["R", "M"], 1: ["D3", "R"]})
    act(st, ["ability", "modulator-t3", 1, "M"])
    assert st.to_move() == 1 and pending(st) == "modulator_back"
    act(st, ["give", "D3"])
    assert sorted(st.hand[0]) == ["D3", "R"] and sorted(st.hand[1]) == ["M", "R"]


def test_phase_drive_gives_a_hand_card_to_an_ally():
    st = team({0: ["phase-drive-mk3"]}, {0: ["R", "D3"], 1: ["R"]})
    act(st, ["ability", "phase-drive-mk3", 1, "D3"])
    assert "D3" in st.hand[1] and st.known[1] == ["D3"]


def test_the_tributor_trashes_two_for_three_off_one_requirement():
    st = solo(["tributor"], ["R"])
    act(st, ["ability", "tributor", "M", "M"])
    act(st, ["req", "S"])
    assert st.rem["S"] == 2 and px(st, 0).trashed == 2


def test_twin_probe_looks_at_the_top_card():
    st = solo(["twin-probe-e2"], ["R"], draws=["D3", "M"])
    act(st, ["ability", "twin-probe-e2"])
    assert st.observation(0)["draw_top"] == ["D3"]
    assert st.observation(1)["players"][0]["draw_top_known"] == []
    act(st, "discard")
    assert st.discard[0] == ["D3"]


def test_every_part_has_a_test():
    # Read from the test file, not collected while tests run: under pytest-xdist the
    # tests of this file are spread over processes in any order.
    source = Path(__file__).read_text()
    elsewhere = {
        "cloaking-device",
        "flash",
        "duo-1000",
        "emulator-mk2",
        "devotion-3050",
        "mg2-laser-turrets",
        "mg-io-charge",
    }
    assert {part for part in PARTS if f'"{part}"' not in source} - elsewhere == set()
