"""A finished match and its replay are immutable: ETag and Last-Modified, 304 when current;
the replay is the stored JSON as it is (not parsed and re-encoded)."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from arena.models import Match
from tests.arena.api.test_matches import finish, tournament  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def test_a_finished_replay_has_validators_and_answers_304_when_current(tournament, anonymous):  # noqa: F811
    match = tournament.matches.order_by("id").first()
    finish(match, [1, 2])
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now())
    first = anonymous.get(f"/api/matches/{match.pk}/replay/")
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    assert json.loads(first.content) == Match.objects.get(pk=match.pk).record
    assert first["ETag"] and first["Last-Modified"] and "max-age" in first["Cache-Control"]
    again = anonymous.get(f"/api/matches/{match.pk}/replay/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    since = anonymous.get(
        f"/api/matches/{match.pk}/replay/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]
    )
    assert since.status_code == 304
    stale = anonymous.get(f"/api/matches/{match.pk}/replay/", HTTP_IF_NONE_MATCH='"other"')
    assert stale.status_code == 200


def test_a_finished_match_detail_has_a_validator_per_viewer(tournament, anonymous, author):  # noqa: F811
    match = tournament.matches.order_by("id").first()
    finish(match, [1, 2])
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now())
    seen = anonymous.get(f"/api/matches/{match.pk}/")
    assert seen.status_code == 200 and seen["ETag"]
    assert (
        anonymous.get(f"/api/matches/{match.pk}/", HTTP_IF_NONE_MATCH=seen["ETag"]).status_code
        == 304
    )
    # The owner sees stderr: another representation, so another validator.
    assert (
        author.get(f"/api/matches/{match.pk}/", HTTP_IF_NONE_MATCH=seen["ETag"]).status_code == 200
    )


def test_an_unfinished_match_has_no_validators(tournament, anonymous):  # noqa: F811
    match = tournament.matches.order_by("id").first()
    Match.objects.filter(pk=match.pk).update(status="running", claimed_at=timezone.now())
    reply = anonymous.get(f"/api/matches/{match.pk}/")
    assert reply.status_code == 200 and not reply.has_header("ETag")
