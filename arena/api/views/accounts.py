"""Accounts (registration, the current user, tokens) and games."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

import engine
from arena.api import serializers as s
from arena.api.parsers import JSONParser
from arena.errors import (
    NotFound,
    QuotaExceeded,
)
from arena.models import ApiToken
from arena.services import tokens as token_service

# --- accounts -------------------------------------------------------------------------------


@extend_schema(tags=["accounts"], summary="Register a bot author")
class RegisterView(generics.CreateAPIView):
    serializer_class = s.UserCreateSerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []


@extend_schema(tags=["accounts"], summary="The authenticated user")
class MeView(generics.RetrieveAPIView):
    serializer_class = s.UserSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_object(self):
        return self.request.user


@extend_schema(
    tags=["accounts"],
    summary="Get the API token of a user (send it as `Authorization: Token <key>`)",
    request=AuthTokenSerializer,
    responses=s.TokenSerializer,
)
class TokenView(ObtainAuthToken):
    # DRF's view lists its parsers itself; ours turns too deeply nested JSON into a 400.
    parser_classes = [JSONParser, FormParser, MultiPartParser]
    # Anyone may ask (with a username and password): the schema says so, and a stale token
    # sent along is not refused.
    authentication_classes: list = []


@extend_schema(tags=["accounts"])
class ApiTokenViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """The user's named API tokens (the site's tokens page, /my/tokens/, does the same)."""

    lookup_value_regex = r"\d+"
    serializer_class = s.ApiTokenSerializer
    permission_classes = [permissions.IsAuthenticated]
    domain_errors = {"create": (QuotaExceeded,)}

    def get_queryset(self):
        return ApiToken.objects.filter(user=self.request.user).order_by("-created_at", "-id")

    @extend_schema(
        summary="Make a named token: its key is in this answer only",
        request=s.ApiTokenCreateSerializer,
        responses={201: s.NewApiTokenSerializer},
    )
    def create(self, request):
        form = s.ApiTokenCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        token, key = token_service.create_token(request.user, form.validated_data["name"])
        token.key = key  # shown once: only its hash is stored
        return Response(s.NewApiTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Revoke a named token: the API refuses its key from now on")
    def destroy(self, request, pk=None):
        token_service.revoke_token(request.user, int(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


# The bot protocol the arena speaks and the oldest `arena` SDK it accepts: the SDK checks
# them before it logs in or uploads (bots/sdk/client.py keeps its own side of the pair).
PROTOCOL_VERSION = 1
OLDEST_SDK = "0.2.0"


@extend_schema(
    tags=["accounts"],
    summary="The bot protocol version and the oldest SDK this arena accepts",
    responses=s.VersionSerializer,
)
class VersionView(generics.GenericAPIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    serializer_class = s.VersionSerializer

    def get(self, request):
        return Response({"protocol": PROTOCOL_VERSION, "oldest_sdk": OLDEST_SDK})


# --- games ----------------------------------------------------------------------------------


@extend_schema(tags=["games"])
class GameViewSet(viewsets.ViewSet):
    """The registered games. A newly registered engine game appears here with no change."""

    permission_classes = [permissions.AllowAny]
    lookup_field = "name"
    lookup_value_regex = "[^/]+"

    @extend_schema(responses=s.GameSerializer(many=True))
    def list(self, request):
        games = [engine.get_game(name).describe() for name in engine.game_names()]
        return Response(s.GameSerializer(games, many=True).data)

    @extend_schema(responses=s.GameSerializer)
    def retrieve(self, request, name=None):
        try:
            game = engine.get_game(name)
        except engine.UnknownGame as exc:
            raise NotFound(str(exc)) from None
        return Response(s.GameSerializer(game.describe()).data)
