"""A set's results recorded at once (arena/services/set_results.py), on PostgreSQL.

Two locking reads sent together, then one multi-row write and COMMIT, whatever the
set's size; each match still checked, rated in the set's order and idempotent on its
own, so the rows are those of recording the matches one by one.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection

from arena.models import Match, MatchSeat, Rating, RatingChange, Tournament
from arena.services.results import record_result, record_results
from tests.arena.services.test_results import make_bot, make_match, outcome

pytestmark = pytest.mark.django_db

# A set of six: wins, a loss, a draw, a forfeit; ratings move differently each time.
RESULTS = [
    ([1, 2], [3, 1], {}),
    ([2, 1], [0, 2], {}),
    ([1, 1], [2, 2], {}),
    ([1, 2], [5, 0], {1: "timed out"}),
    ([1, 2], [4, 3], {}),
    ([2, 1], [1, 6], {0: "crashed"}),
]


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("sam")


def _pair(owner: User, prefix: str):
    a, b = make_bot(owner, f"{prefix}a"), make_bot(owner, f"{prefix}b")
    Rating.objects.bulk_create([Rating(bot=a, game="duel"), Rating(bot=b, game="duel")])
    return a, b


def _items(matches, results=RESULTS, tokens=None):
    return [
        (m.pk, None if tokens is None else tokens[i], outcome(ranks, scores, forfeits))
        for i, (m, (ranks, scores, forfeits)) in enumerate(zip(matches, results, strict=True))
    ]


@contextlib.contextmanager
def _statements() -> Iterator[list[str]]:
    """The SQL sent meanwhile."""
    sent: list[str] = []

    def note(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        yield sent


def _rows(a, b, matches):
    """What recording left, with the bots named by seat role rather than id."""
    role = {a.pk: "a", b.pk: "b"}
    seats = [
        (role[s.bot_id], s.seat, s.rank, s.score, s.forfeit_reason, s.rating_before, s.rating_after)
        for m in matches
        for s in MatchSeat.objects.filter(match=m).order_by("seat")
    ]
    stored = [Match.objects.get(pk=m.pk) for m in matches]
    summary = [(m.status, m.rated, m.result, m.decisions) for m in stored]
    history = [
        (role[c.rating.bot_id], c.before, c.after)
        for m in matches
        for c in RatingChange.objects.filter(match=m).order_by("rating__bot_id")
    ]
    ratings = [
        (r.rating, r.games, r.wins, r.draws, r.losses)
        for r in (Rating.objects.get(bot=bot, game="duel") for bot in (a, b))
    ]
    return seats, summary, history, ratings


def test_a_set_is_recorded_in_the_same_statements_whatever_its_size(
    owner, django_assert_num_queries
):
    """BEGIN (a savepoint in a test), lock the matches, lock the ratings, write, COMMIT."""
    a, b = _pair(owner, "")
    for size in (2, 6):
        matches = [make_match([a, b]) for _ in range(size)]
        with django_assert_num_queries(5):
            done = record_results(_items(matches, RESULTS[:size]))
        assert [d.recorded for d in done] == [True] * size


def test_a_set_leaves_the_rows_of_its_matches_recorded_one_by_one(owner):
    a, b = _pair(owner, "set")
    twin_a, twin_b = _pair(owner, "one")
    together = [make_match([a, b]) for _ in RESULTS]
    alone = [make_match([twin_a, twin_b]) for _ in RESULTS]
    assert all(d.recorded for d in record_results(_items(together)))
    for item in _items(alone):
        assert record_result(*item).recorded
    assert _rows(a, b, together) == _rows(twin_a, twin_b, alone)
    assert Rating.objects.get(bot=a, game="duel").games == len(RESULTS)


def test_a_redelivered_set_rates_nothing_twice(owner):
    a, b = _pair(owner, "")
    matches = [make_match([a, b]) for _ in RESULTS]
    record_results(_items(matches))
    first = _rows(a, b, matches)
    again = record_results(_items(matches))
    assert [(d.recorded, d.status) for d in again] == [(False, "finished")] * len(RESULTS)
    assert _rows(a, b, matches) == first
    assert RatingChange.objects.filter(match__in=matches).count() == 2 * len(RESULTS)


def test_a_lapsed_claim_discards_that_matchs_result_only(owner):
    a, b = _pair(owner, "set")
    twin_a, twin_b = _pair(owner, "one")
    together = [make_match([a, b]) for _ in RESULTS]
    alone = [make_match([twin_a, twin_b]) for _ in RESULTS]
    tokens = [uuid.uuid4() for _ in RESULTS]
    for match, token in zip(together, tokens, strict=True):
        Match.objects.filter(pk=match.pk).update(claim_token=token)
    # The third match's claim lapsed and another worker holds it now.
    Match.objects.filter(pk=together[2].pk).update(claim_token=uuid.uuid4())
    done = record_results(_items(together, tokens=tokens))
    assert [d.stale_claim for d in done] == [False, False, True, False, False, False]
    assert [d.recorded for d in done] == [True, True, False, True, True, True]
    assert Match.objects.get(pk=together[2].pk).status == Match.Status.RUNNING
    # The others are rated as if the third had not been played.
    kept = [i for i in range(len(RESULTS)) if i != 2]
    for i in kept:
        assert record_result(*_items(alone)[i]).recorded
    seats, summary, history, ratings = _rows(a, b, [together[i] for i in kept])
    assert (seats, summary, history, ratings) == _rows(twin_a, twin_b, [alone[i] for i in kept])


def test_a_tournaments_set_keeps_the_per_match_path(owner):
    """Standings and the tournament's end are per match: the set path steps aside."""
    a, b = _pair(owner, "")
    tournament = Tournament.objects.create(
        name="t", game="duel", players_per_match=2, status=Tournament.Status.RUNNING
    )
    matches = [make_match([a, b], tournament=tournament) for _ in range(2)]
    with _statements() as sent:
        done = record_results(_items(matches, RESULTS[:2]))
    assert all(d.recorded for d in done)
    assert any("FROM arena_match m" in sql and "ANY" in sql for sql in sent)  # tried
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert Rating.objects.get(bot=a, game="duel").games == 2


