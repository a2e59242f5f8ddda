"""Bots and versions: upload checks, who may change what, what everyone sees."""

from __future__ import annotations

import hashlib
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import Bot, BotVersion
from tests.arena.conftest import CLASS_BOT, GOOD_BOT

pytestmark = pytest.mark.django_db


def upload(data: bytes = GOOD_BOT, name: str = "bot.py") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def create(client, name="alpha", game="duel", data=GOOD_BOT, filename="bot.py"):
    return client.post(
        "/api/bots/",
        {"name": name, "game": game, "file": upload(data, filename)},
        format="multipart",
    )


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# --- create ---------------------------------------------------------------------------------


def test_an_author_uploads_a_bot_with_its_first_version(author):
    reply = create(author)
    assert reply.status_code == 201, reply.content
    body = reply.json()
    assert body["name"] == "alpha" and body["owner"] == "ada" and body["game"] == "duel"
    assert body["version_count"] == 1 and body["is_active"] is True
    assert body["latest_version"]["sha256"] == hashlib.sha256(GOOD_BOT).hexdigest()
    assert body["latest_version"]["size"] == len(GOOD_BOT)
    assert body["rating"] == {"rating": 1500.0, "games": 0, "wins": 0, "draws": 0, "losses": 0}


def test_anonymous_cannot_upload(anonymous):
    assert create(anonymous).status_code == 401
    assert not Bot.objects.exists()


def test_a_class_bot_and_a_zip_with_bot_py_are_accepted(author):
    assert create(author, "classy", data=CLASS_BOT).status_code == 201
    archive = zipped({"bot.py": GOOD_BOT, "helpers/data.json": b"{}"})
    reply = create(author, "zipped", data=archive, filename="bundle.zip")
    assert reply.status_code == 201, reply.content
    assert bytes(BotVersion.objects.get(bot__name="zipped").source) == archive


def test_a_bot_file_starting_with_a_byte_order_mark_is_accepted(author):
    """Python runs such a file (the SDK runner strips the mark too: tests/bots/test_runner.py)."""
    reply = create(author, "marked", data=b"\xef\xbb\xbf" + GOOD_BOT)
    assert reply.status_code == 201, reply.content


@pytest.mark.parametrize(
    ("data", "filename", "reason"),
    [
        (b"", "bot.py", "empty"),
        (b"def act(:\n", "bot.py", "not valid Python"),
        (b"def play(observation, legal_actions):\n    return 0\n", "bot.py", "must define"),
        (b"\xff\xfe\x00garbage", "bot.py", "not UTF-8"),
        (b"act = 1\x00", "bot.py", "not valid Python"),
        (GOOD_BOT, "bot.txt", "Python file"),
        (b"%PDF-1.4 not python", "paper.pdf", "Python file"),
        (b"PK not really a zip", "bot.zip", "not a valid zip"),
        (zipped({"main.py": GOOD_BOT}), "bot.zip", "no bot.py"),
        (zipped({"../bot.py": GOOD_BOT, "bot.py": GOOD_BOT}), "bot.zip", "unsafe path"),
        (zipped({"bot.py": b"x = 1\n"}), "bot.zip", "must define"),
    ],
)
def test_bad_uploads_get_a_400_with_the_reason(author, data, filename, reason):
    reply = create(author, data=data, filename=filename)
    assert reply.status_code == 400, reply.content
    assert reason in str(reply.json()), reply.json()
    assert not Bot.objects.exists()


def test_an_oversized_file_is_refused(author, settings):
    settings.MAX_BOT_BYTES = 2048
    big = GOOD_BOT + b"#" * 4096 + b"\n"
    reply = create(author, data=big)
    assert reply.status_code == 400 and "limit is 2048 bytes" in reply.json()["detail"]


def test_a_zip_that_unpacks_too_large_is_refused(author, settings):
    settings.MAX_BOT_BYTES = 4096
    bomb = zipped({"bot.py": GOOD_BOT + b"#" * 100_000 + b"\n"})
    assert len(bomb) < 4096
    assert "unpacks to more than" in create(author, data=bomb, filename="b.zip").json()["detail"]


def test_a_missing_file_is_a_400(author):
    reply = author.post("/api/bots/", {"name": "alpha", "game": "duel"}, format="multipart")
    assert reply.status_code == 400 and "file" in reply.json()


def test_an_unknown_game_is_a_400(author):
    reply = create(author, game="chess")
    assert reply.status_code == 400 and "unknown game" in reply.json()["detail"]


@pytest.mark.parametrize("name", ["", "has space", "-dash-first", "x" * 65, "emoji✨"])
def test_a_bad_name_is_a_400(author, name):
    assert create(author, name=name).status_code == 400


def test_a_duplicate_name_in_the_same_game_is_a_409(author, other_author):
    assert create(author).status_code == 201
    reply = create(other_author)
    assert reply.status_code == 409 and "already exists" in reply.json()["detail"]
    assert create(other_author, game="crew").status_code == 201  # other game: fine


# --- read -----------------------------------------------------------------------------------


def test_everyone_sees_bots_but_not_their_source(author, anonymous):
    bot_id = create(author).json()["id"]
    listed = anonymous.get("/api/bots/").json()
    assert listed["count"] == 1
    entry = listed["results"][0]
    assert {"name", "owner", "game", "version_count", "rating"} <= set(entry)
    assert "source" not in str(entry)
    assert anonymous.get(f"/api/bots/{bot_id}/").status_code == 200
    assert anonymous.get(f"/api/bots/{bot_id}/versions/").json()[0]["number"] == 1


