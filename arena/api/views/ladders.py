"""Ladders: anyone reads them; organisers pause them or change their settings."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, viewsets
from rest_framework.response import Response

import engine
from arena.api import serializers as s
from arena.api.permissions import IsOrganiser
from arena.models import (
    Ladder,
)
from arena.services import ladder as ladder_service

# --- ladders --------------------------------------------------------------------------------


@extend_schema(tags=["ladders"])
class LadderViewSet(viewsets.GenericViewSet):
    """Each game's ladder: anyone sees it; organisers pause it or change its settings."""

    lookup_field = "game"
    lookup_value_regex = "[^/]+"
    queryset = Ladder.objects.none()
    serializer_class = s.LadderSerializer
    pagination_class = None
    http_method_names = ["get", "patch", "head", "options"]

    def get_permissions(self):
        if self.action == "partial_update":
            return [IsOrganiser()]
        return [permissions.AllowAny()]

    @extend_schema(summary="Every game's ladder", responses=s.LadderSerializer(many=True))
    def list(self, request):
        rows = [
            ladder_service.summary(ladder_service.ladder_for(name), _capacity(), bots=True)
            for name in engine.game_names()
        ]
        return Response(s.LadderSerializer(rows, many=True).data)

    @extend_schema(summary="A game's ladder, with its bots", responses=s.LadderSerializer)
    def retrieve(self, request, game=None):
        ladder = ladder_service.ladder_for(game)
        return Response(
            s.LadderSerializer(ladder_service.summary(ladder, _capacity(), bots=True)).data
        )

    @extend_schema(
        summary="Pause or resume a ladder, change its settings (organisers)",
        request=s.LadderUpdateSerializer,
        responses=s.LadderSerializer,
    )
    def partial_update(self, request, game=None):
        ladder_service.game_spec(game)  # an unknown game is a 404 before the body is read
        form = s.LadderUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        ladder = ladder_service.update_ladder(game, request.user, dict(form.validated_data))
        return Response(
            s.LadderSerializer(ladder_service.summary(ladder, _capacity(), bots=True)).data
        )


def _capacity() -> int | None:
    # The API shows the configured capacity only; asking the workers is the scheduler's job.
    return settings.ARENA_LADDER_CAPACITY or None
