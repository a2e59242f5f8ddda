"""Anchors: the reference bots marked on the leaderboards, and every bot against them.

Matches are rows as the recorder leaves them (tests/arena/services/test_skills.py's `play`);
the anchors are bots of the arena's own user, as arena/services/demo.py loads them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.models import Bot, Match, Rating
from arena.models.bots import ANCHOR_OWNER
from arena.ratings.head_to_head import BEATS, LOSES_TO, NOT_SEPARATED
from arena.services.anchors import against_anchors
from arena.stats import wilson_interval
from tests.arena.services.test_results import make_bot, make_match
from tests.arena.services.test_skills import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena_user(db) -> User:
    user = User.objects.create(username=ANCHOR_OWNER)
    user.set_unusable_password()
    user.save()
    return user


@pytest.fixture
def ada(db) -> User:
    return User.objects.create_user("ada")


@pytest.fixture
def duel(arena_user, ada):
    """Three anchors, Ada's bot `mine` and Ada's `other`; every one with a Rating row."""
    bots = {name: make_bot(arena_user, name) for name in ("rock", "paper", "scissors")}
    bots["mine"], bots["other"] = make_bot(ada, "mine"), make_bot(ada, "other")
    Rating.objects.bulk_create(Rating(bot=b, game="duel") for b in bots.values())
    return bots


def repeat(times: int, bots, ranks, **extra) -> None:
    for _ in range(times):
        play(bots, ranks, **extra)


def record_of(report, name):
    return next(row for row in report["anchors"] if row["bot"] == name)


def test_a_bot_is_an_anchor_exactly_when_the_arena_owns_it(duel, ada):
    assert duel["rock"].is_anchor() and not duel["mine"].is_anchor()
    # A name is not enough: an author's bot called like a reference bot is not one.
    impostor = make_bot(ada, "heuristic", game="crew")
    assert not impostor.is_anchor()
    assert set(Bot.objects.anchors().values_list("name", flat=True)) == {
        "rock",
        "paper",
        "scissors",
    }


@pytest.fixture
def results(duel):
    """mine beats rock, loses to paper, is level with scissors at tables of three."""
    mine, rock, paper, scissors, other = (
        duel[n] for n in ("mine", "rock", "paper", "scissors", "other")
    )
    repeat(16, [mine, rock], [1, 2])
    repeat(2, [rock, mine], [1, 1])  # draws: half a win each
    repeat(2, [rock, mine], [1, 2])
    repeat(1, [paper, mine], [2, 1])
    repeat(9, [mine, paper], [2, 1])
    # Tables of three: ahead of scissors twice, behind once, level once.
    play([mine, scissors, other], [1, 2, 3])
    play([other, mine, scissors], [2, 1, 3])
    play([scissors, other, mine], [1, 2, 3])
    play([mine, scissors, other], [2, 2, 1])
    # None of these count: an unrated (challenge) game, a match still to play, and a
    # match between others.
    play([mine, paper], [1, 2], rated=False)
    make_match([mine, paper])
    repeat(5, [other, rock], [1, 2])
    return duel


def test_head_to_head_counts_share_interval_and_verdict_per_anchor(results):
    report = against_anchors(results["mine"])
    assert report["measure"] == "head_to_head" and not report["anchor"]
    assert [row["bot"] for row in report["anchors"]] == ["paper", "rock", "scissors"]
    rock = record_of(report, "rock")
    assert (rock["games"], rock["ahead"], rock["ties"], rock["behind"]) == (20, 16, 2, 2)
    assert rock["share"] == 0.85  # (16 + 2/2) / 20
    low, high = wilson_interval(17, 20)
    assert (rock["share_low"], rock["share_high"]) == (round(low, 4), round(high, 4))
    assert rock["share_low"] > 0.5 and rock["verdict"] == BEATS
    paper = record_of(report, "paper")
    assert (paper["games"], paper["ahead"], paper["ties"]) == (10, 1, 0)
    assert paper["share"] == 0.1 and paper["share_high"] < 0.5 and paper["verdict"] == LOSES_TO
    scissors = record_of(report, "scissors")
    assert (scissors["games"], scissors["ahead"], scissors["ties"]) == (4, 2, 1)
    assert scissors["share"] == 0.625 and scissors["verdict"] == NOT_SEPARATED
    assert report["beats"] == ["rock"]


def test_the_other_side_of_a_head_to_head_mirrors_it(results):
    report = against_anchors(results["rock"])
    assert report["anchor"] and [r["bot"] for r in report["anchors"]] == ["paper", "scissors"]
    # The anchors' page lists the other anchors only; they never met here.
    assert all(r["games"] == 0 and r["share"] is None for r in report["anchors"])
    assert all(r["verdict"] == NOT_SEPARATED for r in report["anchors"])


def test_a_deactivated_anchor_is_left_out(results):
    results["paper"].deactivate()
    assert [r["bot"] for r in against_anchors(results["mine"])["anchors"]] == ["rock", "scissors"]


def test_the_bot_page_says_which_references_it_beats(results, client):
    page = client.get(f"/bots/{results['mine'].pk}/").content.decode()
    section = page[page.index('id="anchors-h"') :].split("</section>")[0]
    assert "Beats with confidence: <strong>rock</strong>." in section
    rows = {row.split("</a>")[0].rsplit(">", 1)[1]: row for row in section.split("<tr>")[2:]}
    assert '<td class="num">20</td>' in rows["rock"] and "85%" in rows["rock"]
    assert '<td class="verdict">beats</td>' in rows["rock"]
    assert '<td class="verdict">loses to</td>' in rows["paper"] and "10%" in rows["paper"]
    assert '<td class="verdict">not yet separated</td>' in rows["scissors"]
    assert "share of tables where it finished ahead" in section
    anchor_page = client.get(f"/bots/{results['rock'].pk}/").content.decode()
    assert 'class="tag anchor"' in anchor_page.split("</h1>")[0]
    assert "Beats no reference bot with confidence yet." in anchor_page


def test_the_api_gives_the_same_rows_and_marks_anchors_on_the_bot(results, anonymous):
    mine = results["mine"]
    reply = anonymous.get(f"/api/bots/{mine.pk}/anchors/")
    assert reply.status_code == 200
    data = reply.json()
    assert data == {**against_anchors(mine), "anchors": data["anchors"]}
    assert data["anchors"] == against_anchors(mine)["anchors"]
    assert data["beats"] == ["rock"]
    assert anonymous.get(f"/api/bots/{mine.pk}/").json()["anchor"] is False
    assert anonymous.get(f"/api/bots/{results['rock'].pk}/").json()["anchor"] is True
    assert anonymous.get("/api/bots/999999/anchors/").status_code == 404


def test_the_leaderboard_marks_the_anchors_rows(duel, anonymous, client):
    Rating.objects.filter(bot=duel["mine"]).update(rating=1700.0)
    rows = anonymous.get("/api/leaderboards/duel/").json()["results"]
    assert {row["bot"]: row["anchor"] for row in rows} == {
        "mine": False,
        "other": False,
        "rock": True,
        "paper": True,
        "scissors": True,
    }
    page = client.get("/games/duel/").content.decode()
    body = page[page.index("<tbody>") :]
    marked = {
        row.split("</a>")[0].rsplit(">", 1)[1]
        for row in body.split("<tr>")[1:]
        if 'class="tag anchor"' in row
    }
    assert marked == {"rock", "paper", "scissors"}
    badge = '<span class="tag anchor" title="reference bot: a fixed yardstick">anchor'
    assert badge + '<span class="sr"> (reference bot: a fixed yardstick)</span></span>' in body
    assert "marks a reference bot" in page  # the legend
    home = client.get("/").content.decode()
    card = home[home.index('id="g-duel"') :].split("</section>")[0]
    assert card.count('class="tag anchor"') == 3


def test_a_cooperative_game_compares_success_rates_instead(arena_user, ada, client):
    lone, team, mine = (
        make_bot(arena_user, "lone", game="crew"),
        make_bot(arena_user, "team", game="crew"),
        make_bot(ada, "mine", game="crew"),
    )
    for bot, successes in ((lone, 2), (team, 10), (mine, 18)):
        Rating.objects.create(bot=bot, game="crew", games=20, successes=successes)
    report = against_anchors(mine)
    assert report["measure"] == "success_rate" and report["beats"] == ["lone"]
    row = record_of(report, "lone")
    assert (row["games"], row["successes"], row["share"]) == (20, 18, 0.9)
    assert (row["reference_games"], row["reference_successes"], row["reference_share"]) == (
        20,
        2,
        0.1,
    )
    assert row["verdict"] == BEATS and record_of(report, "team")["verdict"] == NOT_SEPARATED
    page = client.get(f"/bots/{mine.pk}/").content.decode()
    assert "A cooperative game has no head to head" in page
    assert "Beats with confidence: <strong>lone</strong>." in page


def test_every_anchor_counts_as_its_own_owner_in_the_ladders_fair_share(duel):
    from datetime import timedelta

    from django.utils import timezone

    from arena.services import ladder as ladder_service

    entries = ladder_service.sync_entries("duel")
    owners = {e.bot_id: e.owner_id for e in ladder_service.entrants("duel", entries)}
    anchors = [duel[n].pk for n in ("rock", "paper", "scissors")]
    assert [owners[a] for a in anchors] == [-a for a in anchors]
    assert owners[duel["mine"].pk] == owners[duel["other"].pk] == duel["mine"].owner_id
    rows = {row["bot"]: row["anchor"] for row in ladder_service.bot_rows("duel")}
    assert rows == {"rock": True, "paper": True, "scissors": True, "mine": False, "other": False}
    play([duel["rock"], duel["mine"]], [1, 2])
    Match.objects.update(purpose=Match.Purpose.LADDER)
    history = ladder_service.recent_history("duel", timezone.now() - timedelta(hours=1))
    assert history.owner_seats == {-duel["rock"].pk: 1, duel["mine"].owner_id: 1}


def test_the_ladder_seats_each_anchor_as_often_as_a_lone_authors_bot(
    arena_user, ada, run_on_commit
):
    import random

    from arena.models import MatchSeat
    from arena.services import ladder as ladder_service

    bob = User.objects.create_user("bob")
    anchors = [make_bot(arena_user, name) for name in ("rock", "paper", "scissors")]
    authors = [make_bot(ada, "mine"), make_bot(bob, "theirs")]
    run_on_commit(ladder_service.schedule_game, "duel", 100, random.Random(4))
    seats = {b.pk: MatchSeat.objects.filter(bot=b).count() for b in anchors + authors}
    # Five owners' worth of fair share: 100 matches of 2 and 3 seats, ~50 seats each.
    # (Counted as one owner, the three anchors would get ~1/3 of the seats between them.)
    assert sum(seats[a.pk] for a in anchors) > 0.5 * sum(seats.values())
    assert min(seats.values()) > 0.6 * max(seats.values())


def test_only_an_organiser_resumes_a_paused_anchor(duel, other_author, organiser):
    from django.utils import timezone

    from arena.services import ladder as ladder_service

    ladder_service.sync_entries("duel")
    rock = duel["rock"]
    rock.ladder_entry.paused_at = timezone.now()
    rock.ladder_entry.save(update_fields=["paused_at"])
    assert other_author.post(f"/api/bots/{rock.pk}/resume/").status_code == 403
    rock.ladder_entry.refresh_from_db()
    assert rock.ladder_entry.is_paused()
    reply = organiser.post(f"/api/bots/{rock.pk}/resume/")
    assert reply.status_code == 200 and reply.json()["ladder_status"] == "playing"
    rock.ladder_entry.refresh_from_db()
    assert not rock.ladder_entry.is_paused()
    # An organiser resumes only anchors: an author's bot is its owner's to resume.
    mine = duel["mine"]
    mine.ladder_entry.paused_at = timezone.now()
    mine.ladder_entry.save(update_fields=["paused_at"])
    assert organiser.post(f"/api/bots/{mine.pk}/resume/").status_code == 403
