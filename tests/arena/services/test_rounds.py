"""Swiss and knockout rounds through the real result path (PostgreSQL, the recording
transaction): each round opens when the last match of the previous one is recorded.

Matches are "played" by handing `record_result` an outcome, as a worker would after the
referee; the queue is the recording stand-in of tests/arena/conftest.py.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from arena.errors import Conflict
from arena.models import Match, MatchSeat, Rating, Tournament, TournamentRound
from arena.services import control
from arena.services.brackets import bracket_summary, champion_of
from arena.services.results import record_result
from arena.services.rounds import advance
from arena.services.tournaments import create_tournament, tournament_standings
from tests.arena.conftest import ENQUEUED_PURPOSES

pytestmark = pytest.mark.django_db


@dataclass
class Outcome:
    ranks: list[int]
    scores: list[Any]
    record: dict[str, Any] = field(default_factory=dict)
    forfeits: dict[int, str] = field(default_factory=dict)
    stderr: list[str] = field(default_factory=list)
    decisions: int = 1
    seconds: float = 0.01
    result: dict[str, Any] = field(default_factory=dict)


def strongest_wins(match: Match) -> Outcome:
    """The bot with the lowest id wins; the rest follow in id order."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    order = sorted(s.bot_id for s in seats)
    ranks = [order.index(s.bot_id) + 1 for s in seats]
    return Outcome(ranks=ranks, scores=[-r for r in ranks])


def play_queued(run_on_commit, enqueued, decide=strongest_wins, limit=1000) -> int:
    """Play every match the queue received, and those that playing them enqueues."""
    played = 0
    while enqueued and played < limit:
        match_id = enqueued.pop(0)
        match = Match.objects.prefetch_related("seats").get(pk=match_id)
        if match.status != Match.Status.QUEUED:
            continue
        run_on_commit(record_result, match_id, None, decide(match))
        played += 1
    return played


@pytest.fixture
def field_of(make_bot, author_user):
    def make(n: int):
        return [make_bot(author_user, f"bot{i:02d}") for i in range(n)]

    return make


def new(organiser_user, bots, run_on_commit, **kwargs):
    kwargs.setdefault("players_per_match", 2)
    return run_on_commit(
        create_tournament,
        organiser_user,
        name="cup",
        game="duel",
        bots=[b.pk for b in bots],
        **kwargs,
    )


def test_a_swiss_runs_round_by_round_to_the_end(organiser_user, field_of, run_on_commit, enqueued):
    bots = field_of(5)
    tournament = new(organiser_user, bots, run_on_commit, format="swiss")
    assert tournament.planned_rounds == 3  # min(ceil(log2 5) + 1, (5 + 1) / 2)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    assert len(enqueued) == 2  # two tables, one bye
    play_queued(run_on_commit, enqueued)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # Every round's matches went to the tournament queue.
    assert set(ENQUEUED_PURPOSES.values()) == {"tournament"} and len(ENQUEUED_PURPOSES) == 6
    rounds = list(tournament.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3] and all(r.is_finished() for r in rounds)
    pairs = [frozenset(t["bots"]) for r in rounds for t in r.tables]
    assert len(pairs) == len(set(pairs)) == 6
    byes = [b for r in rounds for b in r.byes]
    assert len(byes) == len(set(byes)) == 3
    standings = tournament_standings(tournament)
    assert standings[0]["bot_id"] == bots[0].pk and standings[0]["points"] == 3.0
    assert "buchholz_cut1" in standings[0]["tiebreaks"]


