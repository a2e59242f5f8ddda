"""Every secret weapon: hidden, single use, and the windows in which it can be played."""

from __future__ import annotations

from engine.games.moon_bots.cards import KEY
from tests.engine.moon_bots.support import (
    at_assign,
    begin,
    decision,
    empty_market,
    energies,
    give,
    new,
    place,
)


def _weapons(state):
    return [a for a in state.legal_actions() if isinstance(a, list) and a[0] == "sw"]


def _attack_robot_1(state, hits_key="P15", dice=(6,)):
    """Robot 0 fires Blaster Arm (2 missiles, more with a bonus) entirely at robot 1."""
    give(state, 0, hits_key)
    at_assign(state, list(dice))
    state.apply(["use", "right_arm", 0])
    state.apply(state.legal_actions()[-1])  # every hit to the left neighbour, robot 1


def test_energy_stock_adds_four_beyond_the_turn_limit_up_to_18():
    state = new(4)
    give(state, 0, "energy_stock", "energy_stock")
    state.robots[0].energy = 10
    state.gained = 2
    state.apply(["sw", "energy_stock"])
    assert energies(state)[0] == 14
    state.apply(["sw", "energy_stock"])
    assert energies(state)[0] == 18
    assert state.observation(1)["used_secret_weapons"] == ["energy_stock", "energy_stock"]
    assert state.robots[0].secrets == []  # single use


def test_dodge_cancels_every_hit_of_the_attack():
    state = new(4)
    give(state, 1, "dodge")
    _attack_robot_1(state)
    assert decision(state) == {
        "kind": "defend",
        "robot": 1,
        "attacker": 0,
        "type": "missile",
        "hits": 2,
    }
    assert state.to_move() == 1
    assert state.legal_actions() == ["pass", ["sw", "dodge"]]
    state.apply(["sw", "dodge"])
    assert energies(state)[1] == 16


def test_passing_a_defence_window_takes_the_hits():
    state = new(4)
    give(state, 1, "dodge")
    _attack_robot_1(state)
    state.apply("pass")
    assert energies(state)[1] == 14
    assert state.robots[1].secrets  # kept for later


def test_shock_absorber_cancels_two_hits():
    state = new(4)
    give(state, 1, "shock_absorber", "fist_bonus")
    give(state, 0, "P16", "extra_die", "fist_bonus")  # Mega Fist: doubles -> 3 fists (+1 bonus)
    at_assign(state, [4, 4])
    state.apply(["use", "right_arm", 0, 1])
    state.apply(["split", 4, 0])
    state.apply(["sw", "shock_absorber"])
    assert energies(state)[:2] == [14, 14]  # 4 hits - 2; Mega Fist costs its owner 1


def test_deflection_sends_up_to_two_hits_to_another_robot_whose_protection_applies():
    state = new(4)
    give(state, 1, "deflection")
    give(state, 2, "missile_protection")
    give(state, 0, "missile_bonus")
    _attack_robot_1(state)  # 3 missiles
    assert ["sw", "deflection", 2] in state.legal_actions()
    assert ["sw", "deflection", 1] not in state.legal_actions()
    state.apply(["sw", "deflection", 2])
    # Robot 1 takes the third hit; robot 2's Missile Protection stops 1 of the 2 deflected.
    assert energies(state)[:3] == [15, 15, 16]


def test_stronger_adds_two_hits_that_protection_cannot_stop():
    state = new(4)
    give(state, 0, "stronger")
    give(state, 1, "missile_protection", "dodge")
    _attack_robot_1(state)  # 2 missiles, 1 stopped by protection
    state.apply(["sw", "dodge"])
    assert energies(state)[1] == 16
    assert _weapons(state) == [["sw", "stronger", 1]]
    state.apply(["sw", "stronger", 1])
    assert energies(state)[1] == 14  # no defence window: protection cannot work here
    assert state.active == 1


def test_stronger_is_only_for_the_attack_just_made():
    state = new(4)
    give(state, 0, "stronger", "P01", "extra_die")
    at_assign(state, [1, 2])
    assert _weapons(state) == []
    state.apply(["use", "board", 0])
    state.apply(["split", 1, 0])
    assert _weapons(state) == [["sw", "stronger", 1]]
    state.apply(["use", "head", 1])  # another activation: the moment has passed
    assert _weapons(state) == []


