"""Leaderboards: each game's, paginated; organisers ask for a refit."""

from __future__ import annotations

from django.db.models import Count
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.reverse import reverse

import engine
from arena.api import serializers as s
from arena.api.permissions import IsOrganiser
from arena.api.views.common import StrictPageSize, query_filters
from arena.models import (
    Rating,
)
from arena.services import leaderboards as leaderboard_service
from arena.services import skills as skill_service

# --- leaderboards ---------------------------------------------------------------------------


class LeaderboardPagination(StrictPageSize, PageNumberPagination):
    pass


@extend_schema(tags=["leaderboards"])
class LeaderboardViewSet(viewsets.GenericViewSet):
    lookup_field = "game"
    lookup_value_regex = "[^/]+"
    queryset = Rating.objects.none()
    serializer_class = s.LeaderboardEntrySerializer

    @property
    def pagination_class(self):
        # Only a game's board is paginated. The schema generator reads this per action too:
        # a class attribute documented the short list of games as a page (the fuzz found it).
        return LeaderboardPagination if self.action == "retrieve" else None

    def get_permissions(self):
        if self.action == "refit":
            return [IsOrganiser()]
        return [permissions.AllowAny()]

    @extend_schema(
        summary="Every game's leaderboard link", responses=s.LeaderboardGameSerializer(many=True)
    )
    def list(self, request):
        counts = dict(
            Rating.objects.filter(bot__is_active=True)
            .values_list("game")
            .annotate(n=Count("id"))
            .values_list("game", "n")
        )
        rows = [
            {
                "game": name,
                "cooperative": engine.get_game(name).cooperative,
                "bots": counts.get(name, 0),
                "url": reverse("leaderboard-detail", args=[name], request=request),
            }
            for name in engine.game_names()
        ]
        return Response(s.LeaderboardGameSerializer(rows, many=True).data)

    @extend_schema(
        summary="A game's leaderboard, best first (paginated; ?order=skill|elo)",
        operation_id="leaderboards_retrieve",
        parameters=[s.LeaderboardQuerySerializer],
        responses=s.LeaderboardEntrySerializer(many=True),
    )
    def retrieve(self, request, game=None):
        spec = leaderboard_service.leaderboard_game(game)
        order = query_filters(request, s.LeaderboardQuerySerializer)["order"]
        queryset, fit = leaderboard_service.leaderboard(spec.name, order)
        page = self.paginate_queryset(queryset)
        first = self.paginator.page.start_index() if page else 1
        rows = [
            leaderboard_service.entry(rating, first + i, spec.cooperative, fit)
            for i, rating in enumerate(page or [])
        ]
        return self.get_paginated_response(rows)

    @extend_schema(
        summary="Refit the game's whole-history skill now (organisers; runs on a worker)",
        request=None,
        responses={202: s.RefitSerializer},
    )
    @action(detail=True, methods=["post"])
    def refit(self, request, game=None):
        spec = leaderboard_service.leaderboard_game(game)
        skill_service.request_refit(spec.name)
        return Response({"game": spec.name, "queued": True}, status=status.HTTP_202_ACCEPTED)
