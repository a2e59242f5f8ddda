"""The rulebook's worked examples: the three turn examples and the prestige example."""

from __future__ import annotations

from tests.engine.moonrollers.helpers import marks, play, pool, table

ANGELO, ADRIA, DANIELLE = 0, 1, 2
NAMARI_DISPLAY = ["namari", "lee_van_cribb", "saghari", "sella_pelleon", "kal_damar"]


def angelo_turn():
    """Example 1, move by move; returns the state after Angelo's turn."""
    state = table(
        "shield", "wild", "extra", "extra", "damage",
        players=3,
        seat=ANGELO,
        display=NAMARI_DISPLAY,
        crew={ANGELO: ["salatar", "zek_zarag"]},
        marks={"namari": {3: DANIELLE}},  # Danielle holds the 1 Reactor requirement
    )  # fmt: skip
    legal = state.legal_actions()
    assert ["use", "salatar"] in legal  # he may re-roll his starting dice, but does not
    play(state, ["crew", "namari"])
    assert state.legal_actions() == [
        ["commit", 0],
        ["commit", 1],
        ["commit", 2],
        ["use", "salatar"],
    ]
    play(state, ["commit", 0], ["lock", "shield", 1], ["lock", "wild", 1])
    assert state.need == 2
    # 2 Extra Dice: 3 dice left in the pool + 2 from the supply.
    state.force_dice("thruster", "damage", "reactor", "damage", "reactor")
    play(state, "roll")
    assert sum(pool(state).values()) == 5
    # No Shield, no Wild: only Zek Zarag's Thruster-as-Wild saves him.
    assert state.legal_actions() == [["lock", "thruster", 1, "zek_zarag"]]
    play(state, ["lock", "thruster", 1, "zek_zarag"])
    assert state.need == 1  # 3 of the 4 Shields
    state.force_dice("shield", "damage", "reactor", "damage")
    play(state, "roll")  # no Extra Dice: 4 dice
    play(state, ["lock", "shield", 1])
    assert marks(state, "namari") == [ANGELO, None, None, DANIELLE]
    assert set(state.legal_actions()) >= {"roll", "stop"}
    state.force_dice("wild", "thruster", "thruster")
    play(state, "roll")
    assert state.legal_actions() == [["commit", 1], ["commit", 2]]  # Damage or Thrusters
    play(state, ["commit", 2], ["lock", "thruster", 2], ["lock", "wild", 1])
    # The pool is empty: his turn ends, and his tokens stay.
    assert marks(state, "namari") == [ANGELO, None, ANGELO, DANIELLE]
    assert state.cur == ADRIA
    return state


def test_example_1_angelo_works_on_namari_with_salatar_and_zek_zarag():
    state = angelo_turn()
    assert state.prestige == [0, 0, 0]  # prestige only comes when the crew is complete


def test_example_2_adria_completes_namari_and_prestige_is_paid():
    state = angelo_turn()
    state.force_turn(ADRIA, "wild", "wild", "damage", "shield", "reactor")
    play(state, ["crew", "namari"], ["commit", 1])
    state.force_tokens(5, 1)
    play(state, ["lock", "wild", 2], ["lock", "damage", 1])
    # The Damage requirement is Hazardous: draw 2, keep 1, privately.
    assert state.legal_actions() == [["keep", 1], ["keep", 5]]
    assert state.observation(ADRIA)["turn"]["drawn"] == [5, 1]
    assert "drawn" not in state.observation(ANGELO)["turn"]
    play(state, ["keep", 5])
    assert state.prestige == [7, 3, 1]
    assert state.observation(ADRIA)["players"][ADRIA]["crew"] == {"PALADIN": ["namari"]}
    assert state.observation(ADRIA)["my_hazard_tokens"] == [5]
    assert sum(state.pile) == 44  # the other token went back
    assert "namari" not in [c["crew"] for c in state.observation(0)["display"]]
    assert len(state.display) == 5
    assert state.cur == DANIELLE  # completing the last requirement ends the turn


def test_example_3_alex_busts_on_lee_van_cribb_and_keeps_the_hazard_token():
    alex = 0
    state = table(
        "damage", "shield", "thruster", "thruster", "reactor", "damage",
        display=["lee_van_cribb", "namari", "saghari", "sella_pelleon"],
        crew={alex: ["kal_damar"]},
    )  # fmt: skip
    assert state.legal_actions() == ["roll", ["use", "kal_damar"]]
    play(state, ["use", "kal_damar"])
    assert sum(pool(state).values()) == 6
    state.force_tokens(2, 1)
    play(state, ["crew", "lee_van_cribb"], ["commit", 3], ["lock", "damage", 1])
    play(state, ["keep", 2])
    assert marks(state, "lee_van_cribb") == [None, None, None, alex]
    state.force_dice("wild", "wild", "extra", "thruster", "damage")
    play(state, "roll", ["commit", 0], ["lock", "wild", 2])
    assert marks(state, "lee_van_cribb") == [alex, None, None, alex]
    # 3 dice left + 1 for the Extra Die; no Shield and no Wild: bust.
    state.force_dice("thruster", "damage", "reactor", "extra")
    play(state, "roll", ["commit", 2])
    assert marks(state, "lee_van_cribb") == [None, None, None, None]
    assert state.hz[alex] == [0, 1, 0]  # the 2-prestige token is kept
    assert state.cur == 1


def test_prestige_example_on_aponi():
    blue, green, orange = 0, 1, 2
    state = table(
        "wild", "wild", "damage", "damage", "damage",
        players=3,
        seat=orange,
        display=["aponi", "namari", "saghari", "sella_pelleon", "b3_ar"],
        marks={"aponi": {0: blue, 1: green, 2: orange}},
    )  # fmt: skip
    play(state, ["crew", "aponi"], ["commit", 3], ["lock", "wild", 2])
    # Blue 4 (4 Reactors), Green 3 (3 Thrusters), Orange 7 (3 Shields, 2x2 Wilds).
    assert state.prestige == [4, 3, 7]
    assert state.observation(orange)["players"][orange]["crew"] == {"TECH": ["aponi"]}
