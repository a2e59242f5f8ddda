"""Health's 503 rules beyond reachability, through /api/health/ and `manage.py arena_status`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from arena.models import Match

pytestmark = pytest.mark.django_db


def test_a_nearly_full_database_disk_is_a_503_that_names_it(capsys):
    with override_settings(ARENA_HEALTH_MIN_FREE_DISK_PERCENT=100.0):
        reply = APIClient().get("/api/health/")
        assert reply.status_code == 503
        assert reply.json()["failing"] == ["database disk"]
        assert 0 < reply.json()["database"]["free_disk_percent"] < 100
        with pytest.raises(SystemExit) as stopped:
            call_command("arena_status")
    assert stopped.value.code == 1
    assert "UNAVAILABLE: database disk" in capsys.readouterr().out


def test_a_match_waiting_past_the_limit_is_a_503_that_names_the_queue(capsys):
    match = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@2", players=2, seed=1
    )
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(seconds=400))
    reply = APIClient().get("/api/health/")
    assert reply.status_code == 503 and reply.json()["failing"] == ["queue"]
    assert reply.json()["matches"]["waiting"] == 1
    assert reply.json()["matches"]["oldest_wait_seconds"] >= 400
    with override_settings(ARENA_HEALTH_MAX_WAIT_SECONDS=600):
        assert APIClient().get("/api/health/").status_code == 200
        call_command("arena_status", "--json")
    assert '"failing": []' in capsys.readouterr().out


def test_a_worker_node_restarting_in_a_loop_is_a_503():
    from arena.services.health import HEARTBEAT_KEY, STARTS_KEY
    from workers.node.heartbeat import Watch, _redis

    node = f"looping-{timezone.now().timestamp()}"
    try:
        for _ in range(11):  # eleven starts of the node within the hour, as a crash loop gives
            watch = Watch(node, concurrency=2)
            watch._record_start()
            watch.started += 1e-3
        beat = watch.beat_once()
        assert beat["starts_last_hour"] == 11
        reply = APIClient().get("/api/health/")
        assert reply.status_code == 503 and "worker restarts" in reply.json()["failing"]
        with override_settings(ARENA_HEALTH_MAX_STARTS_PER_HOUR=20):
            assert "worker restarts" not in APIClient().get("/api/health/").json()["failing"]
    finally:
        _redis().delete(HEARTBEAT_KEY + node, STARTS_KEY + node)
