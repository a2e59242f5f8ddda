"""Ladders over the API: anyone reads them, organisers change them, bad values are 400s."""

from __future__ import annotations

import random

import pytest

import engine
from arena.models import Ladder, LadderEntry, Match, MatchSeat
from arena.services import ladder as ladder_service
from tests.arena.conftest import ENQUEUED_PURPOSES

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel_bots(make_bot, author_user, other_user):
    return [
        make_bot(author_user, "a1"),
        make_bot(author_user, "a2"),
        make_bot(other_user, "b1"),
    ]


def test_anyone_lists_every_games_ladder(anonymous):
    rows = anonymous.get("/api/ladders/").json()
    assert [r["game"] for r in rows] == engine.game_names()
    duel = next(r for r in rows if r["game"] == "duel")
    assert duel["status"] == "running" and duel["table_sizes"] == [2, 3]
    assert duel["target_depth"] is None and duel["newcomer_games"] == 10
    assert duel["queued"] == 0 and duel["running"] == 0 and duel["matches_last_hour"] == 0
    assert duel["bots"] == []


def test_a_ladder_shows_its_bots_and_its_matches(anonymous, duel_bots, run_on_commit, enqueued):
    # Sets of 2 and 3 matches alternate: 2 + 3 + 2.
    ids = run_on_commit(ladder_service.schedule_game, "duel", 7, random.Random(1))
    assert len(ids) == 7 and sorted(enqueued) == sorted(ids)
    assert set(ENQUEUED_PURPOSES.values()) == {"ladder"}
    assert run_on_commit(ladder_service.schedule_game, "duel", 7, random.Random(1)) == []
    data = anonymous.get("/api/ladders/duel/").json()
    assert data["queued"] == 7 and data["running"] == 0
    assert {b["bot"] for b in data["bots"]} == {"a1", "a2", "b1"}
    assert all(b["status"] == "playing" and b["version"] == 1 for b in data["bots"])
    listed = anonymous.get("/api/matches/?ladder=true").json()["results"]
    assert sorted(m["id"] for m in listed) == sorted(ids)
    assert all(m["purpose"] == "ladder" and m["match_set"] for m in listed)
    assert anonymous.get("/api/matches/?ladder=false").json()["results"] == []
    assert anonymous.get("/api/matches/?ladder=maybe").status_code == 400


def test_an_organiser_pauses_a_ladder_and_changes_its_settings(organiser, organiser_user):
    change = {"status": "paused", "table_sizes": [4, 2], "target_depth": 12, "newcomer_games": 4}
    reply = organiser.patch("/api/ladders/duel/", change, format="json")
    assert reply.status_code == 200, reply.content
    data = reply.json()
    assert data["status"] == "paused" and data["table_sizes"] == [2, 4]
    assert data["target_depth"] == 12 and data["newcomer_games"] == 4
    ladder = Ladder.objects.get(game="duel")
    assert ladder.updated_by == organiser_user and not ladder.is_running()
    reply = organiser.patch("/api/ladders/duel/", {"target_depth": None}, format="json")
    assert reply.status_code == 200 and reply.json()["target_depth"] is None


def test_a_paused_ladder_schedules_nothing(organiser, duel_bots, run_on_commit):
    organiser.patch("/api/ladders/duel/", {"status": "paused"}, format="json")
    assert run_on_commit(ladder_service.schedule_game, "duel", 6, random.Random(1)) == []
    assert ladder_service.target_depths(4).get("duel") is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"target_depth": 0}, "target_depth"),
        ({"target_depth": -3}, "target_depth"),
        ({"target_depth": "deep"}, "target_depth"),
        ({"table_sizes": [5]}, "table_sizes"),  # duel takes 2-4 players
        ({"table_sizes": [1, 2]}, "table_sizes"),
        ({"table_sizes": []}, "table_sizes"),
        ({"table_sizes": "2"}, "table_sizes"),
        ({"newcomer_games": 10_000}, "newcomer_games"),
        ({"newcomer_games": -1}, "newcomer_games"),
        ({"status": "asleep"}, "status"),
    ],
)
def test_bad_ladder_settings_are_a_400_naming_the_field(organiser, change, field):
    reply = organiser.patch("/api/ladders/duel/", change, format="json")
    assert reply.status_code == 400, reply.content
    assert field in reply.json(), reply.json()
    ladder = ladder_service.ladder_for("duel")
    assert ladder.target_depth is None and ladder.table_sizes == [] and ladder.is_running()


def test_only_organisers_change_a_ladder(author, anonymous):
    assert (
        author.patch("/api/ladders/duel/", {"status": "paused"}, format="json").status_code == 403
    )
    assert (
        anonymous.patch("/api/ladders/duel/", {"status": "paused"}, format="json").status_code
        == 401
    )
    assert ladder_service.ladder_for("duel").is_running()


def test_an_unknown_game_has_no_ladder(anonymous, organiser):
    assert anonymous.get("/api/ladders/chess/").status_code == 404
    assert organiser.patch("/api/ladders/chess/", {}, format="json").status_code == 404


