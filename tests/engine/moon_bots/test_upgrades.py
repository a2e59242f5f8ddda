"""Upgrades: extra dice, re-roll, attack bonuses, protections, and ownership limits."""

from __future__ import annotations

from tests.engine.moon_bots.support import (
    at_assign,
    empty_market,
    energies,
    give,
    new,
    place,
    start_turn,
)


def _buys(state):
    return [a[1] for a in state.legal_actions() if isinstance(a, list) and a[0] == "buy"]


def test_extra_die_adds_a_die_up_to_three_copies():
    state = new(4)
    empty_market(state)
    state.robots[0].energy = 18
    give(state, 0, "extra_die", "extra_die")
    place(state, 0, "extra_die")
    assert 0 in _buys(state)
    state.apply(["buy", 0])
    assert state.robots[0].dice_count == 4
    start_turn(state, 0)
    place(state, 1, "extra_die")
    assert 1 not in _buys(state)


def test_upgrades_are_capped_at_six_and_never_duplicated_except_extra_dice():
    state = new(4)
    empty_market(state)
    give(state, 0, "fist_bonus")
    place(state, 0, "fist_bonus")
    place(state, 1, "missile_bonus")
    assert _buys(state) == [1]
    give(state, 0, "missile_bonus", "fist_protection", "missile_protection", "reroll", "extra_die")
    assert len(state.robots[0].upgrades) == 6
    place(state, 1, "extra_die")
    assert _buys(state) == []


def test_a_part_never_replaces_the_part_in_its_slot():
    state = new(4)
    empty_market(state)
    give(state, 0, "P01")
    place(state, 0, "P02")  # another head
    place(state, 1, "P05")  # a torso
    assert _buys(state) == [1]


def test_reroll_rerolls_up_to_two_dice_once_per_turn():
    state = new(4)
    give(state, 0, "reroll", "extra_die", "extra_die", "dodge")  # the weapon keeps the turn open
    at_assign(state, [2, 2, 5])
    rerolls = [a for a in state.legal_actions() if a[0] == "reroll"]
    assert sorted(rerolls) == [["reroll", 0], ["reroll", 0, 1], ["reroll", 0, 2], ["reroll", 2]]
    state.apply(["reroll", 0, 2])
    assert state.dice[1] == 2
    assert state.rerolled
    assert not [a for a in state.legal_actions() if a[0] == "reroll"]


def test_reroll_is_not_offered_without_the_upgrade():
    state = new(4)
    at_assign(state, [3])
    assert state.legal_actions() == ["done"]


def test_fist_attack_bonus_adds_a_hit_to_each_fist_attack():
    state = new(4)
    give(state, 0, "fist_bonus")
    at_assign(state, [1])
    state.apply(["use", "board", 0])
    assert state.legal_actions() == [["split", 0, 2], ["split", 1, 1], ["split", 2, 0]]
    state.apply(["split", 2, 0])
    assert energies(state)[1] == 14


def test_missile_attack_bonus_adds_a_hit_to_each_missile_attack():
    state = new(4)
    give(state, 1, "missile_bonus", "fist_bonus")
    at_assign(state, [6], robot=1)
    state.apply(["use", "board", 0])
    state.apply(["split", 0, 2])
    assert energies(state)[0] == 13


def test_fist_protection_stops_one_hit_of_each_fist_attack_only():
    state = new(4)
    give(state, 1, "fist_protection")
    give(state, 0, "P10", "P24", "extra_die")  # Drill Arm 2 fists, Missile Pod Leg 2 missiles
    at_assign(state, [5, 3])
    state.apply(["use", "left_arm", 0])
    state.apply(["split", 2, 0])
    assert energies(state)[1] == 15
    state.apply(["use", "right_leg", 1])
    state.apply(["split", 2, 0])
    assert energies(state)[1] == 13


def test_missile_protection_stops_one_hit_of_each_missile_attack():
    state = new(4)
    give(state, 1, "missile_protection")
    give(state, 0, "P15")  # Blaster Arm: 6 -> 2 missiles
    at_assign(state, [6])
    state.apply(["use", "right_arm", 0])
    state.apply(["split", 2, 0])
    assert energies(state)[1] == 15


def test_protection_applies_to_each_target_of_a_split_attack():
    state = new(4)
    give(state, 1, "missile_protection")
    give(state, 3, "missile_protection")
    give(state, 0, "P15")
    at_assign(state, [6])
    state.apply(["use", "right_arm", 0])
    state.apply(["split", 1, 1])
    assert energies(state) == [15, 16, 17, 18]
