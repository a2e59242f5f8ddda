"""GET /api/health/: database, broker and live workers, for load balancers; no secrets.

Real PostgreSQL and Redis (the test run's); the failures are real too: a broker URL
on a port nobody listens on, a database connection pointed at one.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

CLOSED = "127.0.0.1:9"  # the discard port: nothing listens there on this machine


def health(**settings):
    with override_settings(ARENA_HEALTH_TIMEOUT_SECONDS=0.3, **settings):
        return APIClient().get("/api/health/")


def assert_no_secrets(reply) -> None:
    text = reply.content.decode()
    for secret in ("postgres://", "redis://", "127.0.0.1", "password", "SECRET"):
        assert secret not in text, text


def test_healthy_node_answers_200_with_each_check():
    reply = health()
    assert reply.status_code == 200, reply.content
    body = reply.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["broker"]["ok"]
    assert isinstance(body["workers"]["count"], int) and body["workers"]["required"] == 0
    assert reply["Cache-Control"] == "no-store"
    assert_no_secrets(reply)


def test_broker_down_is_503_and_names_no_address():
    reply = health(CELERY_BROKER_URL=f"redis://:hunter2@{CLOSED}/0")
    assert reply.status_code == 503, reply.content
    body = reply.json()
    assert body["status"] == "unavailable" and body["database"]["ok"]
    assert body["broker"] == {"ok": False, "error": "OperationalError"}
    assert body["workers"]["ok"] is False
    assert "hunter2" not in reply.content.decode()
    assert_no_secrets(reply)


def test_too_few_live_workers_is_503():
    reply = health(ARENA_HEALTH_MIN_WORKERS=10_000)
    assert reply.status_code == 503, reply.content
    workers = reply.json()["workers"]
    assert workers["ok"] is False and workers["required"] == 10_000
    assert "fewer than 10000 live workers" in workers["error"]


def test_database_down_is_503():
    saved = dict(connection.settings_dict)
    connection.close()
    host, port = CLOSED.split(":")
    connection.settings_dict.update(HOST=host, PORT=port)
    try:
        reply = health()
    finally:
        connection.close()
        connection.settings_dict.update(HOST=saved["HOST"], PORT=saved["PORT"])
    assert reply.status_code == 503, reply.content
    assert reply.json()["database"] == {"ok": False, "error": "OperationalError"}
    assert_no_secrets(reply)
