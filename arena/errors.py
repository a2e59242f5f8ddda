"""Domain errors raised by models and services; arena/api/errors.py maps them to HTTP codes.

Each class names the HTTP status it stands for, so views never translate by hand. Also which
database errors are an outage to wait for (`is_database_outage`) and which are bugs.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError


class ArenaError(Exception):
    """Base of every domain error; `status` is the HTTP status the API answers with."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(ArenaError):
    """The request is well formed but its content is not acceptable (400)."""


class InvalidUpload(InvalidInput):
    """An uploaded bot file failed a check (size, Python, `act`, smoke match)."""

    code = "invalid_upload"


class NotAllowed(ArenaError):
    """The user may not do this (403)."""

    status = 403
    code = "permission_denied"


class NotFound(ArenaError):
    status = 404
    code = "not_found"


class Conflict(ArenaError):
    """The request clashes with the current state, e.g. starting a running tournament (409)."""

    status = 409
    code = "conflict"


class VersionNotReady(Conflict):
    """A bot version named to play has not passed validation (pending or rejected) (409)."""

    code = "version_not_ready"


class Unavailable(ArenaError):
    """A part of the system the request needs is missing or down (503)."""

    status = 503
    code = "unavailable"


class QuotaExceeded(ArenaError):
    """The user reached a quota from settings (bots per user, versions per bot per day).

    403 when waiting does not help (too many bots); 429 with `Retry-After` when the quota is
    over a time window, so a client knows when it may try again.
    """

    status = 403
    code = "quota_exceeded"

    def __init__(
        self, message: str, *, field: str | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message, field=field)
        self.retry_after = retry_after
        if retry_after is not None:
            self.status = 429


# The database errors that mean it cannot be reached or cannot work now (down, restarting,
# its disk full, a lock or a serialisation conflict): worth waiting for. Every other
# DatabaseError (DataError, IntegrityError, ProgrammingError, InternalError) is a statement
# the database refused, which fails the same way again: a bug, recorded, never retried.
DATABASE_OUTAGES: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def is_database_outage(exc: BaseException) -> bool:
    return isinstance(exc, DATABASE_OUTAGES)
