"""Swiss and knockout tournaments over the API: bad input is a 400 naming the field,
organisers pause, resume and cancel, and the detail shows rounds and the bracket."""

from __future__ import annotations

import pytest

from arena.models import Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_bot, author_user):
    return [make_bot(author_user, f"b{i}").pk for i in range(6)]


def body(bot_ids, **extra):
    data = {"name": "Autumn cup", "game": "duel", "bots": bot_ids, "players_per_match": 2}
    data.update(extra)
    return data


def post(client, data, run_on_commit):
    return run_on_commit(client.post, "/api/tournaments/", data, format="json")


@pytest.mark.parametrize(
    ("change", "field_name", "words"),
    [
        # Six bots: a Swiss can always be paired for 3 rounds without a repeat, not 4.
        ({"format": "swiss", "rounds": 4}, "rounds", "at most 3 rounds"),
        ({"format": "swiss", "rounds": 0}, "rounds", "rounds must be 1-100"),
        ({"format": "swiss", "rounds": 1000}, "rounds", "rounds must be 1-100"),
        ({"format": "knockout", "bots": "first"}, "bots", "needs at least 2 bots"),
        (
            {"format": "table_knockout", "players_per_match": 3, "advance": 3},
            "advance",
            "less than",
        ),
        (
            {"format": "table_knockout", "players_per_match": 3, "advance": 0},
            "advance",
            "at least 1",
        ),
        ({"format": "elimination"}, "format", "unknown format"),
        ({"format": "knockout", "players_per_match": 3}, "players_per_match", "two-player"),
        ({"format": "round_robin", "rounds": 3}, "rounds", "Swiss tournaments only"),
        ({"format": "swiss", "double_elimination": True}, "double_elimination", "knockout"),
        ({"format": "knockout", "advance": 1}, "advance", "table knockouts only"),
        ({"format": "swiss", "rounds": "two"}, "rounds", ""),
    ],
)
def test_bad_formats_get_a_400_naming_the_field(
    organiser, field, run_on_commit, change, field_name, words
):
    if change.get("bots") == "first":
        change = dict(change, bots=field[:1])
    reply = post(organiser, body(field, **change), run_on_commit)
    assert reply.status_code == 400, reply.content
    assert field_name in reply.json() and words in str(reply.json()), reply.json()
    assert not Tournament.objects.exists()


def test_a_swiss_field_larger_than_the_pairing_limit_is_refused(
    organiser, field, run_on_commit, monkeypatch
):
    monkeypatch.setattr("arena.services.rounds.MAX_SWISS_BOTS", 5)
    reply = post(organiser, body(field, format="swiss"), run_on_commit)
    assert reply.status_code == 400 and "at most 5 bots" in reply.json()["bots"][0]


def test_a_cooperative_game_plays_only_round_robins(
    organiser, make_bot, author_user, run_on_commit
):
    crew = [make_bot(author_user, f"c{i}", game="crew").pk for i in range(4)]
    reply = post(organiser, body(crew, game="crew", format="swiss"), run_on_commit)
    assert reply.status_code == 400 and "cooperative" in reply.json()["format"][0]


def test_a_swiss_shows_its_rounds_and_the_default_length(organiser, field, run_on_commit):
    reply = post(organiser, body(field, format="swiss"), run_on_commit)
    assert reply.status_code == 201, reply.content
    data = reply.json()
    assert data["format"] == "swiss" and data["planned_rounds"] == 3  # min(4, 6 / 2)
    assert data["matches_total"] == 9 and data["bracket"] is None
    (first,) = data["rounds"]
    assert first["number"] == 1 and first["status"] == "running" and first["byes"] == []
    assert len(first["tables"]) == 3
    table = first["tables"][0]
    assert table["status"] == "playing" and len(table["bots"]) == 2
    assert table["matches"][0]["status"] == "queued"


def test_a_knockout_shows_its_bracket_with_seeds(organiser, field, run_on_commit):
    reply = post(organiser, body(field[:5], format="knockout"), run_on_commit)
    assert reply.status_code == 201, reply.content
    bracket = {tie["tie"]: tie for tie in reply.json()["bracket"]}
    assert len(bracket) == 7  # 8 slots: 4 + 2 + 1 ties
    assert [bracket[t]["status"] for t in ("W1-1", "W1-2", "W1-3", "W1-4")] == [
        "bye",
        "playing",
        "bye",
        "bye",
    ]
    assert bracket["W1-2"]["seeds"] == [4, 5]
    assert bracket["W3-1"]["status"] == "waiting" and bracket["W3-1"]["winner"] is None


def test_organisers_pause_resume_and_cancel(organiser, field, run_on_commit, enqueued):
    tournament = post(organiser, body(field, format="swiss"), run_on_commit).json()
    url = f"/api/tournaments/{tournament['id']}"
    paused = run_on_commit(organiser.post, f"{url}/pause/")
    assert paused.status_code == 200 and paused.json()["status"] == "paused"
    assert set(Match.objects.values_list("status", flat=True)) == {"held"}
    assert organiser.post(f"{url}/pause/").status_code == 409
    enqueued.clear()
    resumed = run_on_commit(organiser.post, f"{url}/resume/")
    assert resumed.status_code == 200 and resumed.json()["status"] == "running"
    assert sorted(enqueued) == sorted(Match.objects.values_list("id", flat=True))
    assert organiser.post(f"{url}/resume/").status_code == 409
    cancelled = run_on_commit(organiser.post, f"{url}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert organiser.post(f"{url}/cancel/").status_code == 409


def test_pausing_a_finished_tournament_is_a_conflict(organiser, field, run_on_commit):
    tournament = post(organiser, body(field), run_on_commit).json()
    Tournament.objects.filter(pk=tournament["id"]).update(status=Tournament.Status.FINISHED)
    reply = organiser.post(f"/api/tournaments/{tournament['id']}/pause/")
    assert reply.status_code == 409 and "finished" in reply.json()["detail"]


def test_only_organisers_control_tournaments(organiser, author, anonymous, field, run_on_commit):
    tournament = post(organiser, body(field, format="swiss"), run_on_commit).json()
    for action in ("pause", "resume", "cancel"):
        assert author.post(f"/api/tournaments/{tournament['id']}/{action}/").status_code == 403
        assert anonymous.post(f"/api/tournaments/{tournament['id']}/{action}/").status_code == 401
    assert Tournament.objects.get(pk=tournament["id"]).status == Tournament.Status.RUNNING
