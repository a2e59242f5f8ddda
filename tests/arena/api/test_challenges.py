"""Challenges over the API: validation (nothing queued on bad input), pairs, the SPRT, cancel."""

from __future__ import annotations

import pytest

from arena.models import Challenge, Match
from arena.services.results import record_result
from tests.arena.conftest import ENQUEUED_PURPOSES, ENQUEUED_SETS
from tests.arena.services.test_results import outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def versions(make_bot, author_user, other_user):
    """Two of ada's duel versions, bob's duel version, ada's crew version."""
    mine = make_bot(author_user, "mine")
    old = mine.latest_version()
    new = mine.add_version(b"def act(o, legal):\n    return legal[-1]\n", "bot.py")
    theirs = make_bot(other_user, "theirs").latest_version()
    crew = make_bot(author_user, "team", game="crew").latest_version()
    return {"old": old, "new": new, "theirs": theirs, "crew": crew}


def ask(client, run_on_commit, **body):
    body.setdefault("game", "duel")
    return run_on_commit(client.post, "/api/challenges/", body, format="json")


def new_over_old(client, run_on_commit, versions, **body):
    """Ask for the usual challenge: ada's version 2 against her version 1."""
    return ask(
        client, run_on_commit, candidate=versions["new"].pk, baseline=versions["old"].pk, **body
    )


def test_an_owner_starts_a_challenge_whose_first_batches_are_seed_paired_with_seats_swapped(
    author, versions, run_on_commit, enqueued
):
    reply = new_over_old(
        author,
        run_on_commit,
        versions,
        batch_pairs=3,
    )
    assert reply.status_code == 201, reply.content
    data = reply.json()
    assert data["status"] == "running" and data["elo0"] == 0 and data["elo1"] == 5
    assert data["alpha"] == data["beta"] == 0.05 and data["players"] == 2
    assert data["llr_lower"] == pytest.approx(-2.9444) and data["llr_upper"] == pytest.approx(
        2.9444
    )
    assert data["pairs"] == 0 and data["elo"] is None and data["batches_in_flight"] == 2
    matches = list(Match.objects.filter(challenge_id=data["id"]).order_by("id"))
    # Two batches of three pairs, each queued as one set (one task, one worker each).
    assert len(matches) == 12 and sorted(enqueued) == [m.pk for m in matches]
    assert [[m.pk for m in matches[:6]], [m.pk for m in matches[6:]]] == ENQUEUED_SETS
    assert [m.challenge_pair for m in matches] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert {ENQUEUED_PURPOSES[m.pk] for m in matches} == {"challenge"}
    assert {m.purpose for m in matches} == {Match.Purpose.CHALLENGE}
    for first, second in zip(matches[::2], matches[1::2], strict=True):
        assert first.seed == second.seed and first.challenge_pair == second.challenge_pair
        seats = [
            list(m.seats.order_by("seat").values_list("bot_version_id", flat=True))
            for m in (first, second)
        ]
        assert seats[0] == [versions["new"].pk, versions["old"].pk] == seats[1][::-1]
    assert len({m.seed for m in matches}) == 6


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"baseline": "crew"}, "baseline"),  # another game's version
        ({"baseline": "new"}, "baseline"),  # itself
        ({"elo0": 5, "elo1": 5}, "elo1"),
        ({"elo0": 10, "elo1": 0}, "elo1"),
        ({"alpha": 0}, "alpha"),
        ({"alpha": 0.5}, "alpha"),
        ({"beta": 0.7}, "beta"),
        ({"beta": -0.1}, "beta"),
        ({"players": 3}, "opponents"),  # the third seat needs an opponent
        ({"baseline": 999999}, "baseline"),
        ({"max_games": 3}, "max_games"),
        ({"batches_in_flight": 0}, "batches_in_flight"),
        ({"batches_in_flight": 17}, "batches_in_flight"),
    ],
)
def test_bad_challenges_are_a_400_naming_the_field_and_queue_nothing(
    author, versions, run_on_commit, enqueued, change, field
):
    body = {"candidate": versions["new"].pk, "baseline": versions["old"].pk}
    for key, value in change.items():
        body[key] = versions[value].pk if isinstance(value, str) and value in versions else value
    reply = ask(author, run_on_commit, **body)
    assert reply.status_code == 400, reply.content
    assert field in reply.json(), reply.json()
    assert not Challenge.objects.exists() and not Match.objects.exists() and enqueued == []