def test_a_bots_first_set_creates_its_rating_rows_and_still_records_together(owner):
    """New bots' first set: their rows are created, then the set is written at once,
    not match by match (a ladder's new bots play their first set all the time)."""
    a, b = make_bot(owner, "a"), make_bot(owner, "b")
    twin_a, twin_b = _pair(owner, "one")
    matches = [make_match([a, b]) for _ in range(3)]
    alone = [make_match([twin_a, twin_b]) for _ in range(3)]
    with _statements() as sent:
        done = record_results(_items(matches, RESULTS[:3]))
    assert [d.recorded for d in done] == [True] * 3
    assert not [sql for sql in sent if "WHERE m.id = %s" in sql]  # no match on its own
    assert len([sql for sql in sent if sql.lstrip().startswith("WITH")]) == 1  # one write
    for item in _items(alone, RESULTS[:3]):
        assert record_result(*item).recorded
    assert _rows(a, b, matches) == _rows(twin_a, twin_b, alone)
    assert Rating.objects.get(bot=a, game="duel").games == 3


def test_a_sets_records_are_stored_as_recording_one_by_one_stores_them(owner):
    """Records and results go as one JSON array per set (not a text[] psycopg quotes
    element by element): awkward text and every JSON type arrive intact, in order."""
    a, b = _pair(owner, "set")
    twin_a, twin_b = _pair(owner, "one")
    awkward = [
        {"actions": [["say", 'quote " backslash \\ brace } comma , nul-free ünïcödé 🌒']]},
        {"actions": [[1, 2.5, True, None, {"k": []}]], "seed": 2**40, "note": '{"a": 1}'},
        {"actions": [], "empty": "", "list": [[], {}, [[]]]},
    ]
    together = [make_match([a, b]) for _ in awkward]
    alone = [make_match([twin_a, twin_b]) for _ in awkward]
    items = []
    for record, results in zip(awkward, RESULTS, strict=False):
        played = outcome(*results)
        played.record.clear()
        played.record.update(record)
        items.append(played)
    assert all(
        d.recorded
        for d in record_results([(m.pk, None, o) for m, o in zip(together, items, strict=True)])
    )
    for match, played in zip(alone, items, strict=True):
        assert record_result(match.pk, None, played).recorded
    stored = [Match.objects.get(pk=m.pk).record for m in together]
    assert stored == [Match.objects.get(pk=m.pk).record for m in alone]
    assert [
        {k: v for k, v in r.items() if k in awkward[i]} for i, r in enumerate(stored)
    ] == awkward


def test_with_the_claims_a_set_writes_their_attempts_in_its_transaction(owner):
    """Recorded, discarded (a lapsed claim) and already-done matches: an attempt for the
    first two kinds, sent in the write's round trip; a redelivery records nothing again."""
    from arena.models import MatchAttempt
    from arena.services.attempts import ending

    a, b = _pair(owner, "")
    matches = [make_match([a, b]) for _ in range(4)]
    tokens = [uuid.uuid4() for _ in matches]
    for match, token in zip(matches, tokens, strict=True):
        Match.objects.filter(pk=match.pk).update(claim_token=token)
        match.claim_token, match.claimed_by = token, "host:7"
        match.claimed_at = match.created_at
    Match.objects.filter(pk=matches[1].pk).update(claim_token=uuid.uuid4())  # lapsed
    record_results(_items(matches[3:], RESULTS[:1], tokens=tokens[3:]))  # done before
    items = _items(matches, RESULTS[:4], tokens=tokens)
    with _statements() as sent:
        done = record_results(items, claims=matches)
    assert [(d.recorded, d.stale_claim, d.attempt_logged) for d in done] == [
        (True, False, True),
        (False, True, True),
        (True, False, True),
        (False, False, False),  # nothing to log
    ]
    assert [sql.split()[0] for sql in sent if "SAVEPOINT" not in sql] == [
        "SELECT",
        "SELECT",
        "WITH",
        "INSERT",
    ]
    logged = {
        a.match_id: (a.outcome, a.detail, a.worker, a.claim_token, a.started_at)
        for a in MatchAttempt.objects.filter(match__in=matches)
    }
    expected = {
        m.pk: (*ending(d), "host:7", m.claim_token, m.claimed_at)
        for m, d in zip(matches, done, strict=True)
        if ending(d) is not None
    }
    assert logged == expected and set(logged) == {matches[0].pk, matches[1].pk, matches[2].pk}
    again = record_results(items, claims=matches)
    assert not any(d.recorded for d in again)
    # Recorded ones are not logged twice; the lapsed claim's result is discarded again.
    outcomes = sorted(
        MatchAttempt.objects.filter(match__in=matches).values_list("outcome", flat=True)
    )
    assert outcomes == ["discarded", "discarded", "recorded", "recorded"]


def test_claims_that_are_not_the_items_matches_are_refused_and_the_set_recorded_alone(owner):
    a, b = _pair(owner, "")
    matches = [make_match([a, b]) for _ in range(2)]
    done = record_results(_items(matches, RESULTS[:2]), claims=matches[::-1])
    assert all(d.recorded and not d.attempt_logged for d in done)
