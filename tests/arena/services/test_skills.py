"""Whole-history refits on PostgreSQL: stored fits, warm starts, triggers, leaderboard, history."""

from __future__ import annotations

import numpy as np
import pytest

from arena.models import Match, MatchSeat, SkillEntry, SkillFit
from arena.services import skills
from arena.services.results import record_result
from tests.arena.services.test_results import make_bot, outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("rita")


def play(bots, ranks, game="duel", rated=True, result=None) -> Match:
    """A finished match as the recorder leaves it (rows only: the fit reads rows)."""
    match = Match.objects.create(
        game=game,
        rules_version=f"{game}@1",
        players=len(bots),
        seed=1,
        status=Match.Status.FINISHED,
        rated=rated,
        result=result or {"ranks": ranks},
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=i, bot=b, bot_version=b.latest_version(), rank=r)
        for i, (b, r) in enumerate(zip(bots, ranks, strict=True))
    )
    return match


def league(owner, games=12):
    from arena.models import Rating

    strong, middle, weak = (make_bot(owner, name) for name in ("strong", "middle", "weak"))
    Rating.objects.bulk_create(Rating(bot=b, game="duel") for b in (strong, middle, weak))
    for i in range(games):
        play([strong, middle], [1, 2] if i % 4 else [2, 1])
        play([middle, weak], [1, 2] if i % 3 else [2, 1])
        play([strong, middle, weak], [1, 2, 3] if i % 2 else [2, 1, 3])
        play([weak, strong], [2, 1])
    return strong, middle, weak


def test_a_refit_stores_every_bots_skill_with_intervals_and_ranks(owner):
    strong, middle, weak = league(owner)
    play([strong, weak], [2, 1], rated=False)  # a challenge game: never in a fit
    fit = skills.refit("duel", force=True)
    assert fit is not None and fit.bots == 3 and fit.matches == 48 and not fit.warm
    entries = {e.bot_id: e for e in SkillEntry.objects.filter(fit=fit)}
    assert np.mean([e.skill for e in entries.values()]) == pytest.approx(1500.0)
    assert entries[strong.pk].skill > entries[middle.pk].skill > entries[weak.pk].skill
    for entry in entries.values():
        assert entry.skill_low < entry.skill < entry.skill_high
        assert 1 <= entry.rank_low <= entry.rank_high <= 3
    assert entries[strong.pk].rank_low == 1


def test_the_next_refit_is_warm_and_only_runs_when_enough_results_came(owner, settings):
    settings.ARENA_SKILL_REFIT_EVERY = 5
    strong, middle, weak = league(owner, games=3)
    first = skills.refit("duel")
    assert first is not None
    assert skills.refit("duel") is None  # nothing new
    for _ in range(4):
        play([strong, weak], [1, 2])
    assert skills.refit("duel") is None  # 4 of 5
    play([strong, weak], [1, 2])
    second = skills.refit("duel")
    assert second is not None and second.warm and second.matches == first.matches + 5
    assert SkillFit.objects.filter(game="duel").count() == 2


def test_a_recorded_result_asks_for_a_refit_after_every_n(owner, settings, refits, run_on_commit):
    settings.ARENA_SKILL_REFIT_EVERY = 3
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    asked = []
    for _ in range(4):
        play([a, b], [1, 2])
        asked.append(run_on_commit(skills.request_refit_if_due, "duel"))
    assert asked == [False, False, True, False]
    assert refits == [("duel", False)]


def test_challenge_games_move_no_rating(owner):
    from arena.models import Challenge, Rating

    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    challenge = Challenge.objects.create(
        game="duel", candidate=a.latest_version(), baseline=b.latest_version()
    )
    match = Match.objects.create(
        game="duel", rules_version="duel@1", players=2, seed=3, challenge=challenge
    )
    for seat, bot in enumerate((a, b)):
        MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
    assert record_result(match.pk, None, outcome([1, 2])).recorded
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.rated
    assert not Rating.objects.filter(games__gt=0).exists()
    assert MatchSeat.objects.get(match=match, seat=0).rank == 1


def test_a_cooperative_refit_gives_skill_and_contribution(owner):
    carry, lost, plain = (make_bot(owner, n, game="crew") for n in ("carry", "lost", "plain"))
    for i in range(30):
        play([carry, plain], [1, 1], "crew", result={"outcome": "success", "team_score": 9})
        outcome_ = "success" if i % 5 == 0 else "failure"
        play([lost, plain], [1, 1], "crew", result={"outcome": outcome_, "team_score": 2})
        play([carry, lost], [1, 1], "crew", result={"outcome": "success", "team_score": 6})
    fit = skills.refit("crew", force=True)
    assert fit is not None and fit.cooperative
    entries = {e.bot_id: e for e in SkillEntry.objects.filter(fit=fit)}
    assert entries[carry.pk].skill_low > entries[lost.pk].skill_high
    assert entries[carry.pk].contribution_low > entries[lost.pk].contribution_high
    assert entries[carry.pk].rank_low == 1


