"""Turn structure: Planning (Stay at Base, replacing contracts), Buying, end of turn, winning."""

from engine.games.moonrakers.cards import CONTRACTS
from tests.engine.moonrakers.helpers import act, new, pending


def test_a_turn_is_planning_then_buying_then_the_next_mission_leader():
    st = new(3, 1)
    ml = st.ml
    assert pending(st) == "plan" and st.to_move() == ml
    legal = st.legal_actions()
    assert "base" in legal
    assert ["contract", 0] in legal and ["replace", 0] in legal
    objectives_before = len(st.objs[ml])
    credits = st.credits[ml]
    act(st, "base")
    assert pending(st) == "keep_objective"
    choices = list(st.obj_pick[ml])
    assert len(choices) == 2
    act(st, ["keep", choices[0]])
    assert st.objs[ml][-1] == choices[0] and st.obj_deck[0] == choices[1]
    assert len(st.objs[ml]) == objectives_before + 1
    assert st.credits[ml] == credits + 1
    assert pending(st) == "free_replace"
    act(st, "no_replace")
    assert len(st.hand[ml]) == 5
    assert pending(st) == "free_discard"  # Overload buying starts with the free discard
    act(st, "keep")
    act(st, "end")
    assert st.ml == (ml + 1) % 3 and pending(st) == "plan"
    assert st.turns == 1


def test_stay_at_base_discards_the_hand_and_draws_five():
    st = new(3, 2)
    ml = st.ml
    old_hand = list(st.hand[ml])
    act(st, "base")
    act(st, st.legal_actions()[0])
    act(st, "no_replace")
    assert sorted(st.discard[ml]) == sorted(old_hand)
    assert len(st.hand[ml]) == 5


def test_paying_one_credit_replaces_a_contract_once_per_turn():
    st = new(3, 3)
    ml = st.ml
    old = st.row[2]
    act(st, ["replace", 2])
    assert st.credits[ml] == 1
    assert st.row[2] != old and st.cdeck[0] == old and st.cmask[0] == -1
    assert not any(a[0] == "replace" for a in st.legal_actions() if isinstance(a, list))


def test_free_replace_when_staying_at_base():
    st = new(3, 3)
    act(st, "base")
    act(st, st.legal_actions()[0])
    old = st.row[5]
    act(st, ["replace", 5])
    assert st.row[5] != old and st.cdeck[0] == old


def test_ten_prestige_at_the_end_of_a_turn_wins():
    st = new(3, 4)
    other = (st.ml + 1) % 3
    st.prestige[other] = 10
    act(st, "base")
    act(st, st.legal_actions()[0])
    act(st, "no_replace")
    act(st, "keep")
    act(st, "end")
    assert st.is_terminal()
    result = st.result()
    assert result["winner"] == other and result["ranks"][other] == 1


def test_a_tie_at_ten_goes_to_the_mission_leader_a13():
    st = new(3, 4)
    ml = st.ml
    other = (ml + 1) % 3
    st.prestige[other] = 11
    st.prestige[ml] = 11
    act(st, "base")
    act(st, st.legal_actions()[0])
    act(st, "no_replace")
    act(st, "keep")
    act(st, "end")
    assert st.result()["winner"] == ml
    assert st.result()["ranks"][ml] == 1 and st.result()["ranks"][other] == 2


def test_the_round_cap_ends_the_game_and_prestige_decides():
    st = new(2, 5, max_rounds=1)
    st.prestige = [3, 3]
    for _ in range(2):
        act(st, "base")
        act(st, st.legal_actions()[0])
        act(st, "no_replace")
        act(st, "keep")
        act(st, "end")
    assert st.is_terminal()
    assert st.result()["reason"] == "turn_limit"
    assert st.result()["ranks"] == [1, 1]


def test_solo_ends_after_ten_turns():
    st = new(1, 5)
    turns = 0
    while not st.is_terminal():
        act(st, "base")
        while pending(st) != "plan" and not st.is_terminal():
            legal = st.legal_actions()
            st.apply("end" if "end" in legal else legal[0])
        turns += 1
    assert turns == 10 and st.result()["ranks"] == [1]


def test_contract_is_discarded_and_replaced_after_the_attempt():
    st = new(3, 6)
    cid = st.row[0]
    act(st, ["contract", 0])
    act(st, "go")
    while st.contract is not None:
        legal = st.legal_actions()
        st.apply("pass" if "pass" in legal else legal[0])
    assert cid in st.cdiscard and st.row[0] is not None and st.row[0] != cid
    assert CONTRACTS[cid]
