"""Overload mechanisms: Advanced cards and substitution, IOspheres and IO crew, Flex,
Head to Head (the rulebook's worked example), "a" card vs category, Duo 1000, Shard Spear."""

from engine.games.moonrakers.cards import DAMAGE_UPGRADES
from tests.engine.moonrakers.helpers import act, finish_execution, new, pending, px, rig

# ----- Advanced Action cards ------------------------------------------------------------------


def test_a_part_adding_advanced_cards_takes_them_from_the_supply():
    st = new(3, 1)
    from engine.games.moonrakers.buying import install

    install(st, 0, "devotion-3050", bought=False)
    st._run()
    assert sorted(st.discard[0][-4:]) == ["D+", "R+", "S+", "T+"]
    assert st.adv["R+"] == 9 and st.adv["D+"] == 9


def test_a_sold_out_advanced_card_may_be_replaced_by_any_card_of_its_type():
    st = new(3, 1)
    st.adv["D+"] = 0
    rig(st, "kill-slavers", [0], {0: ["D3", "R"]}, parts={0: ["mg-upgrade-core"]}, actions={0: 2})
    act(st, ["ability", "mg-upgrade-core", "D3"])
    assert pending(st) == "substitute"
    assert st.legal_actions() == ["none", ["take", "D1"], ["take", "D2"], ["take", "D3"]]
    act(st, ["take", "D3"])
    assert st.discard[0][-1] == "D3"


def test_a_bonus_card_may_be_an_advanced_card():
    st = new(3, 1)
    rig(st, "core-world-ace", [0], {0: ["D3", "D2"]}, actions={0: 2})  # 1 bonus card
    act(st, ["play", "D3"])
    act(st, ["play", "D2"])
    assert pending(st) == "bonus"
    legal = st.legal_actions()
    assert ["bonus", "crew"] in legal and ["bonus", "part"] in legal and ["bonus", "Sx"] in legal
    act(st, ["bonus", "Sx"])
    assert "Sx" in st.discard[0] + st.hand[0] + st.draw[0]


def test_bonus_crew_or_part_is_the_top_of_its_deck():
    st = new(3, 1)
    top_part = st.part_deck[-1]
    rig(st, "core-world-ace", [0], {0: ["D3", "D2"]}, actions={0: 2})
    act(st, ["play", "D3"])
    act(st, ["play", "D2"])
    act(st, ["bonus", "part"])
    assert top_part in st.parts[0]


# ----- IOspheres and IO crew ------------------------------------------------------------------


def test_io_l1_on_adds_three_stays_in_play_and_draws_once_per_contract():
    st = new(3, 1)
    supply = st.io_free()
    rig(
        st,
        "escort-duty",
        [0],
        {0: ["io-l1-on", "R"]},
        draws={0: ["T", "S", "D1", "M", "M"]},
        actions={0: 3},
    )
    act(st, ["play", "io-l1-on"])
    assert st.inplay[0] == ["io-l1-on"] and st.io[0]["io-l1-on"] == 3
    assert st.io_free() == supply - 3
    assert st.rem["C"] == 0  # it fills the Crew requirement of this contract
    act(st, ["ability", "io-l1-on"])
    assert st.io[0]["io-l1-on"] == 2 and "T" in st.hand[0]
    assert ["ability", "io-l1-on"] not in st.legal_actions()  # once per contract
    finish_execution(st)
    assert st.inplay[0] == ["io-l1-on"]  # not discarded with the other cards
    assert "io-l1-on" not in st.discard[0]
    # Next contract: still there, usable again, but it does not count as Crew again.
    rig(st, "escort-duty", [0], {0: ["R", "R"]}, actions={0: 2})
    assert st.rem["C"] == 1
    act(st, ["ability", "io-l1-on"])
    assert st.rem["C"] == 1 and st.io[0]["io-l1-on"] == 1


def test_an_io_crew_is_discarded_when_its_last_iosphere_is_removed():
    st = new(3, 1)
    st.inplay[0] = ["io-mk8"]
    st.io[0] = {"io-mk8": 1}
    rig(st, "kill-slavers", [0], {0: ["R"]}, actions={0: 2})
    act(st, ["ability", "io-mk8"])
    assert st.inplay[0] == [] and "io-mk8" in st.discard[0] and "io-mk8" not in st.io[0]
    assert px(st, 0).actions == 3


# ----- Flex -----------------------------------------------------------------------------------


def test_flex_one_reduction_fills_either_flex_or_its_own_type_never_both():
    st = new(3, 1)
    rig(st, "concealed-core", [0], {0: ["R", "R", "D3", "D1"]}, actions={0: 3})  # R4, Flex 10
    assert st.rem == {"R": 4, "F": 10}
    assert ["play", "R", "F"] in st.legal_actions()
    assert ["play", "D3", "F"] not in st.legal_actions()  # no Damage requirement to choose
    act(st, ["play", "R"])
    assert st.rem == {"R": 3, "F": 10}
    act(st, ["play", "R", "F"])
    assert st.rem == {"R": 3, "F": 9}
    act(st, ["play", "D3"])  # no Damage requirement: it goes to Flex
    assert st.rem == {"R": 3, "F": 6}


