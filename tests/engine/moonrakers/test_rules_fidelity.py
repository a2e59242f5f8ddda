"""The rules-fidelity audit's Moonrakers findings (1-10): each situation built and checked.

Where the card text is clear the engine follows it; where it needed a reading the
README names the decision (E-moonrakers-39 … 45) and the test pins it.
"""

import json
import random

import pytest

import engine
from tests.engine.moonrakers.helpers import GAME, act, finish_execution, new, pending, px, rig

FLAGSHIP = "admirals-flagship"  # R5 S5 D8, 4 hazard dice, 5 Prestige
CLAIM_BOUNTY = "claim-bounty"  # R2 D3, 1 hazard die
KEEP_OPEN = "zek-zarag"  # a playable crew keeps the step open between plays


def solo(contract, hand, parts=None, io=None, dice=None, draws=None, actions=9, goal=None):
    st = new(3, 21)
    if goal is not None:
        st.objs[0] = [goal]
    rig(
        st,
        contract,
        [0],
        {0: [*hand, KEEP_OPEN]},
        parts={0: parts} if parts else None,
        io={0: io} if io else None,
        dice={0: dice or []},
        draws={0: draws or ["M"] * 9},
        actions={0: actions},
    )
    return st


def complete(st):
    """Fill what is left (a finished contract) and let everybody pass."""
    st.rem = {k: 0 for k in st.rem}
    finish_execution(st)


# ----- 1. Ace counts dice targeting you, not re-rolls ----------------------------------------


def test_ace_is_not_claimed_with_one_die_rerolled_by_redacted():
    st = solo(CLAIM_BOUNTY, ["redacted"], dice=[2, 1], goal="ace")
    act(st, ["play", "redacted"])
    act(st, ["reroll", 2])
    assert px(st, 0).dice == [1] and px(st, 0).rolled == 1
    complete(st)
    assert st.last["success"] and "ace" not in st.claimed[0]


def test_ace_is_not_claimed_with_one_die_rerolled_by_io_pivot():
    st = solo(CLAIM_BOUNTY, ["R"], parts=["io-pivot-h2"], io={"io-pivot-h2": 2}, dice=[2, 2, 0])
    st.objs[0] = ["ace"]
    act(st, ["ability", "io-pivot-h2", 2])
    act(st, ["ability", "io-pivot-h2", 2])
    assert px(st, 0).dice == [0] and px(st, 0).rolled == 1
    complete(st)
    assert "ace" not in st.claimed[0]


def test_ace_counts_an_extra_die_rolled_at_you():
    # Grinar Flok rolls one more hazard die at its player: two dice target them.
    st = solo(CLAIM_BOUNTY, ["grinar-flok"], dice=[0, 0], goal="ace")
    act(st, ["play", "grinar-flok"])
    assert px(st, 0).rolled == 2
    complete(st)
    assert "ace" in st.claimed[0]


# ----- 2. "Played" Damage excludes requirement reductions ------------------------------------


def test_mg_io_overkill_doubles_damage_played_not_requirement_reductions():
    # Gatling Laser (Damage requirement -1) and two Reactors with MG Phase Core (-1):
    # 1 Damage is played, so Overkill adds 1, not 3.
    parts = ["gatling-laser", "mg-phase-core", "mg-io-overkill"]
    st = solo(FLAGSHIP, ["R", "R", "D1"], parts=parts, io={"mg-io-overkill": 4})
    act(st, ["play", "R"])
    act(st, ["play", "R"])
    act(st, ["play", "D1"])
    assert st.rem["D"] == 8 - 1 - 1 - 1 and px(st, 0).dmg == 1
    act(st, ["ability", "mg-io-overkill", "spend"])
    assert st.rem["D"] == 4 and px(st, 0).dmg == 2


def test_barrage_is_not_claimed_with_four_damage_played_and_reductions():
    st = solo(FLAGSHIP, ["D3", "D1", "S"], parts=["gatling-laser", "dauntless"], goal="barrage")
    for card in ("D3", "D1", "S"):
        act(st, ["play", card])
    assert st.rem["D"] == 8 - 1 - 4 - 1 and px(st, 0).dmg == 4
    finish_execution(st)
    assert "barrage" not in st.claimed[0]


