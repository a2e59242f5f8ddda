"""Ending the mission: failure without oxygen, success by the supplies table (A-31)."""

from __future__ import annotations

import random

import pytest

from tests.engine.moon_adventure.helpers import GAME, fill, new, place, set_turn

ROLES5 = ["carrier", "rookie", "veteran", "athlete", "mood_maker"]


def good_chips(state, count):
    return [("chip", c) for c in range(21) if not state.broken[c]][:count]


def bring_everyone_home(state, chips):
    """Everyone but seat 0 is back; the chips are spread over all containers; seat 0 steps home."""
    n = state.num_players
    for seat in range(n):
        fill(state, seat, 2)
    for i, chip in enumerate(chips):
        state.slots[i % n][1 + i // n] = 10 + chip[1]
    for seat in range(1, n):
        state.pos[seat] = 0
        state.returned[seat] = True
    place(state, s0=1)
    set_turn(state, 0, 1)
    state.apply("move-")


def test_a_player_starting_a_turn_without_oxygen_fails_the_mission():
    state = new(["carrier", "rookie", "veteran"])
    place(state, s0=4, s1=6, s2=0)
    fill(state, 1, ("chip", 3))
    set_turn(state, 0, 1)
    state.apply("end")
    assert state.is_terminal() and state.to_move() is None
    result = state.result()
    assert result["outcome"] == "failure" and result["ranks"] == [1, 1, 1]


def test_a_teammate_can_hand_over_oxygen_before_that_turn_starts():
    state = new(["carrier", "rookie", "veteran"])
    place(state, s0=4, s1=5, s2=0)
    fill(state, 0, 2, 2)
    fill(state, 1)
    set_turn(state, 0, 2)
    state.apply("share:1")
    state.apply("give:0")
    state.apply("done")
    state.apply("end")
    assert not state.is_terminal() and state.cur == 1


@pytest.mark.parametrize(("players", "needed"), [(2, 5), (3, 7), (4, 8), (5, 9)])
def test_success_needs_the_table_s_number_of_undamaged_supplies(players, needed):
    state = new(ROLES5[:players])
    assert state.target == needed
    bring_everyone_home(state, good_chips(state, needed - 1))
    assert state.result()["outcome"] == "failure"  # everyone home, one supply short
    assert state.result()["team_score"] == needed - 1

    state = new(ROLES5[:players])
    bring_everyone_home(state, good_chips(state, needed))
    result = state.result()
    assert result["outcome"] == "success" and result["team_score"] == needed
    assert result["scores"] == [needed] * players and result["ranks"] == [1] * players


def test_broken_supplies_do_not_count():
    state = new(["carrier", "rookie"])
    broken = [("chip", c) for c in range(21) if state.broken[c]][:4]
    bring_everyone_home(state, good_chips(state, 4) + broken)
    assert state.result()["team_score"] == 4 and state.result()["outcome"] == "failure"


def test_the_beginners_option_lowers_the_target_by_two():
    state = new(["carrier", "rookie", "veteran"], beginner=True)
    assert state.target == 5
    bring_everyone_home(state, good_chips(state, 5))
    assert state.result()["outcome"] == "success"


def test_the_game_ends_only_when_everyone_is_back():
    state = new(["carrier", "rookie", "veteran"])
    place(state, s0=1, s1=3, s2=0)
    state.returned[2] = True
    fill(state, 1, 2)
    set_turn(state, 0, 1)
    state.apply("move-")
    assert not state.is_terminal() and state.cur == 1


def test_the_team_score_on_failure_counts_only_supplies_already_on_the_base():
    state = new(["carrier", "rookie", "veteran"])
    chips = good_chips(state, 3)
    place(state, s0=0, s1=4, s2=6)
    state.returned[0] = True
    fill(state, 0, chips[0], chips[1])
    fill(state, 1, 2, chips[2])
    fill(state, 2)
    set_turn(state, 1, 1)
    state.apply("end")
    assert state.result() == {
        "ranks": [1, 1, 1],
        "scores": [2, 2, 2],
        "outcome": "failure",
        "team_score": 2,
        "target": 7,
        # One crew member of three home, two supplies of seven: (1/3 + 2/7) / 2.
        "progress": 0.3095,
    }


@pytest.mark.parametrize(("players", "needed"), [(2, 5), (3, 7)])
def test_progress_grades_how_far_the_team_got_and_is_one_only_on_success(players, needed):
    state = new(ROLES5[:players])
    bring_everyone_home(state, good_chips(state, needed - 1))
    assert state.result()["progress"] == round((1 + (needed - 1) / needed) / 2, 4) < 1

    state = new(ROLES5[:players])
    bring_everyone_home(state, good_chips(state, needed + 2))  # more than needed counts as 1
    assert state.result()["outcome"] == "success" and state.result()["progress"] == 1.0


def test_a_crew_lost_before_anyone_came_home_has_made_no_progress():
    state = new(["carrier", "rookie", "veteran"])
    place(state, s0=4, s1=6, s2=2)
    fill(state, 1, ("chip", 3))
    set_turn(state, 0, 1)
    state.apply("end")
    assert state.result()["outcome"] == "failure" and state.result()["progress"] == 0.0


def test_random_play_always_ends_with_chosen_roles_and_the_beginners_option():
    for players in range(2, 6):
        for seed in range(8):
            state = GAME.new_state(players, seed, {"roles": "chosen", "beginner": True})
            rng = random.Random(seed)
            for _ in range(5000):
                if state.is_terminal():
                    break
                state.apply(rng.choice(state.legal_actions()))
            assert state.is_terminal()
            assert state.result()["outcome"] in ("success", "failure")


def test_a_record_from_before_progress_still_replays_and_a_wrong_progress_does_not():
    from engine.core.errors import ReplayMismatch
    from engine.core.frames import frames
    from engine.core.replay import replay

    state = GAME.new_state(2, 3, {})
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    assert "progress" in record["result"]
    older = {**record, "result": {k: v for k, v in record["result"].items() if k != "progress"}}
    assert replay(older).is_terminal()
    assert list(frames(older))[-1]["result"] == record["result"]
    wrong = {**record, "result": {**record["result"], "progress": 2.0}}
    with pytest.raises(ReplayMismatch, match="result differs"):
        replay(wrong)
    with pytest.raises(ReplayMismatch, match="result differs"):
        list(frames(wrong))