def test_a_round_is_opened_once_whatever_the_repeats(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(4)
    tournament = new(organiser_user, bots, run_on_commit, format="swiss", rounds=2)
    first, second = list(enqueued)
    enqueued.clear()
    run_on_commit(record_result, first, None, strongest_wins(Match.objects.get(pk=first)))
    last = Match.objects.get(pk=second)
    run_on_commit(record_result, second, None, strongest_wins(last))
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    # The result delivered again, and the hook called again by hand: nothing new.
    again = run_on_commit(record_result, second, None, strongest_wins(last))
    assert not again.recorded
    locked = Tournament.objects.get(pk=tournament.pk)
    assert not run_on_commit(advance, locked)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    assert Match.objects.filter(tournament=tournament).count() == 4


def test_a_knockout_seeds_by_rating_and_gives_the_top_seeds_byes(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(6)
    # The last-made bot is rated best: it is seed 1 and gets a bye.
    for i, bot in enumerate(bots):
        Rating.objects.update_or_create(bot=bot, game="duel", defaults={"rating": 1500 + 10 * i})
    tournament = new(organiser_user, bots, run_on_commit, format="knockout")
    seeds = [bot for bot, _ in Tournament.objects.get(pk=tournament.pk).entrants]
    assert seeds == [b.pk for b in reversed(bots)]
    bracket = {t["tie"]: t for t in bracket_summary(Tournament.objects.get(pk=tournament.pk))}
    assert bracket["W1-1"]["status"] == "bye" and bracket["W1-1"]["winner"] == seeds[0]
    assert bracket["W1-3"]["status"] == "bye" and bracket["W1-3"]["winner"] == seeds[1]
    assert bracket["W1-2"]["seeds"] == [4, 5] and bracket["W1-4"]["seeds"] == [3, 6]
    play_queued(run_on_commit, enqueued)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert champion_of(tournament) == bots[0].pk  # the lowest id wins every game
    assert Match.objects.filter(tournament=tournament).count() == 5
    # Standings follow the bracket: the champion, the finalist, then the semi-finalists.
    standings = [row["bot_id"] for row in tournament_standings(tournament)]
    assert standings[:2] == [bots[0].pk, bots[1].pk]
    assert set(standings[2:4]) == {bots[4].pk, bots[5].pk}  # seeds 1 and 2 lost round 2


def test_a_level_set_gets_extra_pairs_then_goes_to_the_better_seed(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(2)
    tournament = new(organiser_user, bots, run_on_commit, format="knockout", games_per_pairing=2)

    def seat_zero_wins(match):
        return Outcome(ranks=[1, 2], scores=[1, 0])

    play_queued(run_on_commit, enqueued, seat_zero_wins)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # Two games, then two extra pairs (the cap), each level: the better seed wins.
    matches = list(Match.objects.filter(tournament=tournament).prefetch_related("seats"))
    assert len(matches) == 6
    seats = [sorted(m.seats.all(), key=lambda s: s.seat)[0].bot_id for m in matches]
    assert seats.count(bots[0].pk) == seats.count(bots[1].pk) == 3
    seed_one = Tournament.objects.get(pk=tournament.pk).entrants[0][0]
    assert champion_of(tournament) == seed_one


def test_double_elimination_runs_to_a_champion(organiser_user, field_of, run_on_commit, enqueued):
    bots = field_of(5)
    tournament = new(
        organiser_user, bots, run_on_commit, format="knockout", double_elimination=True
    )
    play_queued(run_on_commit, enqueued)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert champion_of(tournament) == bots[0].pk
    assert Match.objects.filter(tournament=tournament).count() == 2 * 5 - 2


def test_a_table_knockout_advances_the_top_of_each_table_to_one_final(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(12)
    tournament = new(
        organiser_user, bots, run_on_commit, format="table_knockout", players_per_match=3
    )
    first = TournamentRound.objects.get(tournament=tournament, number=1)
    seeds = [bot for bot, _ in Tournament.objects.get(pk=tournament.pk).entrants]
    assert [t["bots"] for t in first.tables][0] == [seeds[0], seeds[7], seeds[8]]
    play_queued(run_on_commit, enqueued)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    rounds = list(tournament.rounds.order_by("number"))
    assert [len(r.tables) for r in rounds] == [4, 2, 1]
    assert champion_of(tournament) == bots[0].pk
    final = rounds[-1].tables[0]["order"]
    assert [row["bot_id"] for row in tournament_standings(tournament)][:2] == final
    winners = sorted(b for t in rounds[0].tables for b in t["advancing"])
    assert winners == sorted(min(t["bots"]) for t in rounds[0].tables)


def test_pause_holds_new_matches_and_resume_finishes(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(4)
    tournament = new(organiser_user, bots, run_on_commit, format="swiss", rounds=2)
    first, second = list(enqueued)
    enqueued.clear()
    run_on_commit(record_result, first, None, strongest_wins(Match.objects.get(pk=first)))
    run_on_commit(control.pause, tournament, organiser_user)
    assert Match.objects.get(pk=second).status == Match.Status.HELD
    # A worker given the held match finds nothing to claim.
    assert not Match.objects.get(pk=second).try_claim()
    run_on_commit(control.resume, tournament, organiser_user)
    assert enqueued == [second]
    # Paused while its last match runs: the round ends, the next waits for resume.
    match = Match.objects.get(pk=second)
    assert match.try_claim()
    run_on_commit(control.pause, tournament, organiser_user)
    enqueued.clear()
    run_on_commit(record_result, second, match.claim_token, strongest_wins(match))
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    assert enqueued == []
    run_on_commit(control.resume, tournament, organiser_user)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    play_queued(run_on_commit, enqueued)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    with pytest.raises(Conflict):
        control.pause(tournament, organiser_user)


def test_cancel_keeps_every_recorded_result_and_rating(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(6)
    tournament = new(organiser_user, bots, run_on_commit, format="swiss")
    enqueued_now = list(enqueued)
    enqueued.clear()
    run_on_commit(
        record_result, enqueued_now[0], None, strongest_wins(Match.objects.get(pk=enqueued_now[0]))
    )
    ratings = {r.bot_id: r.rating for r in Rating.objects.filter(game="duel")}
    recorded = Match.objects.get(pk=enqueued_now[0])
    run_on_commit(control.cancel, tournament, organiser_user)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert {r.bot_id: r.rating for r in Rating.objects.filter(game="duel")} == ratings
    kept = Match.objects.get(pk=recorded.pk)
    assert kept.status == Match.Status.FINISHED and kept.result == recorded.result
    unplayed = Match.objects.filter(pk__in=enqueued_now[1:])
    assert all(m.status == Match.Status.FAILED and "cancelled" in m.error for m in unplayed)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    assert tournament_standings(tournament)[0]["bot_id"] == bots[0].pk
    with pytest.raises(Conflict):
        control.cancel(tournament, organiser_user)


def test_entrants_and_versions_are_frozen_at_the_start(
    organiser_user, field_of, run_on_commit, enqueued, make_bot, author_user
):
    bots = field_of(4)
    tournament = new(organiser_user, bots, run_on_commit, format="swiss", rounds=2)
    first_versions = {b.pk: b.latest_version().pk for b in bots}
    for bot in bots:
        bot.add_version(b"def act(o, l):\n    return l[-1]\n", "v2.py")
    late = make_bot(author_user, "late")
    tournament.bots.add(late)
    play_queued(run_on_commit, enqueued)
    seats = MatchSeat.objects.filter(match__tournament=tournament).values_list(
        "bot_id", "bot_version_id"
    )
    assert {bot for bot, _ in seats} == set(first_versions)
    assert all(first_versions[bot] == version for bot, version in seats)


def test_no_bot_sits_at_two_tables_of_a_round(organiser_user, field_of, run_on_commit, enqueued):
    bots = field_of(9)
    tournament = new(
        organiser_user, bots, run_on_commit, format="swiss", players_per_match=3, rounds=4
    )
    play_queued(run_on_commit, enqueued)
    for one_round in tournament.rounds.all():
        seated = [b for t in one_round.tables for b in t["bots"]] + one_round.byes
        assert sorted(seated) == sorted(b.pk for b in bots)
    # Nine bots, four rounds of three tables: nobody meets anyone twice (the affine
    # plane of order 3 exists, and the pairing finds one here).
    met = [
        frozenset((a, b))
        for one_round in tournament.rounds.all()
        for table in one_round.tables
        for i, a in enumerate(table["bots"])
        for b in table["bots"][i + 1 :]
    ]
    assert len(met) == len(set(met)) == 36
    # Seats balance within one over the event (each bot: 4 tables, 3 seats).
    counts = {b.pk: [0, 0, 0] for b in bots}
    for match in Match.objects.filter(tournament=tournament).prefetch_related("seats"):
        for seat in match.seats.all():
            counts[seat.bot_id][seat.seat] += 1
    assert all(max(c) - min(c) <= 1 for c in counts.values()), counts


def test_duplicate_seats_play_each_table_as_sets_on_one_seed(
    organiser_user, field_of, run_on_commit, enqueued
):
    bots = field_of(6)
    tournament = new(
        organiser_user,
        bots,
        run_on_commit,
        format="table_knockout",
        players_per_match=3,
        games_per_pairing=3,
        duplicate_seats=True,
    )
    first = list(Match.objects.filter(tournament=tournament).prefetch_related("seats"))
    assert len(first) == 6 and all(m.purpose == Match.Purpose.TOURNAMENT for m in first)
    by_set: dict[int, list[Match]] = {}
    for match in first:
        by_set.setdefault(match.match_set_id, []).append(match)
    assert len(by_set) == 2
    for matches in by_set.values():
        assert len({m.seed for m in matches}) == 1
        assert sorted(m.set_index for m in matches) == [0, 1, 2]
        # Every bot of the table sits in every seat once.
        for bot in {s.bot_id for m in matches for s in m.seats.all()}:
            seats = sorted(s.seat for m in matches for s in m.seats.all() if s.bot_id == bot)
            assert seats == [0, 1, 2]
    play_queued(run_on_commit, enqueued)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert champion_of(tournament) == bots[0].pk


def test_a_lost_worker_does_not_undo_a_pause(organiser_user, field_of, run_on_commit, enqueued):
    bots = field_of(4)
    tournament = new(organiser_user, bots, run_on_commit, format="swiss", rounds=2)
    match = Match.objects.get(pk=enqueued[0])
    assert match.try_claim()
    run_on_commit(control.pause, tournament, organiser_user)
    # The worker vanished: the reaper finds the claim past its deadline.
    later = timezone.now() + timedelta(days=1)
    assert match.try_requeue(later)
    assert match.status == Match.Status.HELD
    enqueued.clear()
    run_on_commit(control.resume, tournament, organiser_user)
    assert Match.objects.get(pk=match.pk).status == Match.Status.QUEUED
    assert match.pk in enqueued


@pytest.mark.django_db(transaction=True)
def test_two_workers_recording_a_rounds_last_matches_at_once_open_one_round(
    organiser_user, field_of, enqueued
):
    bots = field_of(4)
    tournament = create_tournament(
        organiser_user,
        name="race",
        game="duel",
        bots=[b.pk for b in bots],
        players_per_match=2,
        format="swiss",
        rounds=2,
    )
    ids = list(Match.objects.filter(tournament=tournament).values_list("pk", flat=True))
    outcomes = {i: strongest_wins(Match.objects.prefetch_related("seats").get(pk=i)) for i in ids}
    barrier = threading.Barrier(len(ids))
    errors = []

    def record(match_id):
        try:
            barrier.wait()
            record_result(match_id, None, outcomes[match_id])
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=record, args=(i,)) for i in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    assert Match.objects.filter(tournament=tournament, round__number=2).count() == 2