def test_damage_a_crew_or_ability_plays_counts_for_barrage():
    # Crusse Parke "counts as 4 Damage"; MG IO Core "spend 1 -> 1 Damage".
    st = solo(FLAGSHIP, ["crusse-parke"], parts=["mg-io-core"], io={"mg-io-core": 1})
    st.objs[0] = ["barrage"]
    act(st, ["play", "crusse-parke"])
    act(st, ["ability", "mg-io-core", "spend"])
    assert px(st, 0).dmg == 5
    finish_execution(st)
    assert "barrage" in st.claimed[0]


# ----- 3. IO Pivot has no per-contract limit -------------------------------------------------


def test_io_pivot_rerolls_as_often_as_iospheres_are_spent():
    st = solo(
        FLAGSHIP, ["R"], parts=["io-pivot-h2"], io={"io-pivot-h2": 3}, dice=[2, 2, 0, 0, 1, 0]
    )
    act(st, ["ability", "io-pivot-h2", 2])
    act(st, ["ability", "io-pivot-h2", 2])
    assert px(st, 0).dice == [1, 0, 0, 0] and st.io[0]["io-pivot-h2"] == 1
    act(st, ["ability", "io-pivot-h2", 1])
    assert px(st, 0).dice == [0, 0, 0, 0] and st.io[0]["io-pivot-h2"] == 0
    assert not any(a[1] == "io-pivot-h2" for a in st.legal_actions() if isinstance(a, list))


# ----- 4. Armitage as a Mercenary cannot be trashed ------------------------------------------


def test_armitage_hired_as_a_mercenary_is_a_shield_and_goes_back_to_the_crew_deck():
    st = new(2, 3)
    st.merc_row = ["armitage", "R", "R", "R", "R"]
    rig(st, FLAGSHIP, [0], {0: ["R", KEEP_OPEN]}, dice={0: [1, 0, 0, 0]}, actions={0: 3})
    act(st, ["merc", 0])
    # Only the Shield half: the trash half needs the card itself, which is not yours.
    assert pending(st) == "step"
    assert st.rem["S"] == 4 and px(st, 0).blocked == 1 and px(st, 0).actions == 4
    assert st.crew_deck[0] == "armitage"


def test_armitage_trashed_by_its_first_play_cannot_trash_itself_again():
    st = solo(FLAGSHIP, ["armitage"], parts=["clone-bay"])
    act(st, ["play", "armitage"])
    act(st, ["opt", "trash"])
    assert st.rem["S"] == 2
    # The card is gone, so The Clone Bay cannot replay it.
    assert ["ability", "clone-bay", "armitage"] not in st.legal_actions()


def test_armitage_played_twice_by_io_gen_trashes_itself_at_most_once():
    st = solo(FLAGSHIP, ["armitage"], parts=["io-gen-mk1"], io={"io-gen-mk1": 3})
    act(st, ["ability", "io-gen-mk1", "armitage"])
    act(st, ["opt", "trash"])
    # The second resolution has only the Shield half left, so it resolves at once.
    assert pending(st) == "step"
    assert st.rem["S"] == 5 - 3 - 1 and px(st, 0).blocked == 1


# ----- 5. Thrust Tuner: basic Thrusters only -------------------------------------------------


@pytest.mark.parametrize(("card", "asks"), [("T", True), ("T+", False), ("Tx", False)])
def test_thrust_tuner_triggers_only_on_a_basic_thruster(card, asks):
    st = solo(FLAGSHIP, [card], parts=["thrust-tuner-e2"], draws=["M", "S", "D1", "R"])
    act(st, ["play", card])
    assert (pending(st) == "tuner_pick") is asks


# ----- 6. Arsenal counts Damage card kinds, not the Damage 4 / 5 stand-ins -------------------


def test_arsenal_does_not_count_grinar_floks_damage_4():
    st = solo(FLAGSHIP, ["D1", "D2", "grinar-flok"], goal="arsenal")
    for card in ("D1", "D2", "grinar-flok"):
        act(st, ["play", card])
    assert px(st, 0).dkinds == {"D1", "D2"}
    finish_execution(st)
    assert "arsenal" not in st.claimed[0]


