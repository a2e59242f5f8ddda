"""Elo maths: pairwise decomposition by rank and cooperative play against the game."""

import random

import pytest

from arena.ratings import (
    expected_score,
    rate_cooperative,
    rate_ranked,
    seat_outcome,
    team_outcome,
)


def test_two_player_win_moves_equal_ratings_by_half_k():
    assert rate_ranked([1500, 1500], [1, 2]) == pytest.approx([1516, 1484])


def test_draw_between_equal_ratings_changes_nothing():
    assert rate_ranked([1500, 1500], [1, 1]) == pytest.approx([1500, 1500])


def test_expected_score_uses_the_400_point_scale():
    assert expected_score(1900, 1500) == pytest.approx(1 / (1 + 10 ** (-1)))


def test_multiplayer_divides_k_by_players_minus_one():
    # Four equal seats: the winner takes three pairwise wins at K/3 each.
    after = rate_ranked([1500] * 4, [1, 2, 3, 4])
    assert after[0] == pytest.approx(1500 + 3 * (32 / 3) * 0.5)
    assert after[3] == pytest.approx(1500 - 3 * (32 / 3) * 0.5)
    # Second place: one loss and two wins.
    assert after[1] == pytest.approx(1500 + (32 / 3) * (-0.5 + 0.5 + 0.5))


def test_ranked_update_is_zero_sum():
    before = [1400.0, 1620.0, 1500.0]
    after = rate_ranked(before, [2, 1, 3])
    assert sum(after) == pytest.approx(sum(before))


def test_shared_rank_counts_as_a_draw_between_those_seats():
    after = rate_ranked([1500, 1500, 1500], [1, 1, 3])
    assert after[0] == pytest.approx(after[1])
    assert after[0] == pytest.approx(1500 + 16 * 0.5)


def test_seats_of_the_same_bot_are_not_rated_against_each_other():
    after = rate_ranked([1500, 1500, 1500], [1, 2, 3], identities=["a", "a", "b"])
    # Seat 0 only meets "b": one win at K/2.
    assert after[0] == pytest.approx(1500 + 16 * 0.5)
    assert after[1] == pytest.approx(1500 + 16 * 0.5)


def test_seat_outcome_names_win_draw_and_loss():
    assert seat_outcome([1, 2, 3], 0) == "win"
    assert seat_outcome([1, 2, 3], 2) == "loss"
    assert seat_outcome([1, 1, 1], 1) == "draw"
    assert seat_outcome([1, 1, 3], 1) == "win"


def test_ratings_must_match_the_seats():
    with pytest.raises(ValueError):
        rate_ranked([1500], [1, 2])


def test_cooperative_success_raises_every_seat_and_lowers_the_game():
    update = rate_cooperative([1500, 1500, 1500], 1500, [True, True, True])
    assert update.seats == pytest.approx([1516, 1516, 1516])
    # The game faces the table once: it moves by minus the mean seat change.
    assert update.game == pytest.approx(1484)


def test_cooperative_failure_moves_the_other_way():
    update = rate_cooperative([1600, 1400], 1500, [False, False])
    assert update.seats[0] < 1600 and update.seats[1] < 1400
    assert update.game > 1500
    mean_change = ((update.seats[0] - 1600) + (update.seats[1] - 1400)) / 2
    assert update.game - 1500 == pytest.approx(-mean_change)


def test_forfeited_seat_is_scored_as_a_failure_in_a_successful_team():
    update = rate_cooperative([1500, 1500], 1500, [True, False])
    assert update.seats[0] > 1500 > update.seats[1]
    assert update.game == pytest.approx(1500)


def test_a_graded_cooperative_outcome_moves_ratings_like_a_fractional_score():
    # 0.5 against an equal game is what Elo expects: nothing moves.
    update = rate_cooperative([1500, 1500], 1500, [0.5, 0.5])
    assert update.seats == pytest.approx([1500, 1500]) and update.game == pytest.approx(1500)
    # A failed table that got further loses less than one that got nowhere.
    further = rate_cooperative([1500, 1500], 1500, [0.4, 0.4])
    nowhere = rate_cooperative([1500, 1500], 1500, [0.0, 0.0])
    assert nowhere.seats[0] < further.seats[0] < 1500
    assert further.game - 1500 == pytest.approx(1500 - further.seats[0])


def test_a_cooperative_outcome_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="0..1"):
        rate_cooperative([1500, 1500], 1500, [1.2, 1.2])


def test_the_team_outcome_is_the_graded_progress_or_else_success():
    assert team_outcome({"outcome": "failure", "progress": 0.3095}) == 0.3095
    assert team_outcome({"outcome": "success", "progress": 1.0}) == 1.0
    # Records from before a game graded its outcome: success 1, failure 0.
    assert team_outcome({"outcome": "success"}) == 1.0
    assert team_outcome({"outcome": "failure", "team_score": 4}) == 0.0
    # A value that is no fraction is not read as one.
    assert team_outcome({"outcome": "failure", "progress": 7}) == 0.0
    assert team_outcome({"outcome": "failure", "progress": True}) == 0.0
    assert team_outcome({"outcome": "failure", "progress": float("nan")}) == 0.0


def test_stronger_cooperative_bot_ends_above_a_weaker_one_with_random_partners():
    # A team's chance of success grows with the skill of its members; the strong
    # and weak bots each sit at tables with random partners drawn from a pool.
    skill = {"strong": 1.2, "weak": -0.6, "p1": 0.0, "p2": 0.0, "p3": 0.3, "p4": -0.3}
    ratings = dict.fromkeys(skill, 1500.0)
    game = 1500.0
    rng = random.Random(7)
    for _ in range(600):
        table = rng.sample(sorted(skill), 3)
        chance = 1 / (1 + 2.718281828 ** -(sum(skill[b] for b in table) - 0.2))
        success = rng.random() < chance
        update = rate_cooperative([ratings[b] for b in table], game, [success] * 3)
        for bot, value in zip(table, update.seats, strict=True):
            ratings[bot] = value
        game = update.game
    assert ratings["strong"] > ratings["p3"] > ratings["weak"]
    assert ratings["strong"] - ratings["weak"] > 100