@pytest.mark.parametrize(
    ("field", "settle", "says"),
    [
        ("candidate", None, "still pending validation"),
        ("candidate", "no act() defined", "was rejected by validation"),
        ("baseline", None, "still pending validation"),
        ("baseline", "crashed in the smoke match", "was rejected by validation"),
    ],
)
def test_a_challenge_naming_a_version_that_is_not_ready_is_a_409_and_queues_nothing(
    author, versions, run_on_commit, enqueued, field, settle, says
):
    mine = versions["new"].bot
    unready = mine.add_version(b"def act(o, legal):\n    return legal[0]\n", "bot.py",
                               validation="pending")  # fmt: skip
    if settle is not None:
        assert unready.try_settle(settle)
    body = {"candidate": versions["new"].pk, "baseline": versions["old"].pk, field: unready.pk}
    reply = ask(author, run_on_commit, **body)
    assert reply.status_code == 409, reply.content
    data = reply.json()
    assert data["code"] == "version_not_ready" and field in data
    assert says in data["detail"] and f"version {unready.pk} (mine v3)" in data["detail"]
    # The rejection's reason is its owner's to read (it may hold stderr), not the answer's.
    assert settle is None or settle not in data["detail"]
    assert not Challenge.objects.exists() and not Match.objects.exists() and enqueued == []


def test_someone_who_owns_neither_version_gets_a_403_and_nothing_is_queued(
    other_author, versions, run_on_commit, enqueued
):
    reply = new_over_old(other_author, run_on_commit, versions)
    assert reply.status_code == 403
    assert not Challenge.objects.exists() and enqueued == []


def test_an_owner_of_the_baseline_or_an_organiser_may_ask(
    other_author, organiser, versions, run_on_commit
):
    reply = ask(
        other_author, run_on_commit, candidate=versions["new"].pk, baseline=versions["theirs"].pk
    )
    assert reply.status_code == 201
    reply = new_over_old(organiser, run_on_commit, versions)
    assert reply.status_code == 201


def test_anonymous_users_may_read_but_not_start(anonymous, author, versions, run_on_commit):
    assert (
        ask(anonymous, run_on_commit, candidate=versions["new"].pk, baseline=1).status_code == 401
    )
    made = new_over_old(author, run_on_commit, versions)
    assert anonymous.get(f"/api/challenges/{made.json()['id']}/").status_code == 200
    assert anonymous.get("/api/challenges/").status_code == 200


def test_multiplayer_challenges_fill_the_other_seats_with_the_same_opponents(
    author, versions, run_on_commit
):
    reply = new_over_old(
        author,
        run_on_commit,
        versions,
        players=3,
        opponents=[versions["theirs"].pk],
        batch_pairs=1,
        batches_in_flight=1,
    )
    assert reply.status_code == 201, reply.content
    first, second = Match.objects.filter(challenge_id=reply.json()["id"]).order_by("id")
    seats = [
        list(m.seats.order_by("seat").values_list("bot_version_id", flat=True))
        for m in (first, second)
    ]
    assert seats[0] == [versions["new"].pk, versions["old"].pk, versions["theirs"].pk]
    assert seats[1] == [versions["old"].pk, versions["new"].pk, versions["theirs"].pk]


def _play_batch(challenge_id: int, candidate_id: int) -> None:
    """The candidate wins every queued game (one pair score of 1 per pair)."""
    for match in Match.objects.filter(challenge_id=challenge_id, status=Match.Status.QUEUED):
        first = match.seats.get(seat=0).bot_version_id
        record_result(match.pk, None, outcome([1, 2] if first == candidate_id else [2, 1]))