def test_energy_pump_gives_two_when_an_opponent_gains_energy():
    state = new(4)
    give(state, 2, "energy_pump")
    give(state, 0, "P05")  # Battery Pack: 1 or 2 -> +2 energy
    state.robots[0].energy = 10
    state.robots[2].energy = 17
    at_assign(state, [1])
    state.apply(["use", "torso", 0])
    assert decision(state) == {"kind": "energy_pump", "robot": 2, "gainer": 0}
    assert state.to_move() == 2
    state.apply(["sw", "energy_pump"])
    assert energies(state)[0] == 12
    assert energies(state)[2] == 18  # never above 18


def test_adjustment_moves_one_die_by_one_within_1_to_6():
    state = new(4)
    give(state, 0, "adjustment", "P15")
    at_assign(state, [6])
    assert _weapons(state) == [["sw", "adjustment", 0, -1]]
    at_assign(state, [5])
    assert _weapons(state) == [["sw", "adjustment", 0, -1], ["sw", "adjustment", 0, 1]]
    state.apply(["sw", "adjustment", 0, 1])
    assert state.legal_actions() == [["use", "right_arm", 0], "done"]


def test_rest_makes_the_active_player_skip_buying_and_activating():
    state = new(4)
    give(state, 2, "rest")
    place(state, 0, "P01")
    state.robots[2].energy = 10
    begin(state, 0)
    assert decision(state) == {"kind": "start_of_turn", "robot": 2, "active": 0}
    assert state.legal_actions() == ["pass", ["sw", "rest"]]
    state.apply(["sw", "rest"])
    assert state.active == 1
    assert state.robots[0].parts == [-1] * 6
    assert state.observation(0)["used_secret_weapons"] == ["rest"]


def test_black_market_takes_any_card_for_free_and_keeps_the_buy():
    state = new(4)
    empty_market(state)
    give(state, 0, "black_market")
    place(state, 5, "P04")  # cost 3
    place(state, 0, "P01")
    state.apply(["sw", "black_market"])
    assert state.legal_actions() == [["take", 0], ["take", 5]]
    state.apply(["take", 5])
    assert energies(state)[0] == 15
    assert ["buy", 0] not in state.legal_actions()  # same slot as P04: head is taken
    assert state.buys_left == 1


def test_supermarket_allows_a_second_paid_buy():
    state = new(4)
    empty_market(state)
    give(state, 0, "supermarket")
    place(state, 0, "P01")
    place(state, 2, "P05")
    state.apply(["buy", 0])
    assert state.legal_actions() == [["sw", "supermarket"], "roll"]
    state.apply(["sw", "supermarket"])
    state.apply(["buy", 2])
    assert energies(state)[0] == 14
    assert state.robots[0].parts[:2] != [-1, -1]


def test_computer_virus_costs_everyone_one_energy_per_weapon_held():
    state = new(4)
    give(state, 0, "computer_virus", "dodge")
    give(state, 1, "energy_stock", "adjustment")
    give(state, 3, "rest")
    state.apply(["sw", "computer_virus"])
    assert energies(state) == [14, 14, 17, 17]


def test_computer_virus_eliminations_are_simultaneous():
    state = new(4)
    give(state, 0, "computer_virus")
    give(state, 1, "dodge")
    give(state, 2, "rest")
    give(state, 3, "energy_stock")
    state.robots[1].energy = state.robots[2].energy = state.robots[3].energy = 1
    state.apply(["sw", "computer_virus"])
    assert state.is_terminal()
    assert state.result()["ranks"] == [1, 2, 2, 2]


def test_spare_part_search_installs_a_part_from_the_pile_and_shuffles():
    state = new(4)
    give(state, 0, "spare_part_search", "P01", "P05", "P09", "P13", "P17")  # only right leg free
    state.apply(["sw", "spare_part_search"])
    in_pile = sorted(KEY[c] for c in state.deck if KEY[c] in ("P21", "P22", "P23", "P24"))
    choices = state.legal_actions()
    assert in_pile
    assert choices == [["part", key] for key in in_pile]
    size = len(state.deck)
    state.apply(choices[0])
    assert len(state.deck) == size - 1
    assert state.robots[0].parts[5] >= 0


def test_weapons_are_hidden_from_other_players():
    state = new(4)
    give(state, 1, "dodge", "rest")
    seen_by_0 = state.observation(0)["robots"][1]
    seen_by_1 = state.observation(1)["robots"][1]
    assert seen_by_0["secret_weapon_count"] == 2
    assert seen_by_0["secret_weapons"] is None
    assert seen_by_1["secret_weapons"] == ["dodge", "rest"]


