"""1-2 players: the Mercenary deck (A-17). Hidden information: hands, draw piles, objectives."""

import random

from engine.games.moonrakers.cards import CREW
from tests.engine.moonrakers.helpers import act, finish_execution, new, pending, px, rig


def test_five_mercs_are_revealed_each_planning_phase():
    st = new(2, 3)
    assert len(st.merc_row) == 5
    first = list(st.merc_row)
    act(st, "base")
    while pending(st) != "plan":
        legal = st.legal_actions()
        st.apply("end" if "end" in legal else legal[0])
    assert len(st.merc_row) == 5
    assert sorted(first + st.merc_deck) != [] and len(st.merc_deck) + 5 == 15


def test_basic_mercs_fill_requirements_only_and_cost_cumulative_credits():
    st = new(2, 3)
    st.merc_row = ["R", "D1", "T", "S", "D2"]
    credits = st.credits[0]
    # Emergency Meds: R3 T4 D4; 3 Prestige, 8 Credits.
    rig(st, "emergency-meds", [0], {0: ["M", "zek-zarag"]})
    act(st, ["merc", 0])
    assert st.rem["R"] == 2 and px(st, 0).actions == 1  # no +2 Actions from a Merc Reactor
    act(st, ["merc", 2])
    act(st, ["merc", 1])
    assert st.rem == {"R": 2, "T": 3, "D": 3} and px(st, 0).merc_credits == 1 + 2 + 3
    # A fourth basic Merc would cost 4 more: more than the 8 Credits of the reward.
    assert not any(isinstance(a, list) and a[0] == "merc" for a in st.legal_actions())
    st.rem = {"R": 0, "T": 0, "D": 0}
    finish_execution(st)
    assert st.last["success"] and st.credits[0] == credits + 8 - 6


def test_merc_crew_cost_a_prestige_and_go_to_the_bottom_of_the_crew_deck():
    st = new(2, 3)
    st.merc_row = ["miska-rose", "R", "R", "R", "R"]
    merc_crew = len([c for c in st.merc_deck if c in CREW])
    prestige = st.prestige[0]
    rig(st, "escort-duty", [0], {0: ["T", "T", "T", "M"]}, actions={0: 3})  # T3 C1, 1 P
    act(st, ["merc", 0])
    assert st.rem["C"] == 0 and px(st, 0).actions == 4  # Miska Rose's +1 Action applies
    assert (
        st.crew_deck[0] == "miska-rose"
        and len([c for c in st.merc_deck if c in CREW]) == merc_crew + 1
    )
    for _ in range(3):
        act(st, ["play", "T"])
    finish_execution(st)
    assert st.last["success"] and st.prestige[0] == prestige + 1 - 1


def test_only_the_mission_leader_hires_mercs():
    st = new(2, 3)
    st.merc_row = ["R", "D1", "T", "S", "D2"]
    rig(
        st,
        "emergency-meds",
        [0, 1],
        {0: ["M", "zek-zarag"], 1: ["R", "zek-zarag"]},
        deals={1: (0, 0, 0, 0)},
    )
    assert st.to_move() == 0 and ["merc", 0] in st.legal_actions()
    act(st, "pass")
    assert st.to_move() == 1
    assert not any(isinstance(a, list) and a[0] == "merc" for a in st.legal_actions())


def test_another_players_hand_draw_pile_and_objectives_do_not_change_my_observation():
    st = new(3, 5)
    other = st.clone()
    # Swap seat 2's hand with its draw pile and give it other objectives.
    pool = other.hand[2] + other.draw[2]
    random.Random(1).shuffle(pool)
    other.hand[2] = pool[:5]
    other.draw[2] = pool[5:]
    other.objs[2], other.obj_deck[-2:] = other.obj_deck[-2:], other.objs[2]
    for seat in (0, 1):
        assert other.observation(seat) == st.observation(seat)
    assert other.observation(2) != st.observation(2)


def test_resampling_keeps_what_the_seat_knows():
    st = new(3, 6)
    st.known[1] = [st.hand[1][0]]
    for seed in range(5):
        copy = st.resample_hidden(0, random.Random(seed))
        assert copy.observation(0) == st.observation(0)
        assert copy.hand[0] == st.hand[0] and copy.objs[0] == st.objs[0]
        assert st.known[1][0] in copy.hand[1]
        assert sorted(copy.hand[1] + copy.draw[1]) == sorted(st.hand[1] + st.draw[1])