def test_bots_filter_by_game_owner_and_mine(
    author, other_author, make_bot, author_user, other_user
):
    make_bot(author_user, "a1")
    make_bot(author_user, "a2", game="crew")
    make_bot(other_user, "b1")
    assert [b["name"] for b in author.get("/api/bots/?game=duel").json()["results"]] == ["a1", "b1"]
    assert author.get("/api/bots/?owner=bob").json()["count"] == 1
    assert author.get("/api/bots/?mine=1").json()["count"] == 2


def test_a_missing_bot_is_a_404(anonymous):
    assert anonymous.get("/api/bots/999999/").status_code == 404
    assert anonymous.get("/api/bots/not-a-number/").status_code == 404


# --- versions -------------------------------------------------------------------------------


def test_the_owner_adds_a_version(author):
    bot_id = create(author).json()["id"]
    reply = author.post(
        f"/api/bots/{bot_id}/versions/", {"file": upload(CLASS_BOT, "v2.py")}, format="multipart"
    )
    assert reply.status_code == 201, reply.content
    assert (
        reply.json()["number"] == 2
        and reply.json()["sha256"] == hashlib.sha256(CLASS_BOT).hexdigest()
    )
    assert author.get(f"/api/bots/{bot_id}/").json()["version_count"] == 2


def test_another_author_cannot_add_a_version(author, other_author):
    bot_id = create(author).json()["id"]
    reply = other_author.post(
        f"/api/bots/{bot_id}/versions/", {"file": upload()}, format="multipart"
    )
    assert reply.status_code == 403
    assert BotVersion.objects.count() == 1


def test_anonymous_cannot_add_a_version(author, anonymous):
    bot_id = create(author).json()["id"]
    reply = anonymous.post(f"/api/bots/{bot_id}/versions/", {"file": upload()}, format="multipart")
    assert reply.status_code == 401


def test_a_bad_version_is_refused_and_stores_nothing(author):
    bot_id = create(author).json()["id"]
    reply = author.post(
        f"/api/bots/{bot_id}/versions/", {"file": upload(b"nothing = 0\n")}, format="multipart"
    )
    assert reply.status_code == 400 and "must define" in reply.json()["detail"]
    reply = author.post(f"/api/bots/{bot_id}/versions/", {}, format="multipart")
    assert reply.status_code == 400
    assert BotVersion.objects.count() == 1


# --- change ---------------------------------------------------------------------------------


def test_the_owner_renames_and_deactivates(author):
    bot_id = create(author).json()["id"]
    reply = author.patch(
        f"/api/bots/{bot_id}/", {"name": "beta", "is_active": False}, format="json"
    )
    assert reply.status_code == 200, reply.content
    assert reply.json()["name"] == "beta" and reply.json()["is_active"] is False
    reply = author.patch(f"/api/bots/{bot_id}/", {"is_active": True}, format="json")
    assert reply.json()["is_active"] is True


def test_a_form_rename_leaves_the_bot_active(author):
    bot_id = create(author).json()["id"]
    reply = author.patch(f"/api/bots/{bot_id}/", {"name": "gamma"}, format="multipart")
    assert reply.status_code == 200, reply.content
    assert reply.json()["name"] == "gamma" and reply.json()["is_active"] is True


def test_another_author_cannot_rename_or_deactivate(author, other_author):
    bot_id = create(author).json()["id"]
    for change in ({"name": "stolen"}, {"is_active": False}):
        assert other_author.patch(f"/api/bots/{bot_id}/", change, format="json").status_code == 403
    assert Bot.objects.get(pk=bot_id).name == "alpha" and Bot.objects.get(pk=bot_id).is_active


def test_anonymous_cannot_change_a_bot(author, anonymous):
    bot_id = create(author).json()["id"]
    assert anonymous.patch(f"/api/bots/{bot_id}/", {"name": "x"}, format="json").status_code == 401


def test_renaming_onto_a_taken_name_is_a_409(author):
    create(author, "one")
    bot_id = create(author, "two").json()["id"]
    assert author.patch(f"/api/bots/{bot_id}/", {"name": "one"}, format="json").status_code == 409


def test_bots_cannot_be_deleted_through_the_api(author):
    bot_id = create(author).json()["id"]
    assert author.delete(f"/api/bots/{bot_id}/").status_code == 405


# --- source ---------------------------------------------------------------------------------


def test_the_owner_downloads_any_version(author):
    bot_id = create(author).json()["id"]
    author.post(
        f"/api/bots/{bot_id}/versions/", {"file": upload(CLASS_BOT, "v2.py")}, format="multipart"
    )
    latest = author.get(f"/api/bots/{bot_id}/source/")
    assert latest.status_code == 200 and latest.content == CLASS_BOT
    assert 'filename="v2.py"' in latest["Content-Disposition"]
    assert author.get(f"/api/bots/{bot_id}/source/?version=1").content == GOOD_BOT
    assert author.get(f"/api/bots/{bot_id}/source/?version=7").status_code == 404
    assert author.get(f"/api/bots/{bot_id}/source/?version=x").status_code == 400


def test_nobody_else_downloads_the_source(author, other_author, anonymous, organiser):
    bot_id = create(author).json()["id"]
    assert other_author.get(f"/api/bots/{bot_id}/source/").status_code == 403
    assert organiser.get(f"/api/bots/{bot_id}/source/").status_code == 403
    assert anonymous.get(f"/api/bots/{bot_id}/source/").status_code == 401