def test_a_window_opens_for_any_weapon_holder_so_it_reveals_nothing():
    state = new(4)
    give(state, 1, "adjustment")  # useless against an attack, still asked
    _attack_robot_1(state)
    assert state.to_move() == 1
    assert state.legal_actions() == ["pass"]


def test_energy_stock_in_a_defence_window_keeps_the_window_open():
    state = new(4)
    give(state, 1, "energy_stock", "dodge")
    state.robots[1].energy = 2
    _attack_robot_1(state)
    state.apply(["sw", "energy_stock"])
    assert energies(state)[1] == 6
    assert decision(state)["kind"] == "defend" and state.to_move() == 1
    assert state.legal_actions() == ["pass", ["sw", "dodge"]]
    state.apply("pass")
    assert energies(state)[1] == 4


def test_rest_is_not_offered_on_your_own_turn():
    state = new(4)
    give(state, 0, "rest")
    assert [a for a in state.legal_actions() if a != "roll" and a[0] == "sw"] == []


def test_two_players_deflection_goes_back_to_the_robot_opposite():
    state = new(2)
    give(state, 3, "deflection")
    give(state, 0, "P15")
    at_assign(state, [6], robot=0)
    state.apply(["use", "right_arm", 0])
    assert state.legal_actions() == ["pass", ["sw", "deflection", 0]]
    state.apply(["sw", "deflection", 0])
    assert energies(state) == [13, 15, 16, 16]


def test_two_players_the_virus_spares_deactivated_robots_and_pumps_ignore_own_robots():
    state = new(2)
    give(state, 1, "energy_pump")  # seat 0's other robot: never asked about seat 0's gains
    give(state, 0, "P05")
    state.robots[0].energy = 10
    at_assign(state, [1], robot=0)
    state.apply(["use", "torso", 0])
    assert state.active == 1 and state.decision is None
    state._damage([(3, 99)])  # robot 0 wins its duel and is deactivated
    give(state, 0, "dodge", "rest")
    give(state, 2, "computer_virus", "adjustment")
    at_assign(state, [3], robot=2)
    state.apply(["sw", "computer_virus"])
    assert energies(state) == [12, 14, 15, 0]  # robot 1 held 1 weapon, robot 2 one left


def test_spare_part_search_choices_are_described_in_the_observation():
    state = new(4)
    give(state, 0, "spare_part_search")
    state.apply(["sw", "spare_part_search"])
    seen = state.observation(0)
    assert seen["decision"]["kind"] == "spare_part_search"
    assert [c["key"] for c in seen["search_choices"]] == [a[1] for a in state.legal_actions()]
    assert state.observation(0)["search_choices"][0]["category"] == "part"


def test_a_virus_that_fells_its_own_player_and_the_last_opponent_leaves_the_opponent_the_winner():
    """Finding 18: the player's own robots lose first, so no shared win can be forced."""
    state = new(3)
    state._damage([(2, 99)])
    give(state, 0, "computer_virus", "dodge", "rest")
    give(state, 1, "energy_stock")
    state.robots[0].energy = 2
    state.robots[1].energy = 1
    state.apply(["sw", "computer_virus"])
    assert state.is_terminal()
    assert energies(state) == [0, 1, 0]  # the game ended before robot 1 lost anything
    assert state.result()["ranks"] == [2, 1, 3]


def test_a_virus_that_fells_its_own_player_still_hits_the_others_together():
    state = new(4)
    give(state, 0, "computer_virus", "dodge")
    for robot in (1, 2, 3):
        give(state, robot, ("rest", "energy_stock", "adjustment")[robot - 1])
        state.robots[robot].energy = 1
    state.robots[0].energy = 1
    state.apply(["sw", "computer_virus"])
    assert state.is_terminal()
    # Robot 0 fell first; robots 1-3 fell together: they share first place.
    assert state.result()["ranks"] == [4, 1, 1, 1]


def test_two_players_a_virus_in_the_final_duel_that_fells_both_robots_crowns_the_opponent():
    state = new(2)
    state._damage([(1, 99), (2, 99)])  # robots 0 and 3 won their duels: the final duel
    give(state, 3, "computer_virus", "dodge")
    give(state, 0, "rest")
    state.robots[3].energy = 1
    state.robots[0].energy = 1
    at_assign(state, [2], robot=3)
    state.apply(["sw", "computer_virus"])
    assert state.is_terminal()
    assert state.result()["ranks"] == [1, 2]