def test_batches_update_the_sprt_until_a_clearly_better_candidate_is_accepted(
    author, anonymous, versions, run_on_commit, enqueued
):
    made = new_over_old(
        author,
        run_on_commit,
        versions,
        elo0=0,
        elo1=300,
        batch_pairs=4,
        batches_in_flight=1,
    ).json()
    run_on_commit(_play_batch, made["id"], versions["new"].pk)
    shown = anonymous.get(f"/api/challenges/{made['id']}/").json()
    assert shown["status"] == "running" and shown["pairs"] == 4 and shown["games"] == 8
    assert shown["pair_counts"] == {"0": 0, "0.25": 0, "0.5": 0, "0.75": 0, "1": 4}
    assert 0 < shown["llr"] < shown["llr_upper"]
    assert Match.objects.filter(challenge_id=made["id"]).count() == 16  # the next batch
    assert len(enqueued) == 16
    run_on_commit(_play_batch, made["id"], versions["new"].pk)
    shown = anonymous.get(f"/api/challenges/{made['id']}/").json()
    assert shown["status"] == "accepted" and shown["llr"] >= shown["llr_upper"]
    assert shown["elo"]["elo"] is None or shown["elo"]["low"] > 0
    assert shown["finished_at"] is not None
    assert not Match.objects.filter(challenge_id=made["id"], rated=True).exists()


def test_max_games_ends_an_undecided_challenge_as_inconclusive(author, versions, run_on_commit):
    made = new_over_old(
        author,
        run_on_commit,
        versions,
        max_games=4,
        batch_pairs=2,
    ).json()
    for match in Match.objects.filter(challenge_id=made["id"]):
        record_result(match.pk, None, outcome([1, 1]))  # draws: no evidence either way
    assert Challenge.objects.get(pk=made["id"]).status == "inconclusive"
    shown = author.get(f"/api/challenges/{made['id']}/").json()
    assert shown["elo"] is None or str(shown["elo"]["elo"]) == "0.0"  # never "-0.0"


def test_cancelling_fails_the_queued_games_and_only_once(
    author, other_author, versions, run_on_commit
):
    made = new_over_old(author, run_on_commit, versions).json()
    assert other_author.post(f"/api/challenges/{made['id']}/cancel/").status_code == 403
    reply = author.post(f"/api/challenges/{made['id']}/cancel/")
    assert reply.status_code == 200 and reply.json()["status"] == "cancelled"
    assert not Match.objects.filter(challenge_id=made["id"]).unfinished().exists()
    assert author.post(f"/api/challenges/{made['id']}/cancel/").status_code == 409


def test_a_failed_game_leaves_its_pair_out_and_the_batch_still_completes(
    author, versions, run_on_commit
):
    from arena.services.results import record_failure

    made = new_over_old(
        author,
        run_on_commit,
        versions,
        batch_pairs=2,
        max_games=4,
    ).json()
    first, *others = Match.objects.filter(challenge_id=made["id"]).order_by("id")
    record_failure(first.pk, None, "the worker's disk filled up")
    for match in others:
        record_result(match.pk, None, outcome([1, 2]))
    challenge = Challenge.objects.get(pk=made["id"])
    assert challenge.discarded_pairs == 1 and sum(challenge.counts) == 1
    assert challenge.status == "inconclusive"  # max_games reached


def test_the_reaper_advances_a_complete_batch_whose_advance_was_lost(
    author, versions, run_on_commit, enqueued
):
    from arena.services.challenges import advance_stalled_challenges

    made = new_over_old(
        author,
        run_on_commit,
        versions,
        batch_pairs=1,
        batches_in_flight=1,
    ).json()
    # The games were recorded, but the worker died before it advanced the challenge.
    Match.objects.filter(challenge_id=made["id"]).update(status=Match.Status.FAILED)
    assert run_on_commit(advance_stalled_challenges) == [made["id"]]
    assert Match.objects.filter(challenge_id=made["id"], status=Match.Status.QUEUED).count() == 2
    assert len(enqueued) == 4
    assert advance_stalled_challenges() == []  # the new batch is queued: nothing stalled


def _record_pairs(challenge_id: int, pairs, candidate_id: int, score: float) -> None:
    """Record both games of these pairs: the candidate wins (1), loses (0) or draws (0.5)."""
    for match in Match.objects.filter(challenge_id=challenge_id, challenge_pair__in=pairs):
        first = match.seats.get(seat=0).bot_version_id
        if score == 0.5:
            ranks = [1, 1]
        else:
            ranks = [1, 2] if (first == candidate_id) == (score == 1) else [2, 1]
        record_result(match.pk, None, outcome(ranks))


