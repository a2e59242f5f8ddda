"""Uploads are validated off the request: 201 pending, then a worker's smoke match settles them.

Here the worker's side (`validate_version`) is called directly with the arena tests' fake
smoke tests; tests/workers/pipeline/test_validation.py runs it through a real worker.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import BotVersion, Tournament
from arena.services.validation import resend_stale_validations, validate_version
from tests.arena.conftest import GOOD_BOT

pytestmark = pytest.mark.django_db


def create(client, name="alpha", game="duel", data=GOOD_BOT):
    upload = SimpleUploadedFile("bot.py", data, content_type="application/octet-stream")
    return client.post(
        "/api/bots/", {"name": name, "game": game, "file": upload}, format="multipart"
    )


def add_version(client, bot_id, data=GOOD_BOT):
    upload = SimpleUploadedFile("bot.py", data, content_type="application/octet-stream")
    return client.post(f"/api/bots/{bot_id}/versions/", {"file": upload}, format="multipart")


def test_an_upload_is_stored_pending_and_its_validation_queued_after_commit(
    author, validations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        reply = create(author)
    assert reply.status_code == 201
    version = reply.json()["latest_version"]
    assert version["validation"] == "pending" and version["validation_error"] == ""
    stored = BotVersion.objects.get()
    assert validations == [stored.pk]


def test_no_validation_is_queued_before_the_upload_commits(author, validations):
    assert create(author).status_code == 201
    assert validations == []  # still inside the test's transaction


def test_a_version_that_plays_its_smoke_match_becomes_ready(author):
    create(author)
    version = BotVersion.objects.get()
    assert validate_version(version.pk) == "ready"
    version.refresh_from_db()
    assert version.validation == "ready" and version.validated_at is not None
    assert validate_version(version.pk) == "already"  # a redelivery changes nothing


def test_a_refused_version_is_rejected_with_its_reason_shown_to_its_owner_only(
    author, anonymous, other_author, settings
):
    bot_id = create(author).json()["id"]
    settings.ARENA_SMOKE_TEST = "tests.arena.conftest.smoke_refuses"
    version = BotVersion.objects.get()
    assert validate_version(version.pk) == "rejected"
    mine = author.get(f"/api/bots/{bot_id}/versions/").json()[0]
    assert mine["validation"] == "rejected"
    assert mine["validation_error"] == (
        "the bot failed its smoke match: the bot forfeited its smoke match: timeout"
    )
    for stranger in (anonymous, other_author):
        seen = stranger.get(f"/api/bots/{bot_id}/versions/").json()[0]
        assert seen["validation"] == "rejected" and seen["validation_error"] is None


def test_a_smoke_test_that_breaks_leaves_the_version_pending(author, settings):
    create(author)
    settings.ARENA_SMOKE_TEST = "tests.arena.api.test_upload_validation.broken_smoke_test"
    version = BotVersion.objects.get()
    with pytest.raises(RuntimeError, match="bwrap"):
        validate_version(version.pk)
    version.refresh_from_db()
    assert version.validation == "pending"


def broken_smoke_test(game, source, filename):
    raise RuntimeError("bwrap is not installed")


def test_an_empty_smoke_setting_makes_an_upload_ready_at_once(author, settings, validations):
    settings.ARENA_SMOKE_TEST = ""
    assert create(author).json()["latest_version"]["validation"] == "ready"
    assert validations == []


def test_an_unloadable_validation_queue_is_a_503_and_stores_nothing(author, settings):
    settings.ARENA_ENQUEUE_VALIDATION = "no.such.module.enqueue"
    reply = create(author)
    assert reply.status_code == 503 and "validation queue" in reply.json()["detail"]
    assert not BotVersion.objects.exists()


def test_a_new_version_is_pending_and_the_ready_one_keeps_playing(author, organiser):
    bot_id = create(author).json()["id"]
    validate_version(BotVersion.objects.get().pk)
    reply = add_version(author, bot_id, GOOD_BOT + b"# v2\n")
    assert reply.status_code == 201 and reply.json()["validation"] == "pending"
    from arena.models import Bot

    bot = Bot.objects.get(pk=bot_id)
    assert bot.latest_version().number == 2
    assert bot.latest_ready_version().number == 1


def test_a_bot_without_a_ready_version_cannot_enter_a_tournament(author, organiser):
    pending = create(author, "pending-bot").json()["id"]
    ready = create(author, "ready-bot").json()["id"]
    validate_version(BotVersion.objects.get(bot_id=ready).pk)
    reply = organiser.post(
        "/api/tournaments/",
        {"name": "cup", "game": "duel", "bots": [pending, ready], "players_per_match": 2},
        format="json",
    )
    assert reply.status_code == 400
    assert "has no version that passed validation" in reply.json()["detail"]
    assert not Tournament.objects.exists()


def test_a_tournament_seats_the_latest_ready_version_not_a_pending_one(
    author, organiser, run_on_commit
):
    ids = [create(author, name).json()["id"] for name in ("a", "b")]
    for version in BotVersion.objects.all():
        validate_version(version.pk)
    add_version(author, ids[0], GOOD_BOT + b"# v2, pending\n")
    reply = organiser.post(
        "/api/tournaments/",
        {"name": "cup", "game": "duel", "bots": ids, "players_per_match": 2},
        format="json",
    )
    assert reply.status_code == 201, reply.json()
    from arena.models import MatchSeat

    numbers = {seat.bot_version.number for seat in MatchSeat.objects.filter(bot_id=ids[0])}
    assert numbers == {1}


def test_pending_versions_whose_message_was_lost_are_sent_again_spaced_out(author, validations):
    from datetime import timedelta

    from django.utils import timezone

    create(author)
    version = BotVersion.objects.get()
    later = timezone.now() + timedelta(seconds=120)
    assert resend_stale_validations(later, older_than=60) == 1
    assert validations == [version.pk]
    assert resend_stale_validations(later + timedelta(seconds=1), older_than=60) == 0
    assert resend_stale_validations(later + timedelta(seconds=61), older_than=60) == 1
    validate_version(version.pk)
    assert resend_stale_validations(later + timedelta(seconds=200), older_than=60) == 0
