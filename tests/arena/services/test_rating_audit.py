"""The rating audit: a replay of the match list agrees with what recording stored, and each
way a match can be rated twice, not at all, or wrongly is named."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from arena.models import Match, Rating, RatingChange
from arena.services.rating_audit import audit
from arena.services.results import record_result
from tests.arena.services.test_results import make_bot, make_match, outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db) -> list[Match]:
    owner = User.objects.create_user("audra")
    a, b, c = (make_bot(owner, name) for name in "abc")
    matches = []
    for seats, ranks in [
        ([a, b], [1, 2]),
        ([b, c], [2, 1]),
        ([c, a], [1, 1]),
        ([a, b, c], [3, 1, 2]),
    ]:
        match = make_match(seats)
        record_result(match.pk, None, outcome(ranks))
        matches.append(match)
    crew = [make_bot(owner, name, game="crew") for name in "xy"]
    for result in ("success", "failure", "success"):
        body = {"ranks": [1, 1], "scores": [3, 3], "outcome": result, "team_score": 3}
        record_result(make_match(crew, game="crew").pk, None, outcome([1, 1], [3, 3], result=body))
    return matches


def test_ratings_recorded_by_the_workers_path_pass(played):
    for game in ("duel", "crew"):
        report = audit(game)
        assert report.ok, report.problems
    assert audit("duel").matches == 4 and audit("crew").matches == 3


def test_a_match_rated_twice_is_named(played):
    change = RatingChange.objects.filter(match=played[1]).first()
    RatingChange.objects.create(
        rating=change.rating, match=played[1], before=change.before, after=change.after
    )
    assert any(
        f"match {played[1].pk} moved a rating more than once" in p for p in audit("duel").problems
    )


def test_a_rating_that_drifted_from_its_history_is_named(played):
    row = Rating.objects.filter(game="duel").first()
    Rating.objects.filter(pk=row.pk).update(rating=row.rating + 3)
    problems = audit("duel").problems
    assert any(f"rating {row.pk}: history ends at" in p for p in problems)
    assert any(f"bot {row.bot_id}: replayed" in p for p in problems)


def test_a_rated_match_that_moved_nothing_is_named(played):
    RatingChange.objects.filter(match=played[0]).delete()
    assert any(
        f"match {played[0].pk} moved 0 ratings for 2 bots" in p for p in audit("duel").problems
    )


def test_the_command_exits_non_zero_on_a_problem(played, capsys):
    call_command("audit_ratings", "--game", "duel")
    assert "duel: 4 rated matches, 3 ratings: ok" in capsys.readouterr().out
    Match.objects.filter(pk=played[0].pk).update(rated=False)
    with pytest.raises(SystemExit) as stopped:
        call_command("audit_ratings", "--game", "duel", "--json")
    assert stopped.value.code == 1
    assert '"ok": false' in capsys.readouterr().out