def test_a_paused_bot_shows_why_and_only_its_owner_resumes_it(author, other_author, duel_bots):
    bot = duel_bots[0]
    ladder_service.sync_entries("duel")
    entry = LadderEntry.objects.get(bot=bot)
    LadderEntry.objects.filter(pk=entry.pk).update(
        paused_at=entry.entered_at, pause_reason="paused: crashed", pause_match_ids=[7, 8]
    )
    data = author.get(f"/api/bots/{bot.pk}/").json()
    assert data["ladder_status"] == "paused"
    assert data["ladder_pause_reason"] == "paused: crashed"
    assert data["ladder_pause_matches"] == [7, 8]
    assert other_author.post(f"/api/bots/{bot.pk}/resume/").status_code == 403
    reply = author.post(f"/api/bots/{bot.pk}/resume/")
    assert reply.status_code == 200, reply.content
    assert reply.json()["ladder_status"] == "playing"
    assert reply.json()["ladder_pause_reason"] is None


def test_a_deactivated_bot_is_waiting_and_never_scheduled(author, duel_bots, run_on_commit):
    bot = duel_bots[0]
    assert (
        author.patch(f"/api/bots/{bot.pk}/", {"is_active": False}, format="json").json()[
            "ladder_status"
        ]
        == "waiting"
    )
    ids = run_on_commit(ladder_service.schedule_game, "duel", 10, random.Random(2))
    assert ids and not Match.objects.filter(pk__in=ids, seats__bot=bot).exists()


def test_the_scheduler_reads_the_latest_fit_and_falls_back_to_elo(duel_bots, settings):
    from django.utils import timezone

    from arena.models import SkillEntry, SkillFit

    entries = ladder_service.sync_entries("duel")
    before = ladder_service.entrants("duel", entries)
    assert all(e.skill is None and e.skill_sd is None for e in before)  # no fit yet: Elo
    now = timezone.now()
    old = SkillFit.objects.create(game="duel", fitted_at=now)
    SkillEntry.objects.create(fit=old, bot=duel_bots[0], skill=1.0, skill_low=0.0, skill_high=2.0)
    fit = SkillFit.objects.create(game="duel", fitted_at=now)
    for bot, skill in zip(duel_bots[:2], (1600.0, 1400.0), strict=True):
        # A 95% interval of +-1.96 * 50: the scheduler reads back an sd of 50.
        SkillEntry.objects.create(
            fit=fit, bot=bot, skill=skill, skill_low=skill - 98.0, skill_high=skill + 98.0
        )
    found = {e.bot_id: e for e in ladder_service.entrants("duel", entries)}
    assert found[duel_bots[0].pk].skill == 1600.0 and found[duel_bots[1].pk].skill == 1400.0
    assert found[duel_bots[0].pk].skill_sd == pytest.approx(50.0, rel=1e-3)
    # Uploaded after the last refit: no skill, the selection uses its Elo with a wide sd.
    assert found[duel_bots[2].pk].skill is None


def test_single_tables_when_duplicate_sets_are_off(duel_bots, run_on_commit, settings):
    settings.ARENA_LADDER_DUPLICATE_SETS = False
    ids = run_on_commit(ladder_service.schedule_game, "duel", 5, random.Random(3))
    assert len(ids) == 5
    matches = Match.objects.filter(pk__in=ids)
    assert all(m.set_index == 0 for m in matches)
    assert len({m.match_set_id for m in matches}) == 5


@pytest.mark.parametrize("rejected", [False, True], ids=["pending", "rejected"])
def test_a_bot_whose_latest_version_is_not_ready_waits_and_is_never_scheduled(
    author, anonymous, client, duel_bots, run_on_commit, rejected
):
    bot = duel_bots[0]
    old = bot.latest_version()
    ladder_service.sync_entries("duel")  # on the ladder with its first version
    new = bot.add_version(b"def act(o, legal):\n    return legal[0]\n", "bot.py",
                          validation="pending")  # fmt: skip
    if rejected:
        assert new.try_settle("act() raised in the smoke match")
    data = author.get(f"/api/bots/{bot.pk}/").json()
    assert data["ladder_status"] == "waiting"
    assert data["latest_version"]["validation"] == ("rejected" if rejected else "pending")
    rows = {r["bot"]: r for r in anonymous.get("/api/ladders/duel/").json()["bots"]}
    assert rows[bot.name]["status"] == "waiting" and rows["a2"]["status"] == "playing"
    assert "<strong>waiting</strong>" in client.get(f"/bots/{bot.pk}/").content.decode()
    # Neither the version waiting for validation nor the older one it replaces plays.
    ids = run_on_commit(ladder_service.schedule_game, "duel", 10, random.Random(4))
    assert ids and not Match.objects.filter(pk__in=ids, seats__bot=bot).exists()
    assert LadderEntry.objects.get(bot=bot).version_id == old.pk
    if rejected:
        return
    # Its smoke match passes: the new version enters, and only it plays from now on.
    assert new.try_settle(None)
    assert author.get(f"/api/bots/{bot.pk}/").json()["ladder_status"] == "playing"
    Match.objects.filter(pk__in=ids).update(status=Match.Status.FINISHED)
    ids = run_on_commit(ladder_service.schedule_game, "duel", 10, random.Random(5))
    seats = MatchSeat.objects.filter(match_id__in=ids, bot=bot)
    assert seats.exists() and set(seats.values_list("bot_version_id", flat=True)) == {new.pk}
    assert LadderEntry.objects.get(bot=bot).version_id == new.pk