def test_the_leaderboard_serves_the_last_fit_and_orders_by_skill(owner, anonymous):
    from arena.models import Rating

    strong, middle, weak = league(owner)
    # The live Elo disagrees with the fit: the default order is the fit's, Elo is the other.
    Rating.objects.filter(bot=weak).update(rating=1700.0)
    Rating.objects.filter(bot=strong).update(rating=1450.0)
    fit = skills.refit("duel", force=True)
    by_default = anonymous.get("/api/leaderboards/duel/").json()["results"]
    assert [e["bot"] for e in by_default] == ["strong", "middle", "weak"]
    for elo in ("elo", "rating"):  # "rating": the Elo order's older name
        by_elo = anonymous.get(f"/api/leaderboards/duel/?order={elo}").json()["results"]
        assert [e["bot"] for e in by_elo] == ["weak", "middle", "strong"]
        assert [e["rank"] for e in by_elo] == [1, 2, 3]
    by_skill = anonymous.get("/api/leaderboards/duel/?order=skill").json()["results"]
    assert by_skill == by_default
    top = by_skill[0]
    assert top["skill_low"] < top["skill"] < top["skill_high"]
    assert top["rank_low"] == 1 and top["rank_high"] >= 1
    assert top["fitted_at"].startswith(fit.fitted_at.isoformat()[:19])
    bad = anonymous.get("/api/leaderboards/duel/?order=wins")
    assert bad.status_code == 400 and "order" in bad.json()


def test_a_bots_rating_history_has_elo_after_each_match_and_skill_at_each_refit(owner, anonymous):
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    for ranks in ([1, 2], [1, 2], [2, 1]):
        match = Match.objects.create(
            game="duel", rules_version="duel@1", players=2, seed=1, status=Match.Status.RUNNING
        )
        for seat, bot in enumerate((a, b)):
            MatchSeat.objects.create(
                match=match, seat=seat, bot=bot, bot_version=bot.latest_version()
            )
        record_result(match.pk, None, outcome(ranks))
    skills.refit("duel", force=True)
    record_result(play([a, b], [1, 2]).pk, None, outcome([1, 2]))  # already finished: no change
    skills.refit("duel", force=True)
    reply = anonymous.get(f"/api/bots/{a.pk}/ratings/")
    assert reply.status_code == 200
    data = reply.json()
    assert data["game"] == "duel" and len(data["elo"]) == 3
    assert data["elo"][0]["after"] > data["elo"][0]["before"] == 1500.0
    assert len(data["skill"]) == 2 and data["skill"][0]["skill_low"] < data["skill"][0]["skill"]
    assert anonymous.get(f"/api/bots/{a.pk}/ratings/?game=chess").status_code == 400


def test_only_organisers_ask_for_a_refit_on_demand(organiser, author, refits, run_on_commit):
    assert author.post("/api/leaderboards/duel/refit/").status_code == 403
    reply = run_on_commit(organiser.post, "/api/leaderboards/duel/refit/")
    assert reply.status_code == 202 and refits == [("duel", True)]
    assert organiser.post("/api/leaderboards/chess/refit/").status_code == 404


def test_the_refit_command_fits_one_game_and_names_an_unknown_one(owner):
    import io

    from django.core.management import CommandError, call_command

    league(owner, games=2)
    out = io.StringIO()
    call_command("refit_skills", "--game", "duel", stdout=out)
    assert "duel: 3 bots, 8 matches" in out.getvalue()
    with pytest.raises(CommandError, match="unknown game"):
        call_command("refit_skills", "--game", "chess")


def test_a_sets_results_ask_for_a_refit_when_they_reach_n(owner, settings, refits, run_on_commit):
    """A worker checks once after a set: the set's results passing N count as reaching it."""
    settings.ARENA_SKILL_REFIT_EVERY = 3
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    for _ in range(2):
        play([a, b], [1, 2])
    assert not run_on_commit(skills.request_refit_if_due, "duel", 2)
    for _ in range(2):
        play([a, b], [1, 2])
    assert run_on_commit(skills.request_refit_if_due, "duel", 2)  # 2 -> 4 passes 3
    play([a, b], [1, 2])
    assert not run_on_commit(skills.request_refit_if_due, "duel", 1)
    assert refits == [("duel", False)]


def test_past_2n_a_process_asks_again_at_most_every_reask_seconds(
    owner, settings, refits, run_on_commit
):
    """With no refit worker keeping up, every set used to publish another refit."""
    settings.ARENA_SKILL_REFIT_EVERY = 2
    skills._asked_at.clear()
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    for _ in range(5):
        play([a, b], [1, 2])
    start = 1000.0
    asked = [
        run_on_commit(skills.request_refit_if_due, "duel", 1, start + offset)
        for offset in (0.0, 1.0, skills.REASK_SECONDS - 1, skills.REASK_SECONDS + 0.5)
    ]
    assert asked == [True, False, False, True]
    assert refits == [("duel", False), ("duel", False)]
