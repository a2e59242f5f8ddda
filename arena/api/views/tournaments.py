"""Tournaments: anyone reads them; organisers create, start, pause, resume and cancel them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from arena.api import serializers as s
from arena.api.permissions import IsOrganiser
from arena.api.views.common import query_filters
from arena.errors import (
    Conflict,
    InvalidInput,
    Unavailable,
)
from arena.models import (
    Tournament,
)
from arena.services import control
from arena.services import tournaments as tournament_service

# --- tournaments ----------------------------------------------------------------------------


@extend_schema(tags=["tournaments"])
class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments: everyone may browse; organisers create and start them."""

    lookup_value_regex = r"\d+"  # a malformed id is a 404 at routing, not a 500
    # For the schema (arena/api/schema.py): starting needs the match queue, and a tournament
    # starts once, with playable bots.
    domain_errors = {
        "create": (Unavailable,),
        "start": (InvalidInput, Conflict, Unavailable),
        "pause": (Conflict,),
        "resume": (Conflict,),
        "cancel": (Conflict,),
    }

    def get_queryset(self):
        queryset = Tournament.objects.select_related("created_by").prefetch_related("bots")
        if self.action == "list":
            wanted = query_filters(self.request, s.TournamentFilterSerializer)
            if wanted.get("game"):
                queryset = queryset.filter(game=wanted["game"])
            if wanted.get("status"):
                queryset = queryset.filter(status=wanted["status"])
        return queryset.order_by("-id")

    @extend_schema(parameters=[s.TournamentFilterSerializer])
    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        # Every tournament's progress in one query, not two per tournament.
        progress = tournament_service.progress_of(page)
        for tournament in page:
            tournament._progress_cache = progress[tournament.pk]
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def get_permissions(self):
        if self.action in {"create", "start", "pause", "resume", "cancel"}:
            return [IsOrganiser()]
        return [permissions.AllowAny()]

    def get_serializer_class(self):
        if self.action == "create":
            return s.TournamentCreateSerializer
        if self.action == "retrieve":
            return s.TournamentDetailSerializer
        return s.TournamentSerializer

    @extend_schema(
        summary="Create a tournament (organisers); it starts now unless start_at is later",
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentDetailSerializer},
    )
    def create(self, request, *args, **kwargs):
        form = s.TournamentCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = tournament_service.create_tournament(request.user, **form.validated_data)
        tournament = self.get_queryset().get(pk=tournament.pk)
        data = s.TournamentDetailSerializer(tournament, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Start a scheduled tournament now (organisers)",
        request=None,
        responses=s.TournamentDetailSerializer,
    )
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        tournament = self.get_object()
        tournament_service.start_now(tournament, request.user)
        tournament = self.get_queryset().get(pk=tournament.pk)
        return Response(
            s.TournamentDetailSerializer(tournament, context=self.get_serializer_context()).data
        )

    def _control(self, request, change):
        tournament = change(self.get_object(), request.user)
        tournament = self.get_queryset().get(pk=tournament.pk)
        return Response(
            s.TournamentDetailSerializer(tournament, context=self.get_serializer_context()).data
        )

    @extend_schema(
        summary="Pause a running tournament: nothing new starts, running matches finish",
        request=None,
        responses=s.TournamentDetailSerializer,
    )
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        return self._control(request, control.pause)

    @extend_schema(
        summary="Resume a paused tournament", request=None, responses=s.TournamentDetailSerializer
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._control(request, control.resume)

    @extend_schema(
        summary="Cancel a tournament: it ends with the standings so far",
        request=None,
        responses=s.TournamentDetailSerializer,
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        return self._control(request, control.cancel)
