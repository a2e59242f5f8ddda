"""Queues by purpose (workers/queue/routing.py), pure: names, order, prefix, routes.

That a real worker follows this order is shown in tests/workers/pipeline/test_queue_order.py.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from arena.models import Match
from workers.celery import app
from workers.queue import routing


def test_queue_priority_puts_ladder_matches_behind_everything_else():
    order = routing.QUEUE_ORDER
    assert order.index("tournament") < order.index("ladder")
    assert order.index("validation") < order.index("ladder")
    assert order.index("challenge") < order.index("ladder")
    assert {routing.queue_for_purpose(p) for p in Match.Purpose.values} <= set(order)
    assert order[-1] == "ladder"


def test_each_purpose_has_its_queue_and_the_prefix_isolates_them(monkeypatch):
    monkeypatch.delenv("ARENA_QUEUE", raising=False)
    assert routing.queue_for_purpose("ladder") == "ladder"
    assert routing.queue_names() == [
        "maintenance",
        "validation",
        "tournament",
        "challenge",
        "ladder",
    ]
    monkeypatch.setenv("ARENA_QUEUE", "t1")
    assert routing.queue_for_purpose("tournament") == "t1.tournament"
    assert routing.route_task("workers.tasks.schedule_ladders", (), {}, {}) == {
        "queue": "t1.maintenance"
    }
    with pytest.raises(ValueError, match="purpose"):
        routing.queue_for_purpose("fun")


def test_the_broker_takes_from_the_queues_in_order():
    # The tests' broker is Redis (make test); the filesystem broker has no such option.
    assert settings.CELERY_BROKER_URL.startswith("redis")
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["queue_order_strategy"] == "priority"
    assert [q.name for q in app.conf.task_queues] == routing.queue_names()
