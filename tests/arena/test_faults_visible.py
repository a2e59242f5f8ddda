"""What an organiser sees of faults: attempts on a match, failed reasons, tournament health,
and the admin's re-queue of a failed match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import Match, MatchAttempt, Tournament
from arena.services.attempts import requeue_failed, tournament_health

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(organiser_user, make_bot, author_user, run_on_commit):
    from arena.services.tournaments import create_tournament

    bots = [make_bot(author_user, f"b{i}").pk for i in range(2)]
    return run_on_commit(
        create_tournament,
        organiser_user,
        name="cup",
        game="duel",
        bots=bots,
        players_per_match=2,
        games_per_pairing=2,
    )


def test_a_healthy_tournament_says_ok(tournament, anonymous):
    shown = anonymous.get(f"/api/tournaments/{tournament.pk}/").json()["health"]
    assert shown == {"status": "ok", "reason": "", "requeued": 0, "failed": 0}


def test_lapsed_leases_requeues_and_failures_make_it_degraded_with_reasons(tournament):
    first, second = Match.objects.filter(tournament=tournament).order_by("id")
    assert first.try_claim(deadline_seconds=5)
    Match.objects.filter(pk=first.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    health = tournament_health(tournament)
    assert health["status"] == "degraded" and "lapsed lease" in health["reason"]
    first.refresh_from_db()
    assert first.try_requeue()
    assert "re-queued after an infrastructure fault" in tournament_health(tournament)["reason"]
    second.try_fail("gave up after 6 attempts; the last: sandbox unavailable")
    health = tournament_health(tournament)
    assert health["failed"] == 1 and "sandbox unavailable" in health["reason"]


def test_a_match_shows_every_attempt_and_its_faults(tournament, anonymous):
    match = Match.objects.filter(tournament=tournament).first()
    assert match.try_claim(deadline_seconds=5)
    Match.objects.filter(pk=match.pk).update(
        claimed_by="host:42", deadline_at=timezone.now() - timedelta(seconds=1)
    )
    match.refresh_from_db()
    assert match.try_requeue()
    assert match.try_claim(deadline_seconds=5)
    shown = anonymous.get(f"/api/matches/{match.pk}/").json()
    assert [a["outcome"] for a in shown["attempts"]] == ["lapsed", "running"]
    assert shown["attempts"][0]["worker"] == "host:42"
    assert shown["attempts"][0]["started_at"] and shown["attempts"][0]["ended_at"]
    assert shown["attempt_count"] == 2 and shown["requeues"] == 1
    assert "host:42" in shown["last_infra_error"]


def test_failed_matches_list_with_their_reason(tournament, anonymous):
    match = Match.objects.filter(tournament=tournament).first()
    match.try_fail("gave up after 6 attempts; the last: the sandbox cannot run")
    listed = anonymous.get("/api/matches/?status=failed").json()["results"]
    assert [(m["id"], m["error"]) for m in listed] == [
        (match.pk, "gave up after 6 attempts; the last: the sandbox cannot run")
    ]


def test_an_organiser_requeues_a_failed_match_and_the_tournament_runs_again(tournament):
    matches = list(Match.objects.filter(tournament=tournament))
    for match in matches:
        match.try_fail("worker lost")
    from arena.services.results import finish_tournament_if_done

    finish_tournament_if_done(tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert requeue_failed(matches[0])
    stored = Match.objects.get(pk=matches[0].pk)
    assert stored.status == Match.Status.QUEUED and stored.error == ""
    assert stored.last_infra_error == "worker lost" and stored.attempts == 0
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert not requeue_failed(Match.objects.get(pk=matches[0].pk))  # not failed any more


def test_the_admin_requeue_action_queues_the_failed_match(tournament, client, enqueued):
    admin = User.objects.create_superuser("root", password="admin-pass-1")
    client.force_login(admin)
    match = Match.objects.filter(tournament=tournament).first()
    match.try_fail("worker lost")
    enqueued.clear()
    reply = client.post(
        "/admin/arena/match/",
        {"action": "requeue_failed", "_selected_action": [match.pk]},
        follow=True,
    )
    assert reply.status_code == 200, reply.content
    assert [m.message for m in reply.context["messages"]] == ["re-queued 1 failed matches"]
    assert Match.objects.get(pk=match.pk).status == Match.Status.QUEUED
    page = client.get(f"/admin/arena/match/{match.pk}/change/")
    assert page.status_code == 200 and b"worker lost" in page.content
    assert client.get(f"/admin/arena/tournament/{tournament.pk}/change/").status_code == 200
    assert MatchAttempt.objects.count() == 0
