"""Execution: hazard dice, steps in rounds (A-10), basic cards, shields, prestige loss, clean-up."""

import pytest

from tests.engine.moonrakers.helpers import act, finish_execution, new, pending, px, rig


def test_dice_go_to_whoever_took_them_and_cloaking_rolls_one_fewer():
    st = new(3, 1)
    rig(
        st,
        "bomber-screen",  # 3 hazard dice
        [0, 1],
        {0: ["R"], 1: ["R"]},
        deals={1: (0, 0, 0, 1)},
        parts={0: ["cloaking-device"]},
        dice={0: [1, 2], 1: [2]},
    )
    assert px(st, 0).dice == [1]  # 2 dice, one fewer with the Cloaking Device
    assert px(st, 1).dice == [2]


def test_participants_act_in_rounds_from_the_ml_until_everyone_passes():
    st = new(3, 1)
    rig(st, "ancient-ruins", [1, 2], {1: ["R", "R", "D1"], 2: ["R", "D1"]}, deals={2: (0, 0, 0, 0)})
    assert st.to_move() == 1
    act(st, ["play", "R"])
    assert st.to_move() == 2
    act(st, "pass")
    assert st.to_move() == 1
    act(st, ["play", "R"])
    assert st.to_move() == 2
    act(st, ["play", "R"])
    assert st.to_move() == 1
    act(st, "pass")
    assert st.to_move() == 2
    act(st, ["play", "D1"])
    assert st.to_move() == 1  # a player who passed may act again after someone acted
    act(st, "pass")
    # Seat 2 has no card left: its step passes by itself, two passes in a row end it.
    assert st.px is None and pending(st) == "free_discard"


@pytest.mark.parametrize(
    ("card", "actions", "drawn", "blocked", "req"),
    [
        ("R", 2, 0, 0, ("R", 1)),
        ("T", 0, 2, 0, ("T", 1)),
        ("S", 0, 0, 1, ("S", 1)),
        ("D1", 0, 0, 0, ("D", 1)),
        ("D2", 0, 0, 0, ("D", 2)),
        ("D3", 0, 0, 0, ("D", 3)),
        ("R+", 2, 1, 0, ("R", 1)),
        ("Rx", 3, 0, 0, ("R", 1)),
        ("T+", 1, 2, 0, ("T", 1)),
        ("Tx", 0, 3, 0, ("T", 1)),
        ("S+", 1, 0, 1, ("S", 1)),
        ("Sx", 0, 0, 2, ("S", 1)),
        ("D+", 1, 0, 0, ("D", 2)),
    ],
)
def test_every_action_card_kind(card, actions, drawn, blocked, req):
    st = new(3, 1)
    rig(
        st,
        "admirals-flagship",
        [0],
        {0: [card, "D1"]},
        dice={0: [2, 2, 2, 2]},
        draws={0: ["M", "M", "M", "M"]},
        actions={0: 2},
    )
    before = dict(st.rem)
    act(st, ["play", card])
    p = px(st, 0)
    assert p.actions == 1 + actions
    assert len(st.hand[0]) == 1 + drawn
    assert p.blocked == blocked
    cat, amount = req
    if cat in before:
        assert st.rem[cat] == before[cat] - amount


def test_a_card_needs_an_action_and_miss_is_never_played():
    st = new(3, 1)
    rig(st, "kill-slavers", [0], {0: ["D1", "M", "T"]})
    assert st.legal_actions() == ["pass", ["play", "D1"], ["play", "T"]]
    act(st, ["play", "D1"])
    # No Action left: the only legal step is a pass, taken automatically, so the
    # solo contract ends with the Thruster still in hand.
    assert st.px is None and "T" in st.discard[0] and st.last["success"] is False


def test_shields_block_only_their_player_and_unblocked_icons_cost_prestige():
    st = new(3, 1)
    st.prestige = [5, 5, 5]
    rig(
        st,
        "cryogenic-pods",
        [0, 1],
        {0: ["R", "S", "S"], 1: []},
        deals={1: (0, 0, 0, 1)},
        dice={0: [2, 1], 1: [2]},
    )
    act(st, ["play", "R"])
    act(st, ["play", "S"])
    act(st, ["play", "S"])
    finish_execution(st)
    assert st.prestige[0] == 4  # 3 icons, 2 blocked
    assert st.prestige[1] == 3  # 2 icons, none blocked


def test_every_participant_discards_and_draws_a_new_hand_flash_draws_six():
    st = new(3, 1)
    rig(
        st,
        "stim-run",
        [0, 1],
        {0: ["R", "M"], 1: ["T"]},
        deals={1: (0, 0, 0, 0)},
        parts={1: ["flash"]},
    )
    act(st, ["play", "R"])
    finish_execution(st)
    assert len(st.hand[0]) == 5 and len(st.hand[1]) == 6
    assert "R" in st.discard[0] and "M" in st.discard[0]


def test_cards_can_still_be_played_after_the_requirements_are_met():
    st = new(3, 1)
    rig(st, "kill-slavers", [0], {0: ["R", "T", "D1", "S"]}, actions={0: 3})
    act(st, ["play", "R"])
    act(st, ["play", "T"])
    act(st, ["play", "D1"])
    assert st.rem == {"T": 0, "D": 0}
    assert ["play", "S"] in st.legal_actions()


def test_the_step_cap_e_moonrakers_2_leaves_only_pass():
    st = new(3, 1)
    rig(st, "kill-slavers", [0], {0: ["R"] * 40})
    for _ in range(30):
        act(st, ["play", "R"])
    assert st.legal_actions() == ["pass"] or pending(st) != "step"
