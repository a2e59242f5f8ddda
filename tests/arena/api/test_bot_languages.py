"""Uploads in other languages: lone source files, archives with arena.toml, and every
refusal of an archive, each with its own error, before anything is unpacked.

The build itself runs on a worker (tests/workers/sandbox/test_builds.py,
tests/workers/pipeline/test_languages.py): here, what the web process accepts and refuses.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import Bot, BotVersion
from arena.services.validation import validate_version

pytestmark = pytest.mark.django_db

CPP = b"#include <iostream>\nint main() { return 0; }\n"
MANIFEST = b'language = "cpp"\nentry = "bot.cpp"\n'


def create(client, data: bytes, filename: str, name: str = "polyglot"):
    upload = SimpleUploadedFile(filename, data, content_type="application/octet-stream")
    return client.post(
        "/api/bots/", {"name": name, "game": "duel", "file": upload}, format="multipart"
    )


def zipped(files: dict[str, bytes], modes: dict[str, int] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            if modes and name in modes:
                info.external_attr = modes[name] << 16
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def tarred(members: list[tarfile.TarInfo | tuple[str, bytes]], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                archive.addfile(member)
            else:
                name, data = member
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def special(name: str, kind: bytes, linkname: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    return info


@pytest.mark.parametrize(
    ("filename", "data", "language"),
    [
        ("bot.cpp", CPP, "cpp"),
        ("main.rs", b"fn main() {}\n", "rust"),
        ("main.go", b"package main\nfunc main() {}\n", "go"),
        ("Bot.java", b"public class Bot { public static void main(String[] a) {} }\n", "java"),
        ("bot.js", b"process.stdin.resume();\n", "javascript"),
        ("kit.zip", zipped({"arena.toml": MANIFEST, "bot.cpp": CPP, "lib/arena.h": b""}), "cpp"),
        ("kit.tar.gz", tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP)]), "cpp"),
    ],
)
def test_a_source_file_or_an_archive_with_a_manifest_is_stored_pending_in_its_language(
    author, filename, data, language
):
    reply = create(author, data, filename)
    assert reply.status_code == 201, reply.content
    version = BotVersion.objects.get()
    assert version.language == language and version.validation == "pending"
    assert bytes(version.source) == data and version.artifact_id is None


def test_a_link_inside_the_archive_is_kept_as_a_copy_of_its_target(author):
    link = special("include/arena.h", tarfile.SYMTYPE, "../lib/arena.h")
    data = tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), ("lib/arena.h", b"x"), link])
    assert create(author, data, "kit.tgz").status_code == 201


REFUSALS = [
    ("not an archive", b"PK\x03\x04 broken", "kit.zip", "not a valid zip archive"),
    ("not a tar", b"\x1f\x8b broken gzip", "kit.tar.gz", "not a valid tar archive"),
    (
        "too many files",
        zipped({"arena.toml": MANIFEST, "bot.cpp": CPP, **{f"f{i}.h": b"" for i in range(600)}}),
        "kit.zip",
        "more than 500 entries",
    ),
    (
        "unpacks too big",
        zipped({"arena.toml": MANIFEST, "bot.cpp": CPP, "pad.h": b"\0" * (3 << 20)}),
        "kit.zip",
        "unpacks to more than",
    ),
    (
        "absolute path",
        tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), ("/etc/cron.d/x", b"")]),
        "kit.tar.gz",
        "unsafe path in the archive (absolute)",
    ),
    (
        "dot-dot path",
        zipped({"arena.toml": MANIFEST, "bot.cpp": CPP, "src/../../escape.h": b""}),
        "kit.zip",
        "unsafe path in the archive ('..')",
    ),
    (
        "backslash",
        zipped({"arena.toml": MANIFEST, "bot.cpp": CPP, "..\\evil.h": b""}),
        "kit.zip",
        "control character or \\",
    ),
    (
        "symlink out",
        tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), special("k", tarfile.SYMTYPE, "/etc")]),
        "kit.tar.gz",
        "points outside the archive",
    ),
    (
        "symlink up and out",
        tarred(
            [
                ("arena.toml", MANIFEST),
                ("bot.cpp", CPP),
                special("a/k", tarfile.SYMTYPE, "../../secret"),
            ]
        ),
        "kit.tar.gz",
        "points outside the archive",
    ),
    (
        "zip symlink out",
        zipped(
            {"arena.toml": MANIFEST, "bot.cpp": CPP, "k": b"/etc/shadow"},
            modes={"k": stat.S_IFLNK | 0o777},
        ),
        "kit.zip",
        "points outside the archive",
    ),
    (
        "hard link to nothing inside",
        tarred(
            [
                ("arena.toml", MANIFEST),
                ("bot.cpp", CPP),
                special("k", tarfile.LNKTYPE, "etc/passwd"),
            ]
        ),
        "kit.tar.gz",
        "not a file in the archive",
    ),
    (
        "character device",
        tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), special("tty", tarfile.CHRTYPE)]),
        "kit.tar.gz",
        "device, FIFO or socket",
    ),
    (
        "fifo",
        tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), special("pipe", tarfile.FIFOTYPE)]),
        "kit.tar",
        "device, FIFO or socket",
    ),
    (
        "zip device",
        zipped(
            {"arena.toml": MANIFEST, "bot.cpp": CPP, "null": b""},
            modes={"null": stat.S_IFCHR | 0o666},
        ),
        "kit.zip",
        "device, FIFO or socket",
    ),
    (
        "the same name twice",
        tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), ("bot.cpp", b"// again")]),
        "kit.tar.gz",
        "holds 'bot.cpp' twice",
    ),
    ("no manifest", zipped({"bot.cpp": CPP}), "kit.zip", "no arena.toml"),
    (
        "unknown language",
        zipped({"arena.toml": b'language = "cobol"\n', "bot.cpp": CPP}),
        "kit.zip",
        "unknown language 'cobol'",
    ),
    (
        "manifest not TOML",
        zipped({"arena.toml": b"language = cpp = c\n", "bot.cpp": CPP}),
        "kit.zip",
        "not valid TOML",
    ),
    (
        "entry missing",
        zipped({"arena.toml": b'language = "cpp"\nentry = "main.cpp"\n', "bot.cpp": CPP}),
        "kit.zip",
        "not in the archive",
    ),
    (
        "entry of another language",
        zipped({"arena.toml": b'language = "rust"\nentry = "bot.cpp"\n', "bot.cpp": CPP}),
        "kit.zip",
        "entry ends in .rs",
    ),
    (
        "unknown key",
        zipped({"arena.toml": MANIFEST + b'run = "./evil"\n', "bot.cpp": CPP}),
        "kit.zip",
        "unknown key 'run'",
    ),
    (
        "a build for a language without one",
        zipped({"arena.toml": b'language = "javascript"\nbuild = "make"\n', "bot.js": b""}),
        "kit.zip",
        "no build step",
    ),
    ("an unknown file type", b"\x7fELF binary", "bot.exe", "upload a source file"),
    ("source not UTF-8", b"int main() { \xff }", "bot.cpp", "not UTF-8"),
]


@pytest.mark.parametrize(
    ("data", "filename", "reason"),
    [refusal[1:] for refusal in REFUSALS],
    ids=[refusal[0] for refusal in REFUSALS],
)
def test_every_refused_archive_gets_a_400_with_its_own_reason_and_stores_nothing(
    author, data, filename, reason
):
    reply = create(author, data, filename)
    assert reply.status_code == 400, reply.content
    assert reason in reply.json()["detail"], reply.json()
    assert not Bot.objects.exists() and not BotVersion.objects.exists()


def test_a_new_version_refused_for_its_archive_leaves_the_bot_and_its_versions_as_they_were(
    author,
):
    bot_id = create(author, CPP, "bot.cpp").json()["id"]
    evil = tarred([("arena.toml", MANIFEST), ("bot.cpp", CPP), ("/x", b"")])
    upload = SimpleUploadedFile("kit.tar.gz", evil)
    reply = author.post(f"/api/bots/{bot_id}/versions/", {"file": upload}, format="multipart")
    assert reply.status_code == 400 and "unsafe path" in reply.json()["detail"]
    assert list(BotVersion.objects.values_list("number", "language")) == [(1, "cpp")]


# --- the validation's build (the worker's side, called directly) ---------------------------

BUILDS: list[bytes] = []


def fake_build(source: bytes, filename: str):
    """Stands in for workers.play.builds.build_upload: the real one is tested with the
    sandbox in tests/workers/sandbox/test_builds.py and tests/workers/pipeline/."""
    BUILDS.append(source)
    if b"error" in source:
        return SimpleNamespace(artifact=None, log="bot.cpp:1:1: error: no\n--- the build failed")
    return SimpleNamespace(artifact=b"artifact of " + source, log="")


def smoke_with_artifact(game, source, filename, artifact=None):
    return None if artifact == b"artifact of " + source else "played without its build"


@pytest.fixture
def builds(settings):
    settings.ARENA_BUILD = "tests.arena.api.test_bot_languages.fake_build"
    settings.ARENA_SMOKE_TEST = "tests.arena.api.test_bot_languages.smoke_with_artifact"
    BUILDS.clear()
    return BUILDS


def test_a_version_is_built_before_its_smoke_match_and_a_reupload_reuses_the_build(author, builds):
    bot_id = create(author, CPP, "bot.cpp").json()["id"]
    first = BotVersion.objects.get()
    assert validate_version(first.pk) == "ready"
    first.refresh_from_db()
    assert bytes(first.artifact.data) == b"artifact of " + CPP and builds == [CPP]
    upload = SimpleUploadedFile("bot.cpp", CPP)
    author.post(f"/api/bots/{bot_id}/versions/", {"file": upload}, format="multipart")
    second = BotVersion.objects.get(number=2)
    assert validate_version(second.pk) == "ready"
    second.refresh_from_db()
    assert second.artifact_id == first.artifact_id and builds == [CPP]  # not built again


def test_a_failed_build_rejects_the_version_with_the_build_log(author, builds):
    create(author, b"int main() { error }", "bot.cpp")
    version = BotVersion.objects.get()
    assert validate_version(version.pk) == "rejected"
    version.refresh_from_db()
    assert version.validation_error.startswith("the bot did not build:\nbot.cpp:1:1: error")
    assert version.artifact_id is None


def test_without_a_smoke_test_a_version_that_builds_still_goes_to_a_worker(
    author, builds, settings, validations, django_capture_on_commit_callbacks
):
    settings.ARENA_SMOKE_TEST = ""
    with django_capture_on_commit_callbacks(execute=True):
        create(author, CPP, "bot.cpp")
    version = BotVersion.objects.get()
    assert version.validation == "pending" and validations == [version.pk]
    assert validate_version(version.pk) == "ready"
    version.refresh_from_db()
    assert version.artifact is not None
