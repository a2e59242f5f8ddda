"""Starting tournaments when they are due (the periodic check) and by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import Match, Tournament
from arena.services.tournaments import start_due_tournaments, start_tournament

pytestmark = pytest.mark.django_db


def scheduled(bots, when, name="t"):
    tournament = Tournament.objects.create(
        name=name, game="duel", players_per_match=2, start_at=when
    )
    tournament.bots.set(bots)
    return tournament


def test_due_tournaments_start_and_later_ones_wait(make_bot, author_user, run_on_commit, enqueued):
    bots = [make_bot(author_user, "a"), make_bot(author_user, "b")]
    now = timezone.now()
    due = scheduled(bots, now - timedelta(minutes=1), "due")
    later = scheduled(bots, now + timedelta(hours=1), "later")
    assert run_on_commit(start_due_tournaments, now) == [due.pk]
    assert Tournament.objects.get(pk=due.pk).status == Tournament.Status.RUNNING
    assert Tournament.objects.get(pk=later.pk).status == Tournament.Status.SCHEDULED
    assert len(enqueued) == 1
    assert run_on_commit(start_due_tournaments, now) == []  # nothing starts twice


def test_a_tournament_that_cannot_start_does_not_block_the_others(
    make_bot, author_user, run_on_commit
):
    a, b = make_bot(author_user, "a"), make_bot(author_user, "b")
    now = timezone.now()
    broken = scheduled([a, b], now - timedelta(minutes=2), "broken")
    fine = scheduled([a, b], now - timedelta(minutes=1), "fine")
    broken.bots.set([a])  # lost a bot after it was scheduled
    assert run_on_commit(start_due_tournaments, now) == [fine.pk]
    assert Tournament.objects.get(pk=broken.pk).status == Tournament.Status.SCHEDULED
    assert not Match.objects.filter(tournament=broken).exists()


def test_matches_record_the_latest_version_and_the_rules_version(
    make_bot, author_user, run_on_commit
):
    a, b = make_bot(author_user, "a"), make_bot(author_user, "b")
    a.add_version(b"def act(o, l):\n    return l[0]\n", "v2.py")
    tournament = scheduled([a, b], None)
    (match_id,) = run_on_commit(start_tournament, tournament)
    match = Match.objects.get(pk=match_id)
    versions = {s.bot_id: s.bot_version.number for s in match.seats.all()}
    assert versions == {a.pk: 2, b.pk: 1}
    assert match.rules_version == "duel@1" and match.status == Match.Status.QUEUED
    assert 0 <= match.seed < 2**62


def test_a_failing_enqueue_keeps_the_matches_queued(make_bot, author_user, run_on_commit, settings):
    settings.ARENA_ENQUEUE_MATCHES = "tests.arena.services.test_tournament_start.broken_enqueue"
    tournament = scheduled([make_bot(author_user, "a"), make_bot(author_user, "b")], None)
    ids = run_on_commit(start_tournament, tournament)
    assert Match.objects.get(pk=ids[0]).status == Match.Status.QUEUED


def broken_enqueue(match_ids: list[int], purpose: str) -> None:
    raise ConnectionError("broker down")