def test_flex_accepts_crew_and_any_requirement_abilities():
    st = new(3, 1)
    rig(st, "alpha-nebula", [0], {0: ["moro-mada", "R"]}, actions={0: 2})
    act(st, ["play", "moro-mada"])
    # The crew fills 1 Flex; its "any one requirement -2" (only Flex is open) too.
    assert st.rem == {"F": 9}


# ----- Head to Head ---------------------------------------------------------------------------


def test_head_to_head_worked_example_7_against_8():
    """Overload rulebook: 3 Reactors + 4 Damage scores 7; 3 Reactors + 5 Damage (8) is 1st."""
    st = new(4, 1)
    hand_a = ["R", "R", "R", "D2", "D2"]
    hand_b = ["R", "R", "R", "D3", "D2"]
    rig(st, "weapons-testing", [0, 1, 2], {0: hand_a, 1: hand_b, 2: ["S", "T"]})
    act(st, ["play", "R"])  # A
    act(st, ["play", "R"])  # B
    act(st, ["play", "S"])  # C: Shields do not count on Weapons Testing
    for _ in range(2):
        act(st, ["play", "R"])
        act(st, ["play", "R"])
    act(st, ["play", "D2"])
    act(st, ["play", "D3"])
    act(st, ["play", "D2"])
    act(st, ["play", "D2"])
    assert st.px is None  # nothing left to play: everyone passed
    assert st.last["scores"] == [7, 8, 0]
    assert st.last["first"] == 1 and st.last["second"] == 0


def test_head_to_head_pays_first_and_second_place_and_allies_do_not_exist():
    st = new(4, 2)
    credits, prestige = list(st.credits), list(st.prestige)
    rig(st, "weapons-testing", [0, 1, 2], {0: ["R"], 1: ["R", "D1"], 2: ["S"]})
    assert st.allies_of(0) == [] and st.allies_of(1) == []
    act(st, ["play", "R"])
    act(st, ["play", "R"])
    act(st, ["play", "S"])
    act(st, ["play", "D1"])
    assert st.px is None
    assert st.last["scores"] == [1, 2, 0]
    assert (st.last["first"], st.last["second"]) == (1, 0)
    assert st.prestige[1] == prestige[1] + 1 and st.credits[1] == credits[1] + 5
    assert st.credits[0] == credits[0] + 3 and st.prestige[0] == prestige[0]
    assert st.credits[2] == credits[2]


def test_head_to_head_ties_are_broken_in_turn_order_from_the_mission_leader():
    st = new(4, 3)
    rig(st, "energy-transfer", [2, 3, 0], {2: ["R"], 3: ["T"], 0: ["R"]})
    act(st, ["play", "R"])
    act(st, ["play", "T"])
    act(st, ["play", "R"])
    while st.px is not None and pending(st) == "step":
        st.apply("pass")
    assert st.last["first"] == 2 and st.last["second"] == 3


def test_utopia_cannot_be_completed_on_head_to_head():
    st = new(3, 3)
    st.objs[0] = ["utopia"]
    rig(st, "energy-transfer", [0, 1, 2], {0: ["R"], 1: [], 2: []})
    finish_execution(st)
    assert st.claimed[0] == []


# ----- "a" specific card versus a category; Duo 1000; Shard Spear ---------------------------------


def test_emulator_refers_to_any_shield_card():
    st = new(3, 1)
    rig(
        st,
        "cryogenic-pods",
        [0],
        {0: ["S+", "R"]},
        parts={0: ["emulator-mk2"]},
        dice={0: [1, 1, 1]},
        actions={0: 0},
    )
    assert ["play", "S+"] in st.legal_actions()  # free: first Shield of any type
    act(st, ["play", "S+"])
    assert px(st, 0).actions == 1


def test_replicator_refers_to_specific_basic_cards():
    st = new(3, 1)
    rig(st, "kill-slavers", [0], {0: ["M", "M", "R"]}, parts={0: ["replicator-mk1"]})
    kinds = [a[3] for a in st.legal_actions() if a[0] == "ability"]
    assert kinds == ["S", "T", "R", "D1"]


def test_duo_1000_plays_the_first_shield_of_any_type_twice():
    st = new(3, 1)
    rig(
        st,
        "prison-moon",
        [0],
        {0: ["Sx", "S", "D1"]},
        parts={0: ["duo-1000"]},
        dice={0: [2, 2, 2, 2]},
        actions={0: 3},
    )
    act(st, ["play", "Sx"])
    p = px(st, 0)
    assert p.blocked == 4 and p.n["S"] == 2 and st.rem["S"] == 3
    act(st, ["play", "S"])
    assert p.blocked == 5 and st.rem["S"] == 2


def test_shard_spear_damage_tiers():
    assert DAMAGE_UPGRADES == {"D1": ("D2",), "D2": ("D3", "D+")}
