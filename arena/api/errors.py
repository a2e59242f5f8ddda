"""One exception handler: domain errors (arena.errors) become 400/403/404/409/503 answers.

Engine set-up errors (unknown game, wrong player count, bad options) are bad input too, so
they map to 400. Everything else goes through DRF's own handler.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import engine
from arena.errors import ArenaError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ArenaError):
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        if exc.field:
            body = {exc.field: [exc.message], "detail": exc.message, "code": exc.code}
        return Response(body, status=exc.status)
    if isinstance(exc, engine.UnknownGame | engine.InvalidSetup):
        return Response({"detail": str(exc), "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        return Response(
            {"detail": "; ".join(exc.messages), "code": "invalid"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    return drf_exception_handler(exc, context)
