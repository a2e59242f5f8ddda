"""Matches: list with filters, detail with seats (stderr for the owner only), replay."""

from __future__ import annotations

import pytest

from arena.models import Challenge, Match, Tournament
from arena.services.tournaments import start_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(make_bot, author_user, other_user, organiser_user, run_on_commit):
    bots = [make_bot(author_user, "a1"), make_bot(other_user, "b1"), make_bot(other_user, "b2")]
    t = Tournament.objects.create(
        name="t", game="duel", players_per_match=2, created_by=organiser_user
    )
    t.bots.set(bots)
    run_on_commit(start_tournament, t)
    return t


def finish(match: Match, ranks: list[int], forfeits: dict[int, str] | None = None) -> None:
    forfeits = forfeits or {}
    for seat in match.seats.all():
        seat.rank = ranks[seat.seat]
        seat.score = ranks[seat.seat]
        seat.forfeit_reason = forfeits.get(seat.seat, "")
        seat.stderr = f"debug output of seat {seat.seat}"
        seat.save()
    match.status = Match.Status.FINISHED
    match.result = {"ranks": ranks}
    match.record = {"game": "duel", "seed": match.seed, "actions": [[0, 1], [1, 2]]}
    match.save()


def test_everyone_lists_matches_with_filters(tournament, anonymous, author_user):
    matches = list(tournament.matches.order_by("id"))
    finish(matches[0], [1, 2])
    everything = anonymous.get("/api/matches/").json()
    # Cursor pages: newest first, no count (test_matches_pages.py).
    assert [m["id"] for m in everything["results"]] == [m.pk for m in reversed(matches)]
    assert {"id", "status", "seats", "game", "rules_version"} <= set(everything["results"][0])
    a1 = author_user.bots.get().pk

    def listed(query: str) -> int:
        return len(anonymous.get(f"/api/matches/?{query}").json()["results"])

    assert listed(f"bot={a1}") == 2
    assert listed("status=finished") == 1
    assert listed(f"tournament={tournament.pk}&game=duel") == 3
    assert listed("game=crew") == 0


@pytest.mark.parametrize("query", ["tournament=abc", "bot=-1", "status=exploded"])
def test_bad_filters_are_a_400(anonymous, tournament, query):
    reply = anonymous.get(f"/api/matches/?{query}")
    assert reply.status_code == 400, reply.content


def test_match_detail_shows_seats_versions_ranks_and_forfeits(tournament, anonymous):
    match = tournament.matches.order_by("id").first()
    finish(match, [2, 1], forfeits={0: "timeout: no answer within 1.0 s"})
    data = anonymous.get(f"/api/matches/{match.pk}/").json()
    assert data["status"] == "finished" and data["seed"] == match.seed
    seat0, seat1 = data["seats"]
    assert seat0["rank"] == 2 and seat0["forfeit_reason"].startswith("timeout")
    assert seat1["rank"] == 1 and seat1["version"] == 1 and seat1["bot"]
    assert seat0["stderr"] is None and seat1["stderr"] is None


def test_stderr_is_shown_to_the_bot_owner_only(tournament, author, other_author, author_user):
    match = tournament.matches.filter(seats__bot__owner=author_user).order_by("id").first()
    finish(match, [1, 2])
    mine = {
        s["owner"]: s["stderr"] for s in author.get(f"/api/matches/{match.pk}/").json()["seats"]
    }
    assert mine["ada"].startswith("debug output") and mine["bob"] is None
    theirs = {
        s["owner"]: s["stderr"]
        for s in other_author.get(f"/api/matches/{match.pk}/").json()["seats"]
    }
    assert theirs["ada"] is None and theirs["bob"].startswith("debug output")


def test_the_replay_is_public_once_the_match_is_finished(tournament, anonymous):
    match = tournament.matches.order_by("id").first()
    waiting = anonymous.get(f"/api/matches/{match.pk}/replay/")
    assert waiting.status_code == 404 and "no replay yet" in waiting.json()["detail"]
    finish(match, [1, 2])
    replay = anonymous.get(f"/api/matches/{match.pk}/replay/")
    assert replay.status_code == 200 and replay.json()["actions"] == [[0, 1], [1, 2]]


def test_a_missing_match_is_a_404(anonymous):
    assert anonymous.get("/api/matches/987654/").status_code == 404
    assert anonymous.get("/api/matches/987654/replay/").status_code == 404


def test_matches_are_read_only(organiser, tournament):
    match = tournament.matches.first()
    assert organiser.post("/api/matches/", {}, format="json").status_code == 405
    assert organiser.delete(f"/api/matches/{match.pk}/").status_code == 405


def test_absent_filters_list_ladder_and_tournament_matches_alike(
    tournament, anonymous, author_user
):
    a1 = author_user.bots.get()
    other = tournament.bots.exclude(pk=a1.pk).first()
    ladder = Match.objects.create(
        game="duel", rules_version="duel@1", players=2, seed=9, purpose=Match.Purpose.LADDER
    )
    for seat, bot in enumerate([a1, other]):
        ladder.seats.create(seat=seat, bot=bot, bot_version=bot.latest_version())
    finish(ladder, [1, 2])

    def listed(query: str) -> set[int]:
        reply = anonymous.get(f"/api/matches/?{query}")
        assert reply.status_code == 200, reply.content
        return {m["id"] for m in reply.json()["results"]}

    challenge = Challenge.objects.create(
        game="duel", candidate=a1.latest_version(), baseline=other.latest_version()
    )
    challenged = Match.objects.create(
        game="duel", rules_version="duel@1", players=2, seed=10,
        purpose=Match.Purpose.CHALLENGE, challenge=challenge,
    )  # fmt: skip
    for seat, bot in enumerate([a1, other]):
        challenged.seats.create(seat=seat, bot=bot, bot_version=bot.latest_version())

    tournament_ids = set(tournament.matches.values_list("id", flat=True))
    everything = tournament_ids | {ladder.pk, challenged.pk}
    assert listed("") == everything
    assert {ladder.pk, challenged.pk} <= listed(f"bot={a1.pk}")
    assert ladder.pk in listed("status=finished")
    assert listed("ladder=true") == {ladder.pk}
    assert listed("ladder=false") == tournament_ids | {challenged.pk}
    assert listed(f"tournament={tournament.pk}") == tournament_ids
    assert listed(f"challenge={challenge.pk}") == {challenged.pk}
    assert listed("game=duel") == everything