def test_arsenal_does_not_count_ryan_rogals_damage_5():
    st = solo(FLAGSHIP, ["D1", "D2", "ryan-rogal"], draws=["D1", "M"], goal="arsenal")
    for card in ("D1", "D2", "ryan-rogal"):
        act(st, ["play", card])
    assert st.rem["D"] == 8 - 1 - 2 - 5 and px(st, 0).dkinds == {"D1", "D2"}
    finish_execution(st)
    assert "arsenal" not in st.claimed[0]


def test_arsenal_counts_a_crew_played_as_a_real_damage_card():
    # Dana Powalki "counts as a Damage 3" (E-moonrakers-9).
    st = solo(FLAGSHIP, ["D1", "D2", "dana-powalki"], goal="arsenal")
    for card in ("D1", "D2", "dana-powalki"):
        act(st, ["play", card])
    finish_execution(st)
    assert "arsenal" in st.claimed[0]


# ----- 7. Parasite: a card played as another is played ----------------------------------------


@pytest.mark.parametrize(
    ("part", "hand", "ability"),
    [
        ("replicator-mk1", ["M", "M"], ["ability", "replicator-mk1", "M", "D1"]),
        ("defender-5000", ["M", "M"], ["ability", "defender-5000", "M", "M"]),
    ],
)
def test_parasite_is_not_claimed_after_a_card_played_through_a_part(part, hand, ability):
    st = solo(CLAIM_BOUNTY, hand, parts=[part], dice=[0], goal="parasite")
    act(st, ability)
    assert px(st, 0).cards == 1
    complete(st)
    assert "parasite" not in st.claimed[0]


def test_parasite_is_not_claimed_after_hiring_a_mercenary():
    st = new(2, 3)
    st.objs[0] = ["parasite"]
    st.merc_row = ["D1", "R", "R", "R", "R"]
    rig(st, CLAIM_BOUNTY, [0], {0: [KEEP_OPEN]}, dice={0: [0]}, actions={0: 1})
    act(st, ["merc", 0])
    complete(st)
    assert "parasite" not in st.claimed[0]


def test_parasite_is_claimed_when_no_card_is_played():
    st = solo(CLAIM_BOUNTY, [], dice=[0], goal="parasite")
    complete(st)
    assert "parasite" in st.claimed[0]


# ----- 8. The Clone Bay may replay an IO crew played this contract --------------------------


def test_clone_bay_plays_an_io_crew_played_this_contract_twice():
    st = solo("black-hole", ["io-mk8"], parts=["clone-bay"])  # C5
    act(st, ["play", "io-mk8"])
    assert st.rem["C"] == 4 and st.io[0]["io-mk8"] == 3
    act(st, ["ability", "clone-bay", "io-mk8"])
    assert st.rem["C"] == 3 and st.io[0]["io-mk8"] == 6


def test_clone_bay_does_not_replay_an_io_crew_left_from_an_earlier_contract():
    st = new(3, 21)
    st.inplay[0] = ["io-mk8"]
    st.io[0] = {"io-mk8": 2}
    rig(st, "black-hole", [0], {0: ["R", KEEP_OPEN]}, parts={0: ["clone-bay"]}, actions={0: 3})
    st.io[0]["io-mk8"] = 2
    assert not any(a[1] == "clone-bay" for a in st.legal_actions() if isinstance(a, list))


# ----- 9. Discard piles: a table sees their size and top card ---------------------------------


def test_another_players_discard_pile_shows_only_its_size_and_top_card():
    st = new(3, 5)
    st.discard[2] = ["D3", "S", "R"]
    other = st.clone()
    other.discard[2] = ["M", "T", "R"]
    for seat in (0, 1):
        seen = st.observation(seat)["players"][2]
        assert seen["discard_size"] == 3 and seen["discard_top"] == "R"
        assert "discard" not in seen
        assert other.observation(seat) == st.observation(seat)
    assert st.observation(2)["discard"] == ["D3", "S", "R"]
    assert other.observation(2) != st.observation(2)


