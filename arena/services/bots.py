"""Accepting bot uploads: every check an upload must pass, then the bot or version rows.

Checks, cheapest first: the user's quotas (bots per user, versions per bot per day), size
limit, a source file of a known language (arena/languages.py) or an archive checked before
it is unpacked (arena/bot_archives.py) with its manifest or bot.py, UTF-8, and for Python
valid source (`ast.parse` only: the web process never runs an author's code) with a
top-level `act` or `Bot`. Any failure raises InvalidUpload (or QuotaExceeded) with the
reason for the author. Other languages are built on a worker, in the build sandbox.

The smoke match is not played here: the version is stored `pending` and, once the
transaction commits, handed to the validation queue (arena/services/validation.py); a worker
plays it and marks the version `ready` or `rejected` with the reason.
"""

from __future__ import annotations

import ast
import logging
import re
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from arena.bot_archives import ArchiveError, ArchiveLimits, is_archive, read_archive
from arena.errors import (
    Conflict,
    InvalidInput,
    InvalidUpload,
    NotAllowed,
    QuotaExceeded,
)
from arena.languages import (
    Manifest,
    ManifestError,
    language_of_file,
    manifest_for_file,
    manifest_of_archive,
    unknown_file_message,
)
from arena.models import Bot, BotVersion, Rating
from arena.services import validation
from arena.stored_text import clean_text

log = logging.getLogger(__name__)

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
ZIP_ENTRY = "bot.py"
# A zip may hold helper modules and data; their unpacked size is bounded too (zip bombs).
ZIP_UNPACKED_FACTOR = 8


@dataclass(frozen=True)
class Upload:
    """An uploaded file as the service sees it: its name and bytes."""

    filename: str
    data: bytes


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name.strip()):
        raise InvalidInput(
            "a bot name is 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit",
            field="name",
        )
    return name.strip()


def check_game(game: object) -> str:
    try:
        return engine.get_game(game).name  # type: ignore[arg-type]
    except engine.UnknownGame as exc:
        raise InvalidInput(str(exc), field="game") from None


def check_size(upload: Upload) -> None:
    limit = settings.MAX_BOT_BYTES
    if not upload.data:
        raise InvalidUpload("the uploaded file is empty", field="file")
    if len(upload.data) > limit:
        raise InvalidUpload(
            f"the file is {len(upload.data)} bytes; the limit is {limit} bytes", field="file"
        )


