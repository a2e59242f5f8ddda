"""The turn: committing, locking, extra dice, rolling again, busting, stopping."""

from __future__ import annotations

import pytest

import engine
from tests.engine.moonrollers.helpers import marks, play, pool, rolled_count, table

D = ["namari", "saghari", "vila_noir", "ryle_al_wren"]


def test_commit_offers_only_requirements_without_a_token():
    st = table("shield", "damage", "damage", "reactor", "reactor", display=D,
               marks={"namari": {0: 1, 2: 1}})  # fmt: skip
    play(st, ["crew", "namari"])
    assert st.legal_actions() == [["commit", 1], ["commit", 3]]


def test_locking_never_exceeds_what_the_requirement_still_needs():
    st = table("reactor", "reactor", "reactor", "wild", "wild", display=D)
    play(st, ["crew", "namari"], ["commit", 3])  # Reactor 1
    assert st.legal_actions() == [["lock", "reactor", 1], ["lock", "wild", 1]]


def test_at_least_one_die_must_be_locked_before_rolling_or_stopping():
    st = table("damage", "damage", "damage", "reactor", "shield", display=D)
    play(st, ["crew", "saghari"], ["commit", 0])
    assert "roll" not in st.legal_actions() and "stop" not in st.legal_actions()
    play(st, ["lock", "damage", 1])
    assert "roll" in st.legal_actions() and "stop" in st.legal_actions()


def test_extra_dice_add_supply_dice_before_the_next_roll():
    st = table("damage", "extra", "extra", "extra", "shield", display=D)
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 1])
    st.force_dice(*["damage"] * 7)
    play(st, "roll")
    assert rolled_count(st) == 7  # 4 left + 3 Extra Dice
    assert st.supply == 12 - 7 - 1


def test_an_empty_supply_adds_no_more_dice():
    st = table("damage", "extra", "extra", "extra", "shield", display=D)
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 1])
    st.supply = 1  # (as if the supply had run low)
    st.force_dice(*["damage"] * 5)
    play(st, "roll")
    assert rolled_count(st) == 5 and st.supply == 0


def test_after_completing_a_requirement_the_next_roll_starts_with_a_commitment():
    st = table("shield", "shield", "damage", "reactor", "reactor", display=D)
    play(st, ["crew", "ryle_al_wren"], ["commit", 0], ["lock", "shield", 2])
    assert not any(a[0] == "lock" for a in st.legal_actions() if isinstance(a, list))
    st.force_dice("damage", "thruster", "reactor")
    play(st, "roll")
    assert st.legal_actions() == [["commit", 1], ["commit", 2]]


def test_bust_removes_tokens_placed_this_turn_but_keeps_earlier_ones_and_hazards():
    st = table("damage", "extra", "shield", "shield", "shield", display=D,
               marks={"namari": {0: 1}})  # fmt: skip
    st.force_tokens(5, 2)
    play(st, ["crew", "saghari"], ["commit", 3], ["lock", "damage", 1], ["keep", 5])
    assert marks(st, "saghari") == [None, None, None, 0]
    st.force_dice("shield", "shield", "shield", "thruster", "reactor")
    play(st, "roll", ["commit", 2])  # Damage 2: no Damage, no Wild, no ability
    assert marks(st, "saghari") == [None, None, None, None]
    assert marks(st, "namari")[0] == 1
    assert st.observation(0)["my_hazard_tokens"] == [5]
    assert st.cur == 1


def test_stopping_keeps_completed_requirements_and_drops_the_open_commitment():
    st = table("shield", "shield", "damage", "reactor", "reactor", display=D)
    play(st, ["crew", "ryle_al_wren"], ["commit", 0], ["lock", "shield", 2])
    st.force_dice("damage", "thruster", "reactor")
    play(st, "roll", ["commit", 1], ["lock", "damage", 1], "stop")
    assert marks(st, "ryle_al_wren") == [0, None, None]
    assert st.cur == 1 and st.prestige == [0, 0]


def test_completing_the_last_requirement_forces_a_stop_and_hires_the_crew():
    st = table("thruster", "damage", "damage", "reactor", "reactor", display=D,
               marks={"ryle_al_wren": {0: 1, 1: 1}}, deck=["aponi", "b3_ar"])  # fmt: skip
    play(st, ["crew", "ryle_al_wren"], ["commit", 2], ["lock", "thruster", 1])
    assert st.prestige == [1, 4]
    assert st.observation(0)["players"][0]["crew"] == {"PALADIN": ["ryle_al_wren"]}
    assert [c["crew"] for c in st.observation(0)["display"]][3] == "aponi"  # refilled
    assert st.cur == 1


def test_an_empty_rolling_pool_ends_the_turn_keeping_completed_requirements():
    # every die is locked while the committed requirement is still open: stop.
    st = table("damage", "damage", "damage", "damage", "shield", display=D)
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 4])
    st.force_dice("damage")
    play(st, "roll", ["commit", 1], ["lock", "damage", 1])
    assert marks(st, "saghari") == [0, None, None, None]
    assert st.cur == 1


def test_hazard_keep_is_a_decision_and_the_pile_only_shrinks_by_one():
    st = table("reactor", "damage", "damage", "shield", "shield", display=D)
    st.force_tokens(1, 5)
    play(st, ["crew", "namari"], ["commit", 3], ["lock", "reactor", 1])
    assert st.to_move() == 0
    assert st.legal_actions() == [["keep", 1], ["keep", 5]]
    play(st, ["keep", 1])
    assert sum(st.pile) == 44 and st.hz[0] == [1, 0, 0]


def test_drawing_from_a_nearly_empty_pile_draws_what_is_left():
    st = table("reactor", "damage", "damage", "shield", "shield", display=D)
    st.pile = [0, 0, 1]
    play(st, ["crew", "namari"], ["commit", 3], ["lock", "reactor", 1])
    assert st.legal_actions() == [["keep", 5]]
    play(st, ["keep", 5])
    st2 = table("reactor", "damage", "damage", "shield", "shield", display=D)
    st2.pile = [0, 0, 0]
    play(st2, ["crew", "namari"], ["commit", 3], ["lock", "reactor", 1])
    assert st2.phase != 5 and st2.hz[0] == [0, 0, 0]


def test_illegal_actions_leave_the_state_alone():
    st = table("reactor", "damage", "damage", "shield", "shield", display=D)
    with pytest.raises(engine.IllegalAction):
        st.apply(["lock", "reactor", 1])  # no crew chosen yet
    with pytest.raises(engine.IllegalAction):
        st.apply(["crew", "aponi"])  # not in the display
    assert pool(st)["reactor"] == 1 and st.slot == -1
