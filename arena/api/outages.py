"""A part the arena depends on is down: answer 503 naming it, never a 500 or a traceback.

The database or Redis (the broker, the shared cache) can be away for seconds (a restart)
or longer. A request that needed it gets a 503 with Retry-After and what is down: JSON
under /api/, a short page elsewhere (it renders without the database). Only errors of the
connection count: a data error is a bug, and stays a 500 that is logged.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from arena.errors import is_database_outage

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


def redis_errors() -> tuple[type[BaseException], ...]:
    import redis.exceptions

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def _broker_errors() -> tuple[type[BaseException], ...]:
    import kombu.exceptions

    return (kombu.exceptions.OperationalError,)


def part_down(exc: BaseException | None) -> str | None:
    """The part an exception says is unreachable ("database", "broker"), or None."""
    if exc is None:
        return None
    if is_database_outage(exc):
        return "database"
    if isinstance(exc, redis_errors() + _broker_errors()):
        return "broker"
    return None


def outage_response(request: HttpRequest, part: str) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"detail": f"the {part} is unavailable; try again shortly", "code": "unavailable"},
            status=503,
        )
    else:
        response = HttpResponse(render_to_string("503.html", {"part": part}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class AnswerOutages:
    """First in MIDDLEWARE: a view's outage error becomes the 503 (DEBUG on or off)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        part = part_down(exc)
        if part is None:
            return None
        log.warning("%s %s: the %s is unavailable: %s", request.method, request.path, part, exc)
        return outage_response(request, part)


def outage_during_error() -> str | None:
    """For the 500 handler: the part down when the error being handled is an outage (raised
    outside a view, in a middleware, where process_exception does not see it)."""
    return part_down(sys.exc_info()[1])
