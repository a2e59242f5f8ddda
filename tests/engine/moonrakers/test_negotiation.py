"""Planning with Allies (A-9) and Head to Head joining: single-seat decisions in turn."""

from engine.games.moonrakers.cards import CONTRACTS
from tests.engine.moonrakers.helpers import act, finish_execution, new, pending, rig


def _choose(st, cid):
    st.row[0] = cid
    act(st, ["contract", 0])


def test_invite_offer_accept_makes_an_ally_with_a_binding_deal():
    st = new(3, 1)
    ml = st.ml
    ally = (ml + 1) % 3
    _choose(st, "ancient-ruins")  # 2 Prestige, 7 Credits, 2 hazard dice
    assert pending(st) == "negotiate"
    assert st.legal_actions() == ["go", ["invite", ally], ["invite", (ml + 2) % 3]]
    act(st, ["invite", ally])
    assert pending(st) == "offer" and st.to_move() == ml
    assert st.legal_actions() == [["p", 0], ["p", 1], ["p", 2]]
    act(st, ["p", 1])
    act(st, ["c", 3])  # no bonus card on this contract: that field is skipped
    act(st, ["h", 1])
    assert pending(st) == "answer" and st.to_move() == ally
    assert st.observation(ml)["contract"]["offer"] == [1, 3, 0, 1]
    act(st, "accept")
    assert st.deals == {ally: (1, 3, 0, 1)}
    assert st.participants == [ml, ally]
    # The next invitation can only hand out what is left.
    act(st, ["invite", (ml + 2) % 3])
    assert st.legal_actions() == [["p", 0], ["p", 1]]


def test_declines_cost_a_proposal_and_four_proposals_is_the_limit():
    st = new(3, 1)
    ml = st.ml
    other = (ml + 1) % 3
    _choose(st, "ancient-ruins")
    for _ in range(4):
        act(st, ["invite", other])
        for _field in range(3):
            act(st, st.legal_actions()[0])
        act(st, "decline")
    assert ["invite", other] not in st.legal_actions()
    assert st.proposals[other] == 0


def test_rewards_are_split_per_deal_on_success_and_the_ml_keeps_the_rest():
    st = new(3, 2)
    ml = st.ml
    ally = (ml + 1) % 3
    rig(
        st,
        "abandoned-vessel",  # 1 P, 4 Cr, 1 bonus; R3 D3; 2 hazard dice
        [ml, ally],
        {ml: ["R", "R", "R"], ally: ["D3"]},
        deals={ally: (0, 1, 1, 2)},
        dice={ally: [0, 0]},
    )
    before = list(st.credits), list(st.prestige)
    act(st, ["play", "R"])
    act(st, ["play", "D3"])
    act(st, ["play", "R"])
    # The ally has no Action left: its steps pass by themselves.
    act(st, ["play", "R"])
    finish_execution(st)
    assert st.credits[ally] == before[0][ally] + 1
    assert st.credits[ml] == before[0][ml] + 3
    assert st.prestige[ml] == before[1][ml] + 1
    assert st.last["success"]


def test_failure_pays_nothing_but_hazards_still_hurt():
    st = new(3, 2)
    ml = st.ml
    st.prestige[ml] = 2
    rig(st, "claim-bounty", [ml], {ml: ["M"]}, dice={ml: [2]})
    credits = st.credits[ml]
    finish_execution(st)
    assert not st.last["success"]
    assert st.credits[ml] == credits and st.prestige[ml] == 0


def test_head_to_head_lets_everyone_join_without_invitations():
    st = new(4, 3)
    ml = st.ml
    _choose(st, "battle-simulation")
    asked = []
    while pending(st) == "join":
        asked.append(st.to_move())
        act(st, "join" if st.to_move() != (ml + 2) % 4 else "pass")
    assert asked == [(ml + 1) % 4, (ml + 2) % 4, (ml + 3) % 4]
    assert st.participants == [ml, (ml + 1) % 4, (ml + 3) % 4]
    assert st.deals == {} and st.allies_of(ml) == []
    assert CONTRACTS["battle-simulation"].hazard_dice == 0