def test_clean_up_puts_the_unplayed_hand_under_the_played_cards():
    st = solo(CLAIM_BOUNTY, ["D3", "R", "S"], dice=[0], draws=["M"] * 9)
    act(st, ["play", "D3"])
    finish_execution(st)
    assert st.discard[0][-1] == "D3"
    assert st.observation(1)["players"][0]["discard_top"] == "D3"


def test_resampling_redeals_the_hidden_part_of_other_discard_piles():
    st = new(3, 5)
    st.discard[1] = ["D3", "D3", "D3", "S", "R"]
    st.hand[1] = ["M", "M", "M", "M", "M"]
    seen = set()
    for seed in range(20):
        copy = st.resample_hidden(0, random.Random(seed))
        assert copy.observation(0) == st.observation(0)
        assert copy.discard[1][-1] == "R" and len(copy.discard[1]) == 5
        assert sorted(copy.hand[1] + copy.draw[1] + copy.discard[1]) == sorted(
            st.hand[1] + st.draw[1] + st.discard[1]
        )
        assert copy.discard[0] == st.discard[0]
        seen.add(tuple(copy.discard[1]))
    assert len(seen) > 1


# ----- 10. Overcharger into Flex; optional substitution; "must trash" with no hand -----------


def test_a_card_doubled_by_mg_overcharger_may_go_to_flex():
    st = solo("guerilla-ambush", ["D3"], parts=["mg-overcharger"], actions=3)  # D4 Flex 8
    assert ["play", "D3", "x2", "F"] in st.legal_actions()
    act(st, ["play", "D3", "x2", "F"])
    assert st.rem == {"D": 4, "F": 2} and px(st, 0).actions == 1


def test_a_sold_out_advanced_card_may_be_replaced_by_nothing():
    st = new(3, 1)
    st.adv["D+"] = 0
    rig(st, "kill-slavers", [0], {0: ["D3", "R"]}, parts={0: ["mg-upgrade-core"]}, actions={0: 2})
    act(st, ["ability", "mg-upgrade-core", "D3"])
    assert pending(st) == "substitute" and st.legal_actions()[0] == "none"
    act(st, "none")
    assert st.discard[0] == [] and pending(st) == "step"


@pytest.mark.parametrize("card", ["kin-tobor", "meg-gallak", "lila-al-bindar"])
def test_a_must_trash_crew_with_no_hand_card_to_trash_does_nothing_else(card):
    st = new(3, 21)
    # MG IO Core's spend keeps the step open once the hand is empty.
    parts = {0: ["mg-io-core"]}
    io = {0: {"mg-io-core": 1}}
    rig(st, FLAGSHIP, [0], {0: [card]}, parts=parts, io=io, actions={0: 1}, draws={0: ["M"] * 9})
    credits, rem = st.credits[0], dict(st.rem)
    act(st, ["play", card])
    assert st.credits[0] == credits and st.discard[0] == []
    assert {k: v for k, v in st.rem.items() if k != "C"} == {k: rem[k] for k in rem if k != "C"}
    assert px(st, 0).actions == 0 and pending(st) == "step"


def test_a_must_trash_crew_pays_once_a_hand_card_is_trashed():
    st = new(3, 21)
    rig(st, FLAGSHIP, [0], {0: ["lila-al-bindar", "M", "D1"]}, actions={0: 1})
    act(st, ["play", "lila-al-bindar"])
    act(st, ["trash", "M"])
    assert st.discard[0] == ["R"] and px(st, 0).actions == 1


# ----- rules version ------------------------------------------------------------------------------


def test_the_rules_version_is_bumped_for_the_audit_fixes():
    assert GAME.rules_version == "moonrakers@2"


def test_a_record_of_the_previous_rules_version_is_refused_naming_both_versions():
    state = GAME.new_state(2, 4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.record()))
    assert engine.replay(record).result() == state.result()
    record["rules_version"] = "moonrakers@1"
    with pytest.raises(engine.ReplayMismatch) as refused:
        engine.replay(record)
    assert "moonrakers@1" in str(refused.value) and "moonrakers@2" in str(refused.value)
