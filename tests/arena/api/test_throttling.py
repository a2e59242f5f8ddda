"""Rate limits (429 with Retry-After, counted per user and per anonymous client) and quotas."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import Bot, BotVersion
from tests.arena.conftest import GOOD_BOT

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def rates(settings, **rates):
    settings.ARENA_THROTTLE_RATES = {"anon": None, "user": None, "uploads": None, **rates}


def create(client, name, data=GOOD_BOT):
    upload = SimpleUploadedFile("bot.py", data, content_type="application/octet-stream")
    return client.post(
        "/api/bots/", {"name": name, "game": "duel", "file": upload}, format="multipart"
    )


def test_an_anonymous_client_past_its_rate_gets_a_429_with_retry_after(anonymous, settings):
    rates(settings, anon="3/min")
    assert [anonymous.get("/api/games/").status_code for _ in range(3)] == [200] * 3
    reply = anonymous.get("/api/games/")
    assert reply.status_code == 429
    assert reply.json()["code"] == "throttled"
    assert "Request was throttled" in reply.json()["detail"]
    assert 1 <= int(reply["Retry-After"]) <= 60


def test_counters_are_per_user(author, other_author, settings):
    rates(settings, user="2/min")
    assert [author.get("/api/bots/").status_code for _ in range(3)] == [200, 200, 429]
    # Another user has a counter of their own.
    assert other_author.get("/api/bots/").status_code == 200


def test_a_user_is_not_limited_by_the_anonymous_rate(author, anonymous, settings):
    rates(settings, anon="1/min")
    assert anonymous.get("/api/games/").status_code == 200
    assert anonymous.get("/api/games/").status_code == 429
    assert [author.get("/api/games/").status_code for _ in range(3)] == [200] * 3


def test_uploads_have_their_own_tighter_rate(author, settings):
    rates(settings, uploads="2/hour", user="100/min")
    assert [create(author, f"b{i}").status_code for i in range(2)] == [201, 201]
    reply = create(author, "b3")
    assert reply.status_code == 429 and int(reply["Retry-After"]) > 60
    assert author.get("/api/bots/").status_code == 200  # reading is not an upload


def test_throttle_rates_from_the_environment_are_checked(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from arena.env import env_rate

    monkeypatch.setenv("API_THROTTLE_USER", "5/fortnight")
    with pytest.raises(ImproperlyConfigured, match="API_THROTTLE_USER"):
        env_rate("API_THROTTLE_USER", "1/min")
    monkeypatch.setenv("API_THROTTLE_USER", "off")
    assert env_rate("API_THROTTLE_USER", "1/min") is None
    monkeypatch.setenv("API_THROTTLE_USER", "30/MIN")
    assert env_rate("API_THROTTLE_USER", "1/min") == "30/min"


# --- quotas ---------------------------------------------------------------------------------


def test_a_user_may_own_only_so_many_bots(author, other_author, settings):
    settings.ARENA_MAX_BOTS_PER_USER = 2
    assert [create(author, f"b{i}").status_code for i in range(2)] == [201, 201]
    reply = create(author, "b3")
    assert reply.status_code == 403
    assert reply.json()["code"] == "quota_exceeded"
    assert "you already have 2 bots; the limit is 2 per user" in reply.json()["detail"]
    assert Bot.objects.filter(owner__username="ada").count() == 2
    assert create(other_author, "c1").status_code == 201  # counted per user


def test_versions_per_bot_per_day_are_limited_with_retry_after(author, settings):
    settings.ARENA_MAX_VERSIONS_PER_BOT_PER_DAY = 3
    bot_id = create(author, "alpha").json()["id"]

    def add(n):
        upload = SimpleUploadedFile("bot.py", GOOD_BOT + f"# {n}\n".encode())
        return author.post(f"/api/bots/{bot_id}/versions/", {"file": upload}, format="multipart")

    assert [add(n).status_code for n in range(2)] == [201, 201]
    reply = add(3)
    assert reply.status_code == 429 and reply.json()["code"] == "quota_exceeded"
    assert (
        "3 versions uploaded in the last 24 hours; the limit is 3 a day" in reply.json()["detail"]
    )
    assert 86000 < int(reply["Retry-After"]) <= 86401
    # A day later the oldest upload has left the window.
    BotVersion.objects.filter(bot_id=bot_id, number=1).update(
        created_at=BotVersion.objects.get(bot_id=bot_id, number=1).created_at
        - timedelta(days=1, seconds=1)
    )
    assert add(4).status_code == 201


def test_an_upload_over_the_size_limit_is_refused_with_the_limit(author, settings):
    settings.MAX_BOT_BYTES = 2048
    reply = create(author, "big", GOOD_BOT + b"#" * 4096)
    assert reply.status_code == 400
    assert "the limit is 2048 bytes" in reply.json()["detail"]
