"""A database or Redis outage answers 503 naming the part, never a 500 or a traceback.

The database is this test's own PostgreSQL (stopped and started again), Redis a
redis-server of its own (killed): the shared servers are never touched.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import close_old_connections
from django.test import Client, override_settings

from tests.workers.pipeline.servers import OwnRedis
from tests.workers.pipeline.test_faults import own_database  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]

PAGES = ["/", "/games/moonrollers/", "/api/matches/", "/api/bots/", "/api/games/"]


@pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])
def test_a_database_outage_answers_503_naming_it_and_200_once_it_is_back(own_database, debug):  # noqa: F811
    client = Client(raise_request_exception=False)
    # The response cache (Redis) would answer anonymous reads it holds: ask the database.
    with override_settings(DEBUG=debug, API_CACHE=False):
        assert client.get("/api/matches/").status_code == 200
        own_database.stop()
        for path in PAGES:
            response = client.get(path)
            if path == "/api/games/":  # served from the engine: no database needed
                assert response.status_code == 200
                continue
            assert response.status_code == 503, (path, response.content[:300])
            assert response["Retry-After"] == "30"
            body = response.content.decode()
            assert "Traceback" not in body and "OperationalError" not in body
            if path.startswith("/api/"):
                assert response.json() == {
                    "detail": "the database is unavailable; try again shortly",
                    "code": "unavailable",
                }
            else:
                assert "database is not answering" in body
        health = client.get("/api/health/")
        assert health.status_code == 503 and "database" in health.json()["failing"]
        own_database.start()
        for path in PAGES:
            # What a real server does at each request's start (the test client skips it).
            close_old_connections()
            assert client.get(path).status_code == 200, path


def test_a_redis_outage_leaves_the_api_reading_from_the_database(tmp_path):
    """The throttles' counters and the response cache are in Redis: with it gone, reads
    are answered uncached and unthrottled rather than refused."""
    redis = OwnRedis(tmp_path / "redis", persistent=False)
    redis.start()
    on_redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis.url}
    try:
        with override_settings(
            CACHES={"default": on_redis, "api": on_redis},
            CELERY_BROKER_URL=redis.url,
            ARENA_THROTTLE_RATES={"anon": "1000/min", "user": "1000/min", "uploads": "30/hour"},
        ):
            for alias in ("default", "api"):
                caches[alias].close()
            client = Client(raise_request_exception=False)
            assert client.get("/api/matches/").status_code == 200
            redis.kill()
            for path in PAGES:
                response = client.get(path)
                assert response.status_code == 200, (path, response.content[:300])
            health = client.get("/api/health/")
            assert health.status_code == 503 and "broker" in health.json()["failing"]
    finally:
        redis.kill()
        for alias in ("default", "api"):
            caches[alias].close()
