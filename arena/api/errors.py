"""One exception handler: domain errors (arena.errors) become 400/403/404/409/429/503 answers.

Engine set-up errors (unknown game, wrong player count, bad options) are bad input too, so
they map to 400. Everything else goes through DRF's own handler.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import engine
from arena.api.outages import outage_during_error, outage_response
from arena.errors import ArenaError, QuotaExceeded


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ArenaError):
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        if exc.field:
            body = {exc.field: [exc.message], "detail": exc.message, "code": exc.code}
        response = Response(body, status=exc.status)
        if isinstance(exc, QuotaExceeded) and exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, engine.UnknownGame | engine.InvalidSetup):
        return Response({"detail": str(exc), "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, OperationalError) and _cancelled(exc):
        return Response(
            {"detail": "the request took too long and was cancelled", "code": "timeout"},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    if isinstance(exc, DjangoValidationError):
        return Response(
            {"detail": "; ".join(exc.messages), "code": "invalid"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is not None:
        # DRF's handler answers Django's Http404 and PermissionDenied as its own kinds.
        if isinstance(exc, Http404):
            exc = exceptions.NotFound()
        elif isinstance(exc, DjangoPermissionDenied):
            exc = exceptions.PermissionDenied()
        if isinstance(exc, exceptions.APIException):
            response.data = _with_detail_and_code(response.data, exc)
    return response


def _cancelled(exc: OperationalError) -> bool:
    """The database cancelled the statement: DB_STATEMENT_TIMEOUT_MS passed (SQLSTATE 57014)."""
    return getattr(exc.__cause__, "sqlstate", None) == "57014"


def _with_detail_and_code(data: Any, exc: exceptions.APIException) -> dict[str, Any]:
    """Every error body says what went wrong (`detail`) and its kind (`code`).

    DRF's validation errors name only the fields; a client reading `detail` alone (or a
    person reading the response) then learns nothing. The field entries stay as they are.
    """
    codes = exc.get_codes()
    if isinstance(data, list):
        data = {"non_field_errors": data}
    data = dict(data) if isinstance(data, dict) else {"detail": str(data)}
    if "detail" not in data:
        data["detail"] = "; ".join(
            f"{field}: {_first_message(messages)}"
            if field != "non_field_errors"
            else _first_message(messages)
            for field, messages in data.items()
        )
    if "code" not in data:
        data["code"] = codes if isinstance(codes, str) else exc.default_code
    data["detail"] = str(data["detail"])
    return data


def _first_message(messages: Any) -> str:
    """The first message of a field's entry (a list, or an object for list fields)."""
    while isinstance(messages, dict | list) and messages:
        messages = next(iter(messages.values())) if isinstance(messages, dict) else messages[0]
    return str(messages)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 for addresses no route matches: JSON under /api/, like DRF's own 404s."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": f"nothing is found at {request.path}", "code": "not_found"}, status=404
        )
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    part = outage_during_error()
    if part is not None:
        return outage_response(request, part)
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": "the server could not answer this request", "code": "server_error"},
            status=500,
        )
    return defaults.server_error(request)