def test_batches_in_flight_keep_that_many_queued_and_a_verdict_fails_the_rest(
    author, versions, run_on_commit, enqueued
):
    made = new_over_old(
        author, run_on_commit, versions, elo0=0, elo1=300, batch_pairs=2, batches_in_flight=2
    ).json()
    challenge_id, candidate = made["id"], versions["new"].pk
    matches = Match.objects.filter(challenge_id=challenge_id)
    assert matches.count() == 8 and len(ENQUEUED_SETS) == 2  # pairs 0-3, two sets
    # Batch 0 (pairs 0, 1) done: counted, and a third batch keeps two open.
    run_on_commit(_record_pairs, challenge_id, [0, 1], candidate, 1)
    challenge = Challenge.objects.get(pk=challenge_id)
    assert challenge.batches == 1 and challenge.counts == [0, 0, 0, 0, 2]
    assert matches.count() == 12 and len(ENQUEUED_SETS) == 3
    assert sorted(ENQUEUED_SETS[2]) == sorted(
        matches.filter(challenge_pair__in=[4, 5]).values_list("pk", flat=True)
    )
    # One game of batch 1 recorded: the batch is still open, nothing changes.
    first_of_pair_2 = matches.filter(challenge_pair=2).order_by("id").first()
    run_on_commit(record_result, first_of_pair_2.pk, None, outcome([1, 1]))
    assert Challenge.objects.get(pk=challenge_id).batches == 1 and matches.count() == 12
    # Batch 2 finishes before batch 1, and counts.
    run_on_commit(_record_pairs, challenge_id, [4, 5], candidate, 1)
    challenge = Challenge.objects.get(pk=challenge_id)
    assert challenge.batches == 2 and challenge.counts == [0, 0, 0, 0, 4]
    assert matches.count() == 16 and challenge.status == "running"
    # Batch 1 completes (pair 2 drawn, pair 3 won): accepted, and the queued games are
    # not played.
    Match.objects.filter(challenge_id=challenge_id, challenge_pair=7).update(
        status=Match.Status.RUNNING
    )
    run_on_commit(_record_pairs, challenge_id, [3], candidate, 1)
    second_of_pair_2 = matches.filter(challenge_pair=2).order_by("id").last()
    run_on_commit(record_result, second_of_pair_2.pk, None, outcome([1, 1]))
    challenge = Challenge.objects.get(pk=challenge_id)
    assert challenge.status == "accepted" and challenge.counts == [0, 0, 1, 0, 5]
    failed = matches.filter(status=Match.Status.FAILED)
    assert set(failed.values_list("challenge_pair", flat=True)) == {6}
    assert set(failed.values_list("error", flat=True)) == {
        "the challenge was accepted before this game was played"
    }
    # A game already running when the verdict came is recorded and changes nothing.
    for match in matches.filter(challenge_pair=7):
        run_on_commit(record_result, match.pk, None, outcome([2, 1]))
    after = Challenge.objects.get(pk=challenge_id)
    assert (after.status, after.counts, after.batches) == (
        "accepted",
        challenge.counts,
        challenge.batches,
    )
    assert matches.count() == 16


def test_max_games_with_batches_in_flight_waits_for_the_last_open_batch(
    author, versions, run_on_commit
):
    made = new_over_old(
        author, run_on_commit, versions, max_games=8, batch_pairs=2, batches_in_flight=3
    ).json()
    challenge_id, candidate = made["id"], versions["new"].pk
    assert Match.objects.filter(challenge_id=challenge_id).count() == 8  # max_games caps it
    run_on_commit(_record_pairs, challenge_id, [2, 3], candidate, 0.5)
    challenge = Challenge.objects.get(pk=challenge_id)
    assert challenge.status == "running" and challenge.batches == 1
    run_on_commit(_record_pairs, challenge_id, [0, 1], candidate, 0.5)
    challenge = Challenge.objects.get(pk=challenge_id)
    assert challenge.status == "inconclusive" and challenge.counts == [0, 0, 4, 0, 0]
    assert challenge.finished_at is not None


@pytest.fixture
def crews(make_bot, author_user):
    """ada's crew bot: version 1 says 1 (a team of three sums to an odd number: failure),
    version 2 says 2 (even: success)."""
    team = make_bot(author_user, "squad", game="crew", source=b"def act(o, legal):\n    return 1\n")
    odd = team.latest_version()
    even = team.add_version(b"def act(o, legal):\n    return 2\n", "bot.py")
    return {"odd": odd, "even": even}


