"""/api/health/ counts a real worker that answers Celery's ping."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db(transaction=True)


def test_health_counts_a_live_worker(start_worker):
    start_worker()
    with override_settings(ARENA_HEALTH_MIN_WORKERS=1):
        # A worker answers pings a moment after it says it is ready.
        for _ in range(20):
            reply = APIClient().get("/api/health/")
            if reply.status_code == 200:
                break
    assert reply.status_code == 200, reply.content
    assert reply.json()["workers"]["count"] >= 1
