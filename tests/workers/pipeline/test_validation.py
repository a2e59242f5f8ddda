"""Upload validation through the real service: the web request stores, a worker validates.

An upload over the API answers 201 with the version `pending`, having started no process;
a real `celery -A workers worker` on the validation queue plays the smoke match in the
bubblewrap sandbox and marks the version `ready`, or `rejected` with the reason its owner
reads on the API.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import BotVersion
from tests.workers.pipeline.conftest import wait_for_validation
from workers.queue import routing

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"
ILLEGAL_BOT = b"def act(observation, legal_actions):\n    return 'not a legal action'\n"


def author_client(username: str) -> APIClient:
    user = User.objects.create_user(username, password="author-pass-1")
    client = APIClient()
    client.force_authenticate(user)
    return client


def upload(client: APIClient, name: str, source: bytes) -> dict:
    reply = client.post(
        "/api/bots/",
        {"name": name, "game": "moonrollers", "file": SimpleUploadedFile("bot.py", source)},
        format="multipart",
    )
    assert reply.status_code == 201, reply.content
    return reply.json()


def test_an_upload_starts_no_process_in_the_web_process(transactional_db, queue_name, monkeypatch):
    monkeypatch.setenv("ARENA_QUEUE", queue_name)
    assert django_settings.ARENA_SMOKE_TEST == "workers.play.smoke.smoke_test"  # the real one
    started: list[str] = []

    def refuse(what):
        def record(*args, **kwargs):
            started.append(what)
            raise AssertionError(f"the web process started a process ({what})")

        return record

    # Every way Python starts a process (bubblewrap included: it is started by one of them).
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse("subprocess.Popen"))
    for name in ("fork", "posix_spawn", "posix_spawnp", "execv", "execve", "system"):
        monkeypatch.setattr(os, name, refuse(f"os.{name}"))
    import workers.sandbox.bubblewrap

    monkeypatch.setattr(workers.sandbox.bubblewrap.BubblewrapLauncher, "launch", refuse("sandbox"))
    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    try:
        shown = upload(
            author_client("ada"), "ada-random", (REFERENCE / "random_bot.py").read_bytes()
        )
        assert started == []
        assert shown["latest_version"]["validation"] == "pending"
        # The smoke match waits on the validation queue, for a worker.
        assert client.llen(routing.queue_name(routing.VALIDATION)) == 1
    finally:
        client.delete(*routing.queue_names())
        client.close()


def test_a_worker_validates_uploads_good_ones_ready_broken_ones_rejected_with_the_reason(
    start_worker,
):
    start_worker(concurrency=2, isolation="sandbox")
    ada = author_client("ada")
    good = upload(ada, "ada-random", (REFERENCE / "random_bot.py").read_bytes())
    broken = upload(ada, "ada-illegal", ILLEGAL_BOT)
    assert good["latest_version"]["validation"] == "pending"
    assert broken["latest_version"]["validation"] == "pending"

    assert wait_for_validation(good["id"]).validation == BotVersion.Validation.READY
    rejected = wait_for_validation(broken["id"])
    assert rejected.validation == BotVersion.Validation.REJECTED
    shown = ada.get(f"/api/bots/{broken['id']}/versions/").json()[0]
    assert shown["validation"] == "rejected"
    assert shown["validation_error"].startswith("the bot failed its smoke match: seat 0:")
    assert "not a legal action" in shown["validation_error"]
    # Only a ready version may enter a tournament.
    organiser = User.objects.create_superuser("olga", password="organiser-pass-9")
    client = APIClient()
    client.force_authenticate(organiser)
    reply = client.post(
        "/api/tournaments/",
        {
            "name": "cup",
            "game": "moonrollers",
            "bots": [good["id"], broken["id"]],
            "players_per_match": 2,
        },
        format="json",
    )
    assert reply.status_code == 400
    assert "ada-illegal" in reply.json()["detail"]
