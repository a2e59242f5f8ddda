"""Hiring (faction stacks, top-of-stack abilities, the free hazard return), game end, scoring."""

from __future__ import annotations

from tests.engine.moonrollers.helpers import ended, play, table

D = ["ryle_al_wren", "namari", "saghari", "vila_noir"]


def hire_ryle(**kw):
    """Seat 0 completes Ryle Al Wren's last requirement (Thruster 1) on its first roll."""
    kw.setdefault("display", D)
    kw.setdefault("marks", {"ryle_al_wren": {0: 1, 1: 1}})
    return table("thruster", "damage", "damage", "reactor", "reactor", **kw)


def finish(state):
    play(state, ["crew", "ryle_al_wren"], ["commit", 2], ["lock", "thruster", 1])
    return state


def test_first_crew_of_a_faction_starts_a_new_stack_with_no_question():
    st = finish(hire_ryle(crew={0: ["ada_massa"]}))
    assert st.observation(0)["players"][0]["crew"] == {
        "TECH": ["ada_massa"],
        "PALADIN": ["ryle_al_wren"],
    }
    assert st.abil[0] == {"ada_massa", "ryle_al_wren"}
    assert st.cur == 1


def test_a_duplicate_faction_goes_on_top_or_under_and_only_the_top_ability_counts():
    st = finish(
        hire_ryle(crew={0: ["namari"]}, display=["ryle_al_wren", "aponi", "saghari", "vila_noir"])
    )
    assert st.legal_actions() == [["place", "top"], ["place", "bottom"]]
    play(st, ["place", "bottom"])
    assert st.observation(0)["players"][0]["crew"] == {"PALADIN": ["namari", "ryle_al_wren"]}
    assert st.abil[0] == {"namari"}
    st2 = finish(
        hire_ryle(crew={0: ["namari"]}, display=["ryle_al_wren", "aponi", "saghari", "vila_noir"])
    )
    play(st2, ["place", "top"])
    assert st2.abil[0] == {"ryle_al_wren"}


def test_a_duplicate_faction_may_return_one_hazard_token_free():
    st = finish(
        hire_ryle(
            crew={0: ["namari"]},
            hazards={0: [5, 1]},
            display=["ryle_al_wren", "aponi", "saghari", "vila_noir"],
        )
    )
    play(st, ["place", "top"])
    assert st.legal_actions() == [["return", 1], ["return", 5], "no_return"]
    play(st, ["return", 5])
    assert st.observation(0)["my_hazard_tokens"] == [1]
    assert sum(st.pile) == 44
    # Declining is always possible.
    st2 = finish(
        hire_ryle(
            crew={0: ["namari"]},
            hazards={0: [5]},
            display=["ryle_al_wren", "aponi", "saghari", "vila_noir"],
        )
    )
    play(st2, ["place", "top"], "no_return")
    assert st2.observation(0)["my_hazard_tokens"] == [5] and st2.cur == 1


def test_no_return_is_offered_without_hazard_tokens_or_for_a_new_faction():
    st = finish(hire_ryle(crew={0: ["ada_massa"]}, hazards={0: [2]}))
    assert st.cur == 1 and st.hz[0] == [0, 1, 0]


def test_one_crew_of_each_faction_ends_the_game_at_once():
    st = finish(
        hire_ryle(crew={0: ["ada_massa", "dana_powalki", "sella_pelleon", "nella_van_daval"]})
    )
    assert st.is_terminal()
    assert st.result()["end_reason"] == "one_of_each_faction"
    assert st.to_move() is None and st.legal_actions() == []


def test_three_crew_of_one_faction_ends_the_game_at_once():
    st = finish(
        hire_ryle(
            crew={0: ["namari", "at_0k"]},
            hazards={0: [2]},
            display=["ryle_al_wren", "aponi", "saghari", "vila_noir"],
        )
    )
    # The top/bottom order no longer matters, but the free return is still offered.
    assert st.legal_actions() == [["return", 2], "no_return"]
    play(st, "no_return")
    assert st.is_terminal() and st.result()["end_reason"] == "three_of_one_faction"


def test_drawing_the_last_crew_card_ends_the_game():
    st = finish(hire_ryle(crew={0: ["ada_massa"]}, deck=["aponi"]))
    assert st.is_terminal() and st.result()["end_reason"] == "crew_deck_exhausted"
    assert "aponi" in [c["crew"] for c in st.observation(0)["display"]]


# ----- final scoring ------------------------------------------------------------------


def test_the_most_hazard_symbols_score_no_token_prestige():
    result = ended(3, [10, 10, 10], [[5, 5], [2, 1], [1, 1, 1]])  # symbols 4, 1, 0
    assert result["hazard_disqualified"] == [True, False, False]
    assert result["scores"] == [10, 13, 13]


def test_a_tie_for_the_most_hazard_symbols_disqualifies_all_tied_players():
    result = ended(3, [10, 10, 10], [[5], [2, 2], [1]])  # symbols 2, 2, 0
    assert result["hazard_disqualified"] == [True, True, False]
    assert result["scores"] == [10, 10, 11]


def test_two_players_need_three_more_symbols_to_be_disqualified():
    close = ended(2, [10, 10], [[5, 2], [1]])  # symbols 3 vs 0
    assert close["hazard_disqualified"] == [True, False]
    two_more = ended(2, [10, 10], [[5], [1]])  # symbols 2 vs 0
    assert two_more["hazard_disqualified"] == [False, False]
    assert two_more["scores"] == [15, 11]


def test_ties_go_to_fewest_hazard_symbols_then_share_the_rank():
    # Seat 2 has the most symbols: 10, 10, 7; seats 0 and 1 tie with 0 symbols each.
    result = ended(3, [10, 9, 7], [[], [1], [2, 2]])
    assert result["scores"] == [10, 10, 7]
    assert result["ranks"] == [1, 1, 3]
    result = ended(3, [10, 8, 0], [[], [2, 2], [5, 5]])  # 10, 12, 0 (seat 2 disqualified)
    assert result["ranks"] == [2, 1, 3]
    result = ended(4, [12, 10, 0, 0], [[], [2, 2], [5, 5], []])  # 12, 14, 0, 0
    assert result["ranks"] == [2, 1, 4, 3]  # 0 vs 0 prestige: 0 symbols beat 4
    result = ended(4, [12, 10, 0, 0], [[], [2, 2], [5, 5], [5, 5]])  # 0 and 0, 4 and 4
    assert result["ranks"] == [2, 1, 3, 3]
    result = ended(4, [12, 10, 0, 0], [[2], [2, 1], [5, 5], []])  # 14 (1 sym) vs 13
    assert result["ranks"] == [1, 2, 4, 3]
    result = ended(3, [11, 12, 0], [[2], [1], [5, 5]])  # 13 (1 symbol) vs 13 (0 symbols)
    assert result["scores"][:2] == [13, 13]
    assert result["ranks"] == [2, 1, 3]
