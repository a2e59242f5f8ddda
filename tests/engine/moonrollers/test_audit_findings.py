"""Issue 18, findings 11-15: edge cases where the engine read against the card or rule text.

The display is `helpers.ABILITY_DISPLAY` unless said otherwise.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from tests.engine.moonrollers.helpers import GAME, ended, marks, play, pool, start, table

# ----- 11: Vila Noir re-rolls exactly 2 dice, and the "any amount" ordering rule does not cover it


def test_vila_noir_may_reroll_after_a_lock_on_the_same_roll():
    st = start("damage", "damage", "shield", "thruster", "extra", crew=["vila_noir"])
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 2])
    assert ["use", "vila_noir"] in st.legal_actions()
    st.force_dice("damage", "reactor")
    play(st, ["use", "vila_noir"], ["pick", "shield"], ["pick", "thruster"], "reroll")
    assert pool(st) == {
        "damage": 1,
        "shield": 0,
        "thruster": 0,
        "reactor": 1,
        "wild": 0,
        "extra": 1,
    }
    turn = st.observation(0)["turn"]
    assert turn["rolled"]["damage"] == 3 and turn["rolled"]["reactor"] == 1
    play(st, ["lock", "damage", 1])
    assert st.need == 1


def test_vila_noir_may_follow_another_ability_on_the_same_roll():
    # (Salatar and Lila Al Bindar, the "any amount" re-rolls, share Vila Noir's faction, so
    # only one of the three is ever on top of a player's stack.)
    st = start("damage", "damage", "shield", "thruster", "extra", crew=["vila_noir", "ryan_rogal"])
    play(st, ["crew", "saghari"], ["commit", 0])
    st.force_dice("shield", "thruster")
    play(st, ["use", "ryan_rogal"])  # no Wild came: the pool is unchanged
    assert ["use", "vila_noir"] in st.legal_actions()
    st.force_dice("damage", "damage")
    play(st, ["use", "vila_noir"], ["pick", "shield"], ["pick", "thruster"], "reroll")
    assert pool(st)["damage"] == 4


def test_vila_noir_rerolls_exactly_two_dice_never_zero_or_one():
    st = start("damage", "damage", "shield", "thruster", "extra", crew=["vila_noir"])
    play(st, ["use", "vila_noir"])
    assert "reroll" not in st.legal_actions()
    play(st, ["pick", "shield"])
    assert "reroll" not in st.legal_actions()
    assert st.observation(0)["turn"]["select_exactly"] is True
    play(st, ["pick", "extra"])
    assert st.legal_actions() == ["reroll"]


def test_vila_noir_is_not_offered_with_a_single_die_in_the_rolling_pool():
    st = start("damage", "damage", "damage", "damage", "shield", crew=["vila_noir"])
    play(st, ["crew", "saghari"], ["commit", 0], ["lock", "damage", 4])
    st.force_dice("shield")
    play(st, "roll", ["commit", 1])  # one die, no Reactor: nothing to re-roll two of
    assert st.cur == 1  # no lock, no ability: a bust


# ----- 12: Meg Gallak's saved Wild alone is no roll (A-4) -------------------------------


def test_a_saved_wild_with_every_other_die_locked_makes_no_roll_and_the_turn_stops():
    st = start("wild", "shield", "shield", "shield", "shield", crew=["meg_gallak"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 4])
    assert "roll" in st.legal_actions()  # the Wild is still in the pool
    play(st, ["use", "meg_gallak"])
    # Nothing is left to roll: the turn stops, keeping the completed Shield 4.
    assert st.cur == 1
    assert marks(st, "namari") == [0, None, None, None]


def test_a_saved_wild_comes_back_when_other_dice_are_rolled():
    st = start("wild", "shield", "shield", "shield", "damage", crew=["meg_gallak"])
    play(st, ["crew", "namari"], ["commit", 0], ["lock", "shield", 3], ["use", "meg_gallak"])
    assert "roll" in st.legal_actions()
    st.force_dice("reactor")
    play(st, "roll", ["lock", "wild", 1])
    assert marks(st, "namari")[0] == 0


# ----- 13: A-3 is a real option ------------------------------------------------------------


def test_by_default_an_ability_made_wild_fills_a_wild_requirement():
    st = start("shield", "damage", "damage", "thruster", "reactor", crew=["bill_bendo"])
    assert st.options["ability_wild_fills_wild_requirement"] is True
    play(st, ["crew", "aponi"], ["commit", 3])
    assert st.legal_actions() == [["lock", "shield", 1, "bill_bendo"]]


def test_with_a3_off_an_ability_made_wild_fills_only_ordinary_requirements():
    off = {"ability_wild_fills_wild_requirement": False}
    st = start(
        "shield", "damage", "damage", "thruster", "reactor", crew=["bill_bendo"], options=off
    )
    play(st, ["crew", "aponi"], ["commit", 3])  # Wild 2 x2: the lone Shield cannot go in
    assert st.cur == 1  # a bust
    # The same Shield still counts as a Wild for a Reactor requirement.
    st2 = start("shield", "damage", "damage", "thruster", "extra", crew=["bill_bendo"], options=off)
    play(st2, ["crew", "vila_noir"], ["commit", 0])
    assert st2.legal_actions() == [["lock", "shield", 1, "bill_bendo"]]
    st3 = start("damage", "shield", "thruster", "thruster", "reactor", crew=["vanta_sae"],
                options=off)  # fmt: skip
    play(st3, ["crew", "aponi"], ["commit", 3])
    assert st3.cur == 1  # Vanta Sae's Wild does not fill the Wild requirement either


def test_the_a3_option_takes_only_true_or_false():
    with pytest.raises(engine.InvalidSetup):
        GAME.new_state(2, 0, {"ability_wild_fills_wild_requirement": 1})
    assert GAME.describe()["options"]["ability_wild_fills_wild_requirement"] is True


# ----- 14: E-6 (a tie at 0 symbols) and E-10 (supply dice before committing) -------------


def test_with_three_players_all_tied_at_zero_hazard_symbols_nobody_scores_tokens():
    # "In the case of a tie for the most Hazard symbols, all tied players do not score."
    result = ended(3, [0, 0, 0], [[1, 1], [1], []])
    assert result["hazard_disqualified"] == [True, True, True]
    assert result["scores"] == [0, 0, 0]
    assert ended(3, [0, 0, 0], [[1, 1], [2], []])["scores"] == [2, 0, 0]


def test_two_players_at_zero_hazard_symbols_both_score_their_tokens():
    result = ended(2, [0, 0], [[1, 1], [1]])
    assert result["hazard_disqualified"] == [False, False] and result["scores"] == [2, 1]


def test_ryan_rogal_dice_are_available_before_choosing_the_crew():
    st = start("damage", "damage", "shield", "thruster", "reactor", crew=["ryan_rogal"])
    assert st.phase == 1 and ["use", "ryan_rogal"] in st.legal_actions()
    st.force_dice("wild", "wild")
    play(st, ["use", "ryan_rogal"])
    assert pool(st)["wild"] == 2
    play(st, ["crew", "aponi"], ["commit", 3], ["lock", "wild", 2])
    assert marks(st, "aponi")[3] == 0


def test_saghari_die_is_available_before_committing_to_a_requirement():
    st = start("shield", "shield", "thruster", "reactor", "reactor", crew=["saghari"])
    play(st, ["crew", "aponi"])
    assert ["use", "saghari"] in st.legal_actions()
    st.force_dice("wild")
    play(st, ["use", "saghari"], ["commit", 3], ["lock", "wild", 1])
    assert st.need == 1


# ----- 15: the final observation reveals every seat's hazard tokens ----------------------


def finished_game():
    st = table(
        "thruster", "damage", "damage", "reactor", "reactor",
        display=["ryle_al_wren", "namari", "saghari", "vila_noir"],
        marks={"ryle_al_wren": {0: 1, 1: 1}},
        crew={0: ["ada_massa", "dana_powalki", "sella_pelleon", "nella_van_daval"]},
        hazards={0: [5, 1], 1: [2, 2, 5]},
    )  # fmt: skip
    assert "hazard_kinds" not in st.observation(1)["players"][0]
    play(st, ["crew", "ryle_al_wren"], ["commit", 2], ["lock", "thruster", 1])
    assert st.is_terminal()
    return st


def test_at_game_end_every_seat_sees_every_seats_hazard_tokens():
    st = finished_game()
    for seat in (0, 1):
        players = st.observation(seat)["players"]
        assert players[0]["hazard_kinds"] == [1, 5]
        assert players[1]["hazard_kinds"] == [2, 2, 5]


def test_resampling_a_finished_game_keeps_the_revealed_tokens():
    st = finished_game()
    for seat in (0, 1):
        other = st.resample_hidden(seat, random.Random(seat))
        assert other.hz == st.hz and other.pile == st.pile
        assert other.observation(seat) == st.observation(seat)


# ----- the rules version ---------------------------------------------------------------


def test_a_record_of_the_previous_rules_version_is_refused_by_name():
    st = GAME.new_state(2, 3)
    rng = random.Random(3)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    record = json.loads(json.dumps(st.record()))
    assert record["rules_version"] == "moonrollers@2"
    engine.replay(record)
    record["rules_version"] = "moonrollers@1"
    with pytest.raises(engine.ReplayMismatch, match="moonrollers@1.*moonrollers@2"):
        engine.replay(record)
