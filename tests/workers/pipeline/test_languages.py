"""Bots in every language through the whole service: uploaded over the API, built and
smoke-tested by a real worker in the sandbox, then playing the ladder against the Python
reference bot; a compile error comes back as the upload's rejection reason.

Real PostgreSQL and Redis, a real `celery -A workers worker --beat` with bots in the
bubblewrap sandbox, the starter kits of bots/sdk/kits built by the arena's own builds.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import Bot, BotVersion, Match, MatchSeat, Rating
from bots.sdk.folders import zip_folder
from bots.sdk.kits import write_kit
from tests.workers.pipeline.conftest import wait_for_validation
from tests.workers.pipeline.test_end_to_end import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"
NATIVE = ["cpp", "rust", "go", "java", "javascript"]


def upload(client, name: str, filename: str, data: bytes) -> int:
    response = client.post(
        "/api/bots/",
        {"name": name, "game": "moonrollers", "file": SimpleUploadedFile(filename, data)},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert response.json()["latest_version"]["validation"] == "pending"
    return response.json()["id"]


@pytest.mark.slow
def test_a_starter_bot_in_every_language_is_validated_and_plays_the_ladder(start_worker, tmp_path):
    arena = User.objects.create_user("arena")
    reference = Bot.objects.create(owner=arena, name="random", game="moonrollers")
    reference.add_version((REFERENCE / "random_bot.py").read_bytes(), "random_bot.py")
    Rating.objects.create(bot=reference, game="moonrollers")
    worker = start_worker(
        concurrency=2,
        isolation="sandbox",
        beat=True,
        extra_env={"ARENA_LADDER_TICK_SECONDS": "1"},
    )
    ada = sign_up("ada", "moon-rover-42")
    bots = {}
    for language in ["python", *NATIVE]:
        folder = tmp_path / language
        write_kit("moonrollers", language, folder)
        bots[language] = upload(ada, f"starter-{language}", f"{language}.zip", zip_folder(folder))
    for language, bot_id in bots.items():
        version = wait_for_validation(bot_id, timeout=180)
        assert version.validation == "ready", (language, version.validation_error)
        assert version.language == language
        assert (version.artifact_id is None) == (language == "python")

    # Each plays ladder matches against the Python reference bot, without a forfeit.
    deadline = time.monotonic() + 300
    for language, bot_id in bots.items():
        against_reference = MatchSeat.objects.filter(
            bot_id=bot_id,
            match__purpose=Match.Purpose.LADDER,
            match__status=Match.Status.FINISHED,
            match__seats__bot=reference,
        )
        while not against_reference.exists():
            assert time.monotonic() < deadline, (language, worker.text()[-3000:])
            time.sleep(0.5)
        seats = MatchSeat.objects.filter(bot_id=bot_id, match__status=Match.Status.FINISHED)
        assert not seats.exclude(forfeit_reason="").exists(), (
            language,
            list(seats.values_list("forfeit_reason", flat=True)),
        )


def test_a_compile_error_is_the_uploads_rejection_reason(start_worker):
    start_worker(concurrency=1, isolation="sandbox")
    ada = sign_up("ada", "moon-rover-42")
    source = b'fn main() {\n    let x: u32 = "not a number";\n}\n'
    bot_id = upload(ada, "broken-rust", "main.rs", source)
    version = wait_for_validation(bot_id, timeout=120)
    assert version.validation == BotVersion.Validation.REJECTED
    shown = ada.get(f"/api/bots/{bot_id}/versions/").json()[0]
    assert shown["validation_error"].startswith("the bot did not build:\n")
    assert "mismatched types" in shown["validation_error"]
    assert "main.rs:2" in shown["validation_error"]
    assert shown["validation_error"].endswith("--- the build failed (exit status 1)")