def decode_source(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8-sig")  # a leading BOM is valid source
    except UnicodeDecodeError as exc:
        raise InvalidUpload(
            f"{name} is not UTF-8 text (bad byte at offset {exc.start})", field="file"
        ) from None


def archive_files(upload: Upload) -> dict[str, bytes]:
    """An uploaded archive's files, checked before anything is unpacked (arena/bot_archives.py)."""
    limits = ArchiveLimits(max_bytes=settings.MAX_BOT_BYTES * ZIP_UNPACKED_FACTOR)
    try:
        return read_archive(upload.data, upload.filename, limits)
    except ArchiveError as exc:
        raise InvalidUpload(str(exc), field="file") from None


def check_upload(game: str, upload: Upload) -> Manifest:
    """Every check an upload passes in the web process; its manifest, or InvalidUpload.

    Python is parsed for `act` or `Bot`; other languages build on a worker, where a
    compile error rejects the version. The smoke match is not here either: it runs on a
    worker (arena/services/validation.py).
    """
    manifest, files = unpack_upload(upload)
    source = decode_source(files[manifest.entry], manifest.entry)
    if manifest.language.is_python:
        check_defines_entry_point(source)
    return manifest


def unpack_upload(upload: Upload) -> tuple[Manifest, dict[str, bytes]]:
    """The upload's manifest and files, or InvalidUpload. A lone source file's language is
    its extension's; an archive says its own in arena.toml (a zip with bot.py and no
    manifest is a Python bot)."""
    check_size(upload)
    try:
        if not is_archive(upload.filename):
            if language_of_file(upload.filename) is None:
                raise ManifestError(unknown_file_message(upload.filename))
            manifest = manifest_for_file(upload.filename)
            return manifest, {manifest.entry: upload.data}
        files = archive_files(upload)
        zip_file = upload.filename.lower().endswith(".zip")
        return manifest_of_archive(files, zip_file=zip_file), files
    except ManifestError as exc:
        raise InvalidUpload(str(exc), field="file") from None


def check_defines_entry_point(source: str) -> None:
    """Parse (never run) the source and require a top-level `act` or `Bot`."""
    try:
        tree = ast.parse(source, filename="bot.py")
    except SyntaxError as exc:
        raise InvalidUpload(
            f"the bot is not valid Python: {exc.msg} (line {exc.lineno})", field="file"
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise InvalidUpload(f"the bot is not valid Python: {exc}", field="file") from None
    if not {"act", "Bot"} & _top_level_names(tree):
        raise InvalidUpload(
            "the bot must define a function act(observation, legal_actions) or a class Bot",
            field="file",
        )


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def check_bot_quota(owner) -> None:
    """A user owns at most ARENA_MAX_BOTS_PER_USER bots (deactivated ones count)."""
    limit = settings.ARENA_MAX_BOTS_PER_USER
    owned = Bot.objects.filter(owner=owner).count()
    if owned >= limit:
        raise QuotaExceeded(
            f"you already have {owned} bots; the limit is {limit} per user "
            "(upload a new version of an existing bot instead)"
        )


def check_version_quota(bot: Bot, now=None) -> None:
    """At most ARENA_MAX_VERSIONS_PER_BOT_PER_DAY versions of a bot in any 24 hours.

    Refused with 429 and the seconds until the oldest upload of the window leaves it.
    """
    limit = settings.ARENA_MAX_VERSIONS_PER_BOT_PER_DAY
    now = now or timezone.now()
    window = list(
        bot.versions.filter(created_at__gt=now - timedelta(days=1))
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    if len(window) >= limit:
        frees_at = window[len(window) - limit] + timedelta(days=1)
        wait = max(1, int((frees_at - now).total_seconds()) + 1)
        raise QuotaExceeded(
            f"bot {bot.name!r} already has {len(window)} versions uploaded in the last 24 "
            f"hours; the limit is {limit} a day: try again in {wait} s",
            retry_after=wait,
        )


def create_bot(owner, name: object, game: object, upload: Upload, *, smoke: bool = True) -> Bot:
    """Create a bot with its first version (and its rating row at the initial rating).

    With `smoke` (an author's upload) the version is stored pending and its validation is
    requested once the transaction commits; without it (trusted files) it is ready at once.
    """
    name = check_name(name)
    game = check_game(game)
    if smoke:
        check_bot_quota(owner)
    if Bot.objects.filter(game=game, name=name).exists():
        raise Conflict(f"a {game} bot named {name!r} already exists", field="name")
    manifest = check_upload(game, upload)
    try:
        with transaction.atomic():
            bot = Bot.objects.create(owner=owner, name=name, game=game)
            _store_version(bot, upload, smoke, manifest)
            Rating.objects.get_or_create(bot=bot, game=game)
    except IntegrityError:
        # Two uploads with the same name raced past the check above.
        raise Conflict(f"a {game} bot named {name!r} already exists", field="name") from None
    return bot


def add_version(bot: Bot, user, upload: Upload, *, smoke: bool = True) -> BotVersion:
    require_owner(bot, user, "add a version to")
    if smoke:
        check_version_quota(bot)
    manifest = check_upload(bot.game, upload)
    with transaction.atomic():
        return _store_version(bot, upload, smoke, manifest)


def _store_version(bot: Bot, upload: Upload, smoke: bool, manifest: Manifest) -> BotVersion:
    """Store the version; every version that builds is validated (its build is made there)."""
    filename = _clean_filename(upload.filename)
    language = manifest.language.name
    if not smoke and manifest.language.is_python:
        return bot.add_version(upload.data, filename)
    version = bot.add_version(
        upload.data, filename, validation=BotVersion.Validation.PENDING, language=language
    )
    validation.request_validation(version)
    return version


def rename(bot: Bot, user, name: object) -> Bot:
    require_owner(bot, user, "rename")
    name = check_name(name)
    if Bot.objects.filter(game=bot.game, name=name).exclude(pk=bot.pk).exists():
        raise Conflict(f"a {bot.game} bot named {name!r} already exists", field="name")
    try:
        with transaction.atomic():
            bot.rename(name)
    except IntegrityError:
        raise Conflict(f"a {bot.game} bot named {name!r} already exists", field="name") from None
    return bot


def set_active(bot: Bot, user, active: bool) -> Bot:
    require_owner(bot, user, "activate or deactivate")
    if active:
        bot.activate()
    else:
        bot.deactivate()
    return bot


def require_owner(bot: Bot, user, verb: str) -> None:
    if not bot.is_owned_by(user):
        raise NotAllowed(f"only the owner of bot {bot.name!r} may {verb} it")


def _clean_filename(filename: str) -> str:
    # Keep only the last path component: browsers and curl may send a full path. The
    # name is the uploader's text, stored: no NUL, no lone surrogate (arena/stored_text.py).
    base = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return clean_text(base, 255) or "bot.py"