def test_a_cooperative_challenge_seats_a_whole_team_of_each_version(author, crews, run_on_commit):
    reply = ask(
        author, run_on_commit, game="crew", candidate=crews["even"].pk,
        baseline=crews["odd"].pk, players=3, batch_pairs=2, batches_in_flight=1,
    )  # fmt: skip
    assert reply.status_code == 201, reply.content
    matches = list(Match.objects.filter(challenge_id=reply.json()["id"]).order_by("id"))
    assert len(matches) == 4
    teams = [
        list(m.seats.order_by("seat").values_list("bot_version_id", flat=True)) for m in matches
    ]
    assert teams[0] == [crews["even"].pk] * 3 and teams[1] == [crews["odd"].pk] * 3
    assert matches[0].seed == matches[1].seed != matches[2].seed == matches[3].seed
    # Opponents make no sense when the whole table is one team.
    refused = ask(
        author, run_on_commit, game="crew", candidate=crews["even"].pk,
        baseline=crews["odd"].pk, players=3, opponents=[crews["odd"].pk],
    )  # fmt: skip
    assert refused.status_code == 400 and "whole team" in refused.json()["opponents"][0]


def _record_crew_pair(challenge_id: int, pair: int, successes: dict[int, bool]) -> None:
    """Record both tables of a pair: each team succeeds or fails as `successes` says."""
    for match in Match.objects.filter(challenge_id=challenge_id, challenge_pair=pair):
        team = match.seats.get(seat=0).bot_version_id
        said = 2 if successes[team] else 1
        result = {
            "ranks": [1, 1, 1],
            "scores": [3 * said] * 3,
            "outcome": "success" if successes[team] else "failure",
            "team_score": 3 * said,
        }
        record_result(match.pk, None, outcome([1, 1, 1], [3 * said] * 3, result=result))


def test_cooperative_pairs_score_which_team_alone_succeeded(author, crews, run_on_commit):
    even, odd = crews["even"].pk, crews["odd"].pk
    made = ask(
        author, run_on_commit, game="crew", candidate=even, baseline=odd, players=3,
        batch_pairs=4, batches_in_flight=1, elo0=0, elo1=200,
    ).json()  # fmt: skip
    # Only the candidate's team, only the baseline's, both, neither.
    for pair, successes in enumerate(
        [{even: True, odd: False}, {even: False, odd: True}, {even: True, odd: True},
         {even: False, odd: False}]
    ):  # fmt: skip
        run_on_commit(_record_crew_pair, made["id"], pair, successes)
    challenge = Challenge.objects.get(pk=made["id"])
    assert challenge.counts == [1, 0, 2, 0, 1] and challenge.batches == 1
    # A team with a forfeiting seat did not succeed, whatever the game's outcome says.
    match = Match.objects.filter(challenge_id=made["id"], challenge_pair=4).order_by("id")[0]
    result = {"ranks": [1, 1, 1], "scores": [6] * 3, "outcome": "success", "team_score": 6}
    run_on_commit(
        record_result, match.pk, None,
        outcome([1, 1, 1], [6] * 3, forfeits={1: "timeout"}, result=result),
    )  # fmt: skip
    other = Match.objects.filter(challenge_id=made["id"], challenge_pair=4).order_by("id")[1]
    run_on_commit(record_result, other.pk, None, outcome([1, 1, 1], [3] * 3, result={
        "ranks": [1, 1, 1], "scores": [3] * 3, "outcome": "failure", "team_score": 3}))  # fmt: skip
    from arena.services.challenges import pair_counts

    assert pair_counts(Challenge.objects.get(pk=made["id"]))[0] == [1, 0, 3, 0, 1]
    # The candidate's teams keep succeeding alone: accepted.
    for pair in range(5, 8):
        run_on_commit(_record_crew_pair, made["id"], pair, {even: True, odd: False})
    while Challenge.objects.get(pk=made["id"]).status == "running":
        pairs = Match.objects.filter(challenge_id=made["id"], status=Match.Status.QUEUED)
        for pair in sorted(set(pairs.values_list("challenge_pair", flat=True))):
            run_on_commit(_record_crew_pair, made["id"], pair, {even: True, odd: False})
    assert Challenge.objects.get(pk=made["id"]).status == "accepted"
