"""Recording results: seats, Elo, history, cooperative ratings, idempotence, tournaments."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.models import Bot, GameRating, Match, MatchSeat, Rating, RatingChange, Tournament
from arena.services import results
from arena.services.results import record_failure, record_result
from tests.arena.conftest import GOOD_BOT
from workers.play.referee import MatchOutcome

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=["one statement", "orm"])
def writer(request, monkeypatch) -> str:
    """Every test runs with both writers: PostgreSQL's one statement and the ORM's (SQLite)."""
    if request.param == "orm":
        monkeypatch.setattr(results, "_writer", lambda: results._write_all_orm)
    return request.param


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("rita")


def make_bot(owner: User, name: str, game: str = "duel") -> Bot:
    bot = Bot.objects.create(owner=owner, name=name, game=game)
    bot.add_version(GOOD_BOT, "bot.py")
    return bot


def make_match(bots: list[Bot], game: str = "duel", tournament: Tournament | None = None) -> Match:
    match = Match.objects.create(
        tournament=tournament,
        game=game,
        rules_version=f"{game}@1",
        players=len(bots),
        seed=7,
        status=Match.Status.RUNNING,
    )
    for seat, bot in enumerate(bots):
        MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
    return match


def outcome(ranks, scores=None, forfeits=None, result=None) -> MatchOutcome:
    scores = scores if scores is not None else [0] * len(ranks)
    return MatchOutcome(
        record={"actions": []},
        ranks=list(ranks),
        scores=list(scores),
        forfeits=dict(forfeits or {}),
        stderr=[f"seat {i} says hi" for i in range(len(ranks))],
        decisions=len(ranks),
        seconds=0.25,
        result=dict(result or {"ranks": list(ranks), "scores": list(scores)}),
    )


def rating_of(bot: Bot, game: str = "duel") -> Rating:
    return Rating.objects.get(bot=bot, game=game)


def test_a_two_player_win_updates_seats_ratings_and_history(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    match = make_match([a, b])
    done = record_result(match.pk, None, outcome([1, 2], scores=[3, 1]))
    assert done.recorded
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rated
    assert match.result["ranks"] == [1, 2] and match.decisions == 2
    seats = list(match.seats.order_by("seat"))
    assert [s.rank for s in seats] == [1, 2]
    assert [s.score for s in seats] == [3, 1]
    assert seats[0].stderr == "seat 0 says hi"
    assert seats[0].rating_before == 1500 and seats[0].rating_after == pytest.approx(1516)
    assert rating_of(a).rating == pytest.approx(1516)
    assert rating_of(b).rating == pytest.approx(1484)
    assert (rating_of(a).games, rating_of(a).wins, rating_of(b).losses) == (1, 1, 1)
    change = RatingChange.objects.get(rating=rating_of(b), match=match)
    assert (change.before, change.after) == (1500, pytest.approx(1484))


def test_recording_the_same_match_twice_rates_it_once(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    match = make_match([a, b])
    assert record_result(match.pk, None, outcome([1, 2])).recorded
    again = record_result(match.pk, None, outcome([2, 1]))
    assert not again.recorded and again.status == Match.Status.FINISHED
    assert rating_of(a).rating == pytest.approx(1516) and rating_of(a).games == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    assert list(match.seats.order_by("seat").values_list("rank", flat=True)) == [1, 2]


def test_a_bots_rating_continues_across_its_versions(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    record_result(make_match([a, b]).pk, None, outcome([1, 2]))
    a.add_version(b"def act(o, l):\n    return l[-1]\n", "v2.py")
    second = make_match([a, b])
    record_result(second.pk, None, outcome([1, 2]))
    assert rating_of(a).games == 2 and rating_of(a).rating > 1516
    assert second.seats.get(seat=0).bot_version.number == 2
    assert Rating.objects.filter(bot=a).count() == 1


def test_a_three_player_match_divides_k_between_the_pairs(owner):
    bots = [make_bot(owner, name) for name in "abc"]
    record_result(make_match(bots).pk, None, outcome([2, 1, 3]))
    assert rating_of(bots[1]).rating == pytest.approx(1516)
    assert rating_of(bots[0]).rating == pytest.approx(1500)
    assert rating_of(bots[2]).rating == pytest.approx(1484)


def test_a_forfeit_is_stored_with_its_reason_and_ranks_last(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    match = make_match([a, b])
    record_result(match.pk, None, outcome([2, 1], forfeits={0: "timed out"}))
    seat = match.seats.get(seat=0)
    assert seat.forfeit_reason == "timed out" and seat.rank == 2
    assert Match.objects.get(pk=match.pk).result["forfeits"] == {"0": "timed out"}
    assert rating_of(a).rating < 1500


def test_a_cooperative_success_raises_the_team_and_lowers_the_game_at_that_size(owner):
    bots = [make_bot(owner, name, game="crew") for name in "xyz"]
    result = {"ranks": [1, 1, 1], "scores": [6] * 3, "outcome": "success", "team_score": 6}
    record_result(
        make_match(bots, game="crew").pk, None, outcome([1, 1, 1], [6] * 3, result=result)
    )
    for bot in bots:
        row = rating_of(bot, "crew")
        assert row.rating == pytest.approx(1516)
        assert (row.games, row.wins, row.successes, row.score_total) == (1, 1, 1, 6)
    game = GameRating.objects.get(game="crew", players=3)
    assert game.rating == pytest.approx(1484) and game.games == 1
    assert not GameRating.objects.filter(game="crew", players=2).exists()


def test_a_cooperative_failure_is_a_loss_for_every_seat(owner):
    bots = [make_bot(owner, name, game="crew") for name in "xy"]
    result = {"ranks": [1, 1], "scores": [3, 3], "outcome": "failure", "team_score": 3}
    record_result(make_match(bots, game="crew").pk, None, outcome([1, 1], [3, 3], result=result))
    for bot in bots:
        row = rating_of(bot, "crew")
        assert row.rating == pytest.approx(1484)
        assert (row.losses, row.successes) == (1, 0)
    assert GameRating.objects.get(game="crew", players=2).rating == pytest.approx(1516)


def test_a_forfeited_seat_in_a_successful_team_is_scored_as_a_failure(owner):
    bots = [make_bot(owner, name, game="crew") for name in "xy"]
    result = {"ranks": [1, 1], "scores": [2, 2], "outcome": "success", "team_score": 2}
    record_result(
        make_match(bots, game="crew").pk,
        None,
        outcome([2, 1], [2, 2], forfeits={0: "crashed"}, result=result),
    )
    assert rating_of(bots[0], "crew").rating < 1500 < rating_of(bots[1], "crew").rating


def test_the_last_match_closes_its_tournament(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    tournament = Tournament.objects.create(
        name="t", game="duel", players_per_match=2, status=Tournament.Status.RUNNING
    )
    first, second = (
        make_match([a, b], tournament=tournament),
        make_match([b, a], tournament=tournament),
    )
    record_result(first.pk, None, outcome([1, 2]))
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    record_failure(second.pk, None, "the engine refused the set-up")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_a_failed_match_moves_no_rating(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    match = make_match([a, b])
    assert record_failure(match.pk, None, "boom").recorded
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED and match.error == "boom" and not match.rated
    assert not Rating.objects.exists()
    assert not record_result(match.pk, None, outcome([1, 2])).recorded


def test_an_outcome_with_the_wrong_seat_count_writes_nothing(owner):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    match = make_match([a, b])
    with pytest.raises(ValueError):
        record_result(match.pk, None, outcome([1, 2, 3]))
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    assert not Rating.objects.exists()


def test_scores_of_any_json_shape_and_none_are_stored_as_given(owner):
    bots = [make_bot(owner, name) for name in "abc"]
    match = make_match(bots)
    scores = [{"points": 3, "tiles": [1, 2]}, None, 0.5]
    record_result(match.pk, None, outcome([1, 3, 2], scores=scores))
    assert [s.score for s in match.seats.order_by("seat")] == scores
