"""GET /api/health/: 200 when this node can serve (database, broker, enough workers), else 503."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.services import health


class HealthView(APIView):
    # Load balancers call it without credentials, often: no auth, no session, no throttle.
    authentication_classes: list[type] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes: list[type] = []

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 503: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        healthy, report = health.check()
        response = Response(report, status=200 if healthy else 503)
        response["Cache-Control"] = "no-store"
        return response
