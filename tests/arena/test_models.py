"""Model behaviour: immutable versions, claiming a match once, starting a tournament."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User

from arena.errors import Conflict, InvalidInput
from arena.models import Bot, BotVersion, Match, Tournament
from arena.services.tournaments import start_tournament
from tests.arena.conftest import GOOD_BOT

pytestmark = pytest.mark.django_db(transaction=True)


def make_bot(owner: User, name: str, game: str = "duel") -> Bot:
    bot = Bot.objects.create(owner=owner, name=name, game=game)
    bot.add_version(GOOD_BOT, "bot.py")
    return bot


def test_add_version_numbers_versions_and_keeps_their_sha256():
    owner = User.objects.create_user("ann")
    bot = make_bot(owner, "first")
    second = bot.add_version(b"def act(o, l):\n    return l[-1]\n", "v2.py")
    assert [v.number for v in bot.versions.all()] == [1, 2]
    assert second.sha256 == hashlib.sha256(b"def act(o, l):\n    return l[-1]\n").hexdigest()
    assert bytes(BotVersion.objects.get(pk=second.pk).source).startswith(b"def act")


def test_a_saved_version_cannot_be_changed():
    bot = make_bot(User.objects.create_user("ann"), "first")
    version = bot.versions.get()
    version.filename = "other.py"
    with pytest.raises(Conflict):
        version.save()


def test_a_match_is_claimed_once(enqueued):
    owner = User.objects.create_user("ann")
    bots = [make_bot(owner, f"b{i}") for i in range(2)]
    tournament = Tournament.objects.create(name="t", game="duel", players_per_match=2)
    tournament.bots.set(bots)
    (match_id,) = start_tournament(tournament)
    first, second = Match.objects.get(pk=match_id), Match.objects.get(pk=match_id)
    assert first.try_claim() is True
    assert second.try_claim() is False
    assert first.claim_token is not None and first.attempts == 1
    assert enqueued == [match_id]


def test_start_creates_every_match_with_seats_and_cannot_run_twice(enqueued):
    owner = User.objects.create_user("ann")
    bots = [make_bot(owner, f"b{i}") for i in range(4)]
    tournament = Tournament.objects.create(
        name="t", game="duel", players_per_match=3, games_per_pairing=3
    )
    tournament.bots.set(bots)
    ids = start_tournament(tournament)
    assert len(ids) == 4 * 3
    assert sorted(enqueued) == sorted(ids)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    for match in Match.objects.filter(pk__in=ids):
        assert match.seats.count() == 3 and match.rules_version == "duel@1"
    with pytest.raises(Conflict):
        start_tournament(tournament)


def test_start_refuses_too_few_bots(enqueued):
    owner = User.objects.create_user("ann")
    tournament = Tournament.objects.create(name="t", game="duel", players_per_match=3)
    tournament.bots.set([make_bot(owner, "only"), make_bot(owner, "two")])
    with pytest.raises(InvalidInput):
        start_tournament(tournament)
    assert not Match.objects.exists() and enqueued == []


def test_tournament_finishes_when_its_last_match_is_done(enqueued):
    owner = User.objects.create_user("ann")
    tournament = Tournament.objects.create(name="t", game="duel", players_per_match=2)
    tournament.bots.set([make_bot(owner, "a"), make_bot(owner, "b")])
    (match_id,) = start_tournament(tournament)
    assert tournament.try_finish() is False
    Match.objects.filter(pk=match_id).update(status=Match.Status.FINISHED)
    assert tournament.try_finish() is True
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
