"""Challenges: sequential tests between two versions."""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from arena.api import serializers as s
from arena.errors import (
    Conflict,
    Unavailable,
    VersionNotReady,
)
from arena.models import (
    BotVersion,
    Challenge,
)
from arena.services import challenges as challenge_service

# --- challenges -----------------------------------------------------------------------------


@extend_schema(tags=["challenges"])
class ChallengeViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Sequential tests of a candidate version against a baseline (pentanomial GSPRT)."""

    lookup_value_regex = r"\d+"
    serializer_class = s.ChallengeSerializer
    domain_errors = {"create": (VersionNotReady, Unavailable), "cancel": (Conflict,)}

    def get_queryset(self):
        versions = BotVersion.objects.defer("source").select_related("bot")
        return (
            Challenge.objects.select_related(
                "candidate", "candidate__bot", "baseline", "baseline__bot", "created_by"
            )
            .prefetch_related(Prefetch("opponents", queryset=versions))
            .order_by("-id")
        )

    def get_permissions(self):
        if self.action in {"create", "cancel"}:
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    def get_serializer_class(self):
        return s.ChallengeCreateSerializer if self.action == "create" else s.ChallengeSerializer

    @extend_schema(
        summary="Start a challenge (an owner of either version, or an organiser)",
        request=s.ChallengeCreateSerializer,
        responses={201: s.ChallengeSerializer},
    )
    def create(self, request, *args, **kwargs):
        form = s.ChallengeCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        challenge = challenge_service.create_challenge(request.user, **form.validated_data)
        shown = self.get_queryset().get(pk=challenge.pk)
        return Response(s.ChallengeSerializer(shown).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Cancel a running challenge", request=None, responses=s.ChallengeSerializer
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        challenge = self.get_object()
        challenge_service.cancel_challenge(challenge, request.user)
        return Response(s.ChallengeSerializer(self.get_queryset().get(pk=challenge.pk)).data)
